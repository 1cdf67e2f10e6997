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

/// The threads of this process blocked in `futex(2)` and, for each priority-inheriting lock, its
/// holder by thread id and name: a line a hang guard's message puts before the thread dump (see
/// ``FutexWait``). Empty when no thread waits on a priority-inheriting lock.
public func futexWaits() -> String {
  let tasks = "/proc/self/task"
  let threads = ((try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? []).compactMap(Int32.init).sorted()
  var names: [Int32: String] = [:], states: [Int32: String] = [:]
  var waits: [FutexWait] = []
  // The word read through /proc/self/mem, not a pointer: the waiter may have returned and its
  // lock's memory been freed since its syscall file was read, which a read here survives.
  let memory = open("/proc/self/mem", O_RDONLY | O_CLOEXEC)
  defer { if memory >= 0 { close(memory) } }
  func word(at address: UInt) -> UInt32 {
    var value: UInt32 = 0
    guard memory >= 0, pread(memory, &value, 4, off_t(truncatingIfNeeded: address)) == 4 else { return 0 }
    return value
  }
  for thread in threads {
    let folder = "\(tasks)/\(thread)"
    names[thread] = (try? String(contentsOfFile: "\(folder)/comm", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
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
  return FutexWait.report(waits, names: names, states: states)
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
      case let owner? where names[owner] == nil: holder = "held by thread \(owner), which is no thread of this process"
      case let owner?: holder = "held by thread \(named(owner))"
      }
      return "  thread \(named(wait.thread)) waits for lock \(lock), \(holder)\(wait.holderDied ? " (its last holder died)" : "")"
    }
    return "threads waiting on priority-inheriting locks (the Swift runtime's once and mutexes):\n" + lines.joined(separator: "\n")
  }
}
