import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A thread of this process blocked in `futex(2)`, as `/proc/self/task/TID/syscall` shows it, with
/// the lock's holder when the futex is priority-inheriting.
///
/// On Linux the Swift runtime's locks (a lazy global's or a metadata cache's `once`, its mutexes)
/// are priority-inheriting futexes, whose word holds the holder's thread id. A thread dump shows
/// who waits, never who holds: a holder's stack has no frame that says it holds the lock. This
/// names the holder, and says when it is no thread of this process (a lock that no one will
/// release).
package struct FutexWait: Equatable, Sendable {
  /// The waiting thread.
  package var thread: Int32
  /// The futex word's address.
  package var address: UInt
  /// The operation without its flags (`FUTEX_PRIVATE_FLAG`, `FUTEX_CLOCK_REALTIME`).
  package var operation: Int
  /// For a priority-inheriting futex, the holder's thread id from its word (nil: none, or not PI).
  package var holder: Int32?
  /// The word says the last holder ended while it held the lock.
  package var holderDied = false

  /// `FUTEX_LOCK_PI` and `FUTEX_LOCK_PI2`: the word holds the holder's thread id.
  package var isPriorityInheriting: Bool { operation == 6 || operation == 13 }

  /// Parses one thread's `syscall` file ("202 0x7f… 0x86 0x0 …": the call's number and its
  /// arguments); nil unless the thread is in `futex`. `word` reads the futex word at an address.
  package init?(thread: Int32, syscall line: String, word: (UInt) -> UInt32) {
    let fields = line.split(separator: " ")
    guard fields.count >= 3, Int(fields[0]) == Self.futexCall,
      let address = UInt(fields[1].dropFirst(2), radix: 16), let operation = Int(fields[2].dropFirst(2), radix: 16), address != 0
    else { return nil }
    self.thread = thread
    self.address = address
    self.operation = operation & 0x7f
    if isPriorityInheriting {
      let value = word(address)
      let owner = Int32(bitPattern: value & 0x3fff_ffff)
      holder = owner == 0 ? nil : owner
      holderDied = value & 0x4000_0000 != 0
    }
  }

  #if arch(x86_64)
    static let futexCall = 202
  #else
    static let futexCall = 98  // arm64
  #endif
}

/// The threads of a process (this one by default) blocked in `futex(2)`, read from `/proc`: each
/// thread's wait, name and scheduler state, at one moment.
package struct FutexSnapshot: Sendable {
  package var waits: [FutexWait] = []
  package var names: [Int32: String] = [:]
  package var states: [Int32: String] = [:]

  /// Reads the threads of `process` (nil: this one). Another process's words are read through its
  /// `/proc/PID/mem`, which needs the right to trace it (its parent has it).
  package init(of process: Int32? = nil) {
    let pid = process ?? getpid()
    let tasks = "/proc/\(pid)/task"
    let threads = ((try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? []).compactMap(Int32.init).sorted()
    // The word read through /proc/PID/mem, not a pointer: the waiter may have returned and its
    // lock's memory been freed since its syscall file was read, which a read here survives.
    let memory = open("/proc/\(pid)/mem", O_RDONLY | O_CLOEXEC)
    defer { if memory >= 0 { close(memory) } }
    func word(at address: UInt) -> UInt32 {
      var value: UInt32 = 0
      guard memory >= 0, pread(memory, &value, 4, off_t(truncatingIfNeeded: address)) == 4 else { return 0 }
      return value
    }
    for thread in threads {
      let folder = "\(tasks)/\(thread)"
      names[thread] =
        (try? String(contentsOfFile: "\(folder)/comm", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
      // The scheduler's state: R running or runnable, S sleeping, D in the kernel uninterruptibly.
      if let stat = try? String(contentsOfFile: "\(folder)/stat", encoding: .utf8),
        let state = stat.split(separator: ")").last?.first(where: { $0 != " " })
      {
        states[thread] = String(state)
      }
      guard let line = try? String(contentsOfFile: "\(folder)/syscall", encoding: .utf8) else { continue }
      if let wait = FutexWait(thread: thread, syscall: line, word: word(at:)) {
        waits.append(wait)
      }
    }
  }

  package init(waits: [FutexWait], names: [Int32: String], states: [Int32: String] = [:]) {
    (self.waits, self.names, self.states) = (waits, names, states)
  }

  /// The report of ``FutexWait/report(_:names:states:)``.
  package var report: String { FutexWait.report(waits, names: names, states: states) }

  /// The threads asleep in `FUTEX_LOCK_PI` on a lock whose word names that very thread as its
  /// holder: the kernel handed the lock over (it writes the new holder's id into the word) and
  /// never woke the new holder. No code of the process can cause it, and none can end it: every
  /// thread that needs the lock waits on a sleeper that already holds it, until a signal or a
  /// debugger restarts the sleeping call (seen in the Swift runtime's `once` under load, on Linux
  /// 6.18). A correct handover shows this only for the instant between the word's write and the
  /// wakeup; ``stalledHandovers(since:)`` asks for it twice.
  package var lostHandovers: [FutexWait] {
    waits.filter { $0.isPriorityInheriting && $0.holder == $0.thread }
  }

  /// The lost handovers seen in this snapshot and, the same lock with the same holder, in
  /// `earlier`: one that lasted, not the instant of a correct handover.
  package func stalledHandovers(since earlier: FutexSnapshot) -> [FutexWait] {
    let before = Set(earlier.lostHandovers.map { "\($0.address) \($0.holder ?? 0)" })
    return lostHandovers.filter { before.contains("\($0.address) \($0.holder ?? 0)") }
  }
}

/// The threads of a process (this one by default) blocked in `futex(2)` and, for each
/// priority-inheriting lock, its holder by thread id and name: a line a hang guard's message puts
/// before the thread dump (see ``FutexWait``). Empty when no thread waits on a
/// priority-inheriting lock.
public func futexWaits(of process: Int32? = nil) -> String {
  FutexSnapshot(of: process).report
}

extension FutexWait {
  /// A line for each priority-inheriting wait: who waits, on which lock, held by whom (with its
  /// scheduler state from `states`: a holder that is runnable but never runs is starved, one that
  /// sleeps waits on something else).
  package static func report(_ waits: [FutexWait], names: [Int32: String], states: [Int32: String] = [:]) -> String {
    let locked = waits.filter(\.isPriorityInheriting)
    guard !locked.isEmpty else { return "" }
    func named(_ thread: Int32) -> String {
      (names[thread].map { "\(thread) \"\($0)\"" } ?? "\(thread)") + (states[thread].map { " (state \($0))" } ?? "")
    }
    let lines = locked.map { wait -> String in
      let lock = "0x" + String(wait.address, radix: 16)
      let holder: String
      switch wait.holder {
      case nil: holder = "held by no thread"
      case let owner? where names[owner] == nil: holder = "held by thread \(owner), which is no thread of the process"
      case let owner?: holder = "held by thread \(named(owner))"
      }
      return "  thread \(named(wait.thread)) waits for lock \(lock), \(holder)\(wait.holderDied ? " (its last holder died)" : "")"
    }
    return "threads waiting on priority-inheriting locks (the Swift runtime's once and mutexes):\n" + lines.joined(separator: "\n")
  }
}
