import EmulatorTesting
import Foundation
import Testing

@testable import ToolsTestSupport

/// A hang guard that fires names what each thread was doing (``threadBacktraces(frames:limit:)``):
/// a hang seen once in a slow run is diagnosed from its failure message, not reproduced.
@Suite("A hang guard's message shows the threads")
struct ThreadDumpTests {
  @Test func aThreadWaitingInOurCodeIsShownAndIdleOnesCounted() {
    let gdb = """
      [New LWP 12]
      0x00007f in __futex_abstimed_wait_common64 () from /lib/x86_64-linux-gnu/libc.so.6

      Thread 3 (Thread 0x7f1 (LWP 14) "locemu in proce"):
      #0  0x00007f in __futex_abstimed_wait_common64 () from /lib/x86_64-linux-gnu/libc.so.6
      #1  0x00007f in swift::once_slow(swift::once_t&, void (*)(void*), void*) () from libswiftCore.so
      #2  0x00005a in static LocEmu.execute(_:) () at /repo/Tools/Sources/LocEmuCommands/LocEmu.swift:70

      Thread 2 (Thread 0x7f2 (LWP 13) "TaskPool"):
      #0  0x00007f in __futex_abstimed_wait_common64 () from /lib/x86_64-linux-gnu/libc.so.6
      #1  0x00007f in pthread_cond_wait () from /lib/x86_64-linux-gnu/libc.so.6
      #2  0x00007f in _dispatch_worker_thread () from libdispatch.so
      #3  0x00007f in start_thread () from /lib/x86_64-linux-gnu/libc.so.6

      Thread 4 (Thread 0x7f4 (LWP 15) "oot.default-qos"):
      #0  0x00007f in __ppoll () from /lib/x86_64-linux-gnu/libc.so.6
      #1  0x00005a in closure #1 in runBlocking() () at /repo/Tools/Tests/LocEmuCLITests/DecodeCommandTests.swift:80

      Thread 1 (Thread 0x7f3 (LWP 12) "xctest"):
      #0  0x00007f in epoll_wait () from /lib/x86_64-linux-gnu/libc.so.6
      #1  0x00007f in _dispatch_event_loop_drain () from libdispatch.so
      """
    let summary = summarizedBacktraces(gdb, repository: "/repo")
    #expect(summary.hasPrefix("threads at the hang (gdb; 2 idle threads not shown):"))
    #expect(summary.contains("\"locemu in proce\""))
    #expect(summary.contains("once_slow"))
    #expect(summary.contains("runBlocking"))
    #expect(!summary.contains("TaskPool") && !summary.contains("xctest"))
  }

  @Test func gdbThatPrintsNoThreadsIsSaidSo() {
    let summary = summarizedBacktraces("ptrace: Operation not permitted.\n")
    #expect(summary.hasPrefix("(no thread backtraces: gdb printed no threads)"))
    #expect(summary.contains("Operation not permitted"))
  }

  /// The Swift runtime's locks are priority-inheriting futexes whose word holds the holder's
  /// thread id: the message names it, and says when it is no thread of this process.
  @Test func aThreadWaitingOnARuntimeLockIsShownWithTheLocksHolder() {
    let words: [UInt: UInt32] = [0x7f00_1000: 0x8000_0000 | 15, 0x7f00_2000: 0x8000_0000 | 99, 0x7f00_3000: 0xC000_0000 | 16]
    let word: (UInt) -> UInt32 = { words[$0] ?? 0 }
    #if arch(x86_64)
      let futex = "202", poll = "7"
    #else
      let futex = "98", poll = "73"
    #endif
    let lines: [(Int32, String)] = [
      (14, "\(futex) 0x7f001000 0x86 0x0 0x0 0x0 0x7ffd0000 0x7f000010"),  // FUTEX_LOCK_PI | PRIVATE
      (16, "\(futex) 0x7f002000 0x86 0x0 0x0 0x0 0x7ffd0000 0x7f000010"),
      (17, "\(futex) 0x7f003000 0x8d 0x0 0x0 0x0 0x7ffd0000 0x7f000010"),  // FUTEX_LOCK_PI2 | PRIVATE
      (18, "\(futex) 0x7f004000 0x189 0x0 0x0 0x0 0x7ffd0000 0x7f000010"),  // a condition's FUTEX_WAIT_BITSET
      (19, "\(poll) 0x7f005000 0x1 0x0 0x0 0x0 0x7ffd0000 0x7f000010"),
      (20, "running"),
    ]
    let waits = lines.compactMap { FutexWait(thread: $0.0, syscall: $0.1, word: word) }
    #expect(waits.map(\.thread) == [14, 16, 17, 18])
    #expect(waits.map(\.isPriorityInheriting) == [true, true, true, false])
    #expect(waits[0].holder == 15 && waits[1].holder == 99 && waits[2].holder == 16 && waits[3].holder == nil)
    #expect(waits[2].holderDied && !waits[0].holderDied)

    let names: [Int32: String] = [14: "locemu in proce", 15: "TaskPool", 16: "xctest", 17: "a", 18: "b"]
    let text = FutexWait.report(waits, names: names)
    #expect(text.hasPrefix("threads waiting on priority-inheriting locks"))
    #expect(text.contains("thread 14 \"locemu in proce\" waits for lock 0x7f001000, held by thread 15 \"TaskPool\""), "\(text)")
    #expect(
      text.contains("thread 16 \"xctest\" waits for lock 0x7f002000, held by thread 99, which is no thread of the process"), "\(text)")
    #expect(text.contains("held by thread 16 \"xctest\" (its last holder died)"), "\(text)")
    #expect(!text.contains("thread 18"), "a condition variable's wait is no lock: \(text)")
    #expect(FutexWait.report(Array(waits.suffix(1)), names: names).isEmpty)
    // With the scheduler's states: a holder runnable but not running is starved.
    #expect(
      FutexWait.report(waits, names: names, states: [14: "S", 15: "R"]).contains(
        "thread 14 \"locemu in proce\" (state S) waits for lock 0x7f001000, held by thread 15 \"TaskPool\" (state R)"))
  }

  /// The kernel handed a lock to a thread that still sleeps for it (the word names the sleeper):
  /// a lost wakeup below the process's code, not a busy holder. Only one seen at two looks
  /// counts: a correct handover shows it for the instant before the new holder wakes.
  @Test func aSleeperNamedAsItsLocksHoldersIsALostHandover() {
    #if arch(x86_64)
      let futex = "202"
    #else
      let futex = "98"
    #endif
    func snapshot(holder: UInt32) -> FutexSnapshot {
      let word: (UInt) -> UInt32 = { $0 == 0x7f00_1000 ? 0x8000_0000 | holder : 0x8000_0000 | 30 }
      let lines: [(Int32, String)] = [
        (14, "\(futex) 0x7f001000 0x86 0x0 0x0 0x0 0x7ffd0000 0x7f000010"),
        (15, "\(futex) 0x7f001000 0x86 0x0 0x0 0x0 0x7ffd0000 0x7f000010"),
        (16, "\(futex) 0x7f002000 0x86 0x0 0x0 0x0 0x7ffd0000 0x7f000010"),  // held by 30, which runs
      ]
      let waits = lines.compactMap { FutexWait(thread: $0.0, syscall: $0.1, word: word) }
      return FutexSnapshot(waits: waits, names: [14: "a", 15: "b", 16: "c", 30: "d"], states: [14: "S", 15: "S", 16: "S", 30: "R"])
    }
    let stalled = snapshot(holder: 14)
    #expect(stalled.lostHandovers.map(\.thread) == [14])
    #expect(stalled.stalledHandovers(since: snapshot(holder: 14)).map(\.thread) == [14])
    // The lock went on to thread 15 between the looks: each look caught a handover's instant.
    #expect(snapshot(holder: 15).stalledHandovers(since: stalled).isEmpty)
    // Held by a thread that does not wait for it: a holder at work, no lost wakeup.
    #expect(snapshot(holder: 30).lostHandovers.isEmpty)
  }

  /// A child process that outlives its bound is looked at (its threads, by gdb) and killed; the
  /// look is in the run, for the issue that names the command.
  @Test func aHungChildIsLookedAtThenKilled() async throws {
    let run = try await offPool {
      try DecodeCommandTests.runBlocking(["600"], bound: .seconds(1), executable: URL(fileURLWithPath: "/bin/sleep"))
    }
    #expect(run.timedOut && run.status == SIGKILL)
    let look = try #require(run.hang)
    #expect(look.contains("threads at the hang (gdb; 1 idle thread not shown)"), "\(look)")
  }

  /// A child the look wakes (which gdb's attach does to a thread asleep on a lost wakeup) gets a
  /// second bound: it ends by itself, with its own status and output, and the look in the run.
  /// The stand-in for the lost wakeup: the child waits to read a FIFO that only the look writes.
  @Test func aChildTheLookWakesEndsWithItsOwnResult() async throws {
    let run = try await Self.runChildWaitingOnALook(lostHandover: true) { _ in }
    #expect(!run.timedOut && run.status == 0 && run.stdout == "went on: woken\n", "\(run)")
    #expect(run.hang == "the look")
  }

  /// A child that ends while the guard looks is not killed (its pid may be reused by then): the
  /// disarm waits for the look, and the run keeps its own result, with the look.
  @Test func aChildThatEndsDuringTheLookIsNotKilled() async throws {
    let run = try await Self.runChildWaitingOnALook(lostHandover: false) { pid in
      // Until the child has ended (without reaping it: Foundation does), all within the look.
      var info = siginfo_t()
      _ = waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT)
    }
    #expect(!run.timedOut && run.status == 0 && run.stdout == "went on: woken\n", "\(run)")
    #expect(run.hang == "the look")
  }

  /// A shell, through `runBlocking` with a 1 s bound, that waits to read a line from a FIFO which
  /// only the guard's look writes ("woken"), then prints "went on: woken". The look then runs
  /// `then` with the child's pid and says `lostHandover`.
  private static func runChildWaitingOnALook(
    lostHandover: Bool, then: @escaping @Sendable (Int32) -> Void
  ) async throws -> DecodeCommandTests.Run {
    let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("look-\(UUID().uuidString)").path
    #expect(mkfifo(fifo, 0o600) == 0)
    defer { unlink(fifo) }
    return try await offPool {
      try DecodeCommandTests.runBlocking(
        ["-c", "read line < \"$0\"; echo \"went on: $line\"", fifo], bound: .seconds(1), executable: URL(fileURLWithPath: "/bin/sh"),
        examine: { pid in
          // Opening a FIFO to write waits for its reader: no race with the child's start.
          let writer = open(fifo, O_WRONLY | O_CLOEXEC)
          _ = "woken\n".withCString { write(writer, $0, 6) }
          close(writer)
          then(pid)
          return HangReport(text: "the look", lostHandover: lostHandover)
        })
    }
  }

  /// gdb attached to this very process: a thread parked in a function of ours is in the dump,
  /// by that function's name (gdb reads it from the symbol table, swift-demangle makes it
  /// readable), with its file.
  @Test func theLiveProcessDumpShowsAThreadWaitingOnPurpose() async throws {
    let parked = ParkedThread()
    defer { parked.release() }
    #expect(await parked.started.wait { $0 }, "the parked thread did not start")
    let dump = await offPool { threadBacktraces() }
    #expect(dump.contains("ParkedThread.parkedOnPurposeForTheThreadDump()"), "\(dump)")
    #expect(dump.contains("ThreadDumpTests.swift:"), "\(dump)")
  }
}

/// A thread of its own, parked in a function with a name to find until released.
private final class ParkedThread: @unchecked Sendable {
  let started = Watched(false)
  private let condition = NSCondition()
  private var released = false

  init() {
    let thread = Thread { [self] in parkedOnPurposeForTheThreadDump() }
    thread.name = "parked on purpose"
    thread.start()
  }

  @inline(never)
  private func parkedOnPurposeForTheThreadDump() {
    condition.lock()
    started.update { $0 = true }
    while !released { condition.wait() }
    condition.unlock()
  }

  func release() {
    condition.lock()
    released = true
    condition.signal()
    condition.unlock()
  }
}
