import EmulatorTesting
import Foundation
import Geo
import LocEmuCommands
import Testing
import ToolsTestSupport

#if canImport(Glibc)
  import Glibc
#endif

extension DecodeCommandTests {
  /// Runs `locemu ARGUMENTS` in this process, as the executable would (``LocEmu/execute(_:)``),
  /// with standard output and error going to files of its own and standard input empty: for
  /// commands that need no process of their own (argument and file errors, help, conversions,
  /// decoding). A command that has not returned within `bound` (a hang guard only) fails the
  /// call (and is cancelled); the process tests keep what needs a process (signals, exit,
  /// servers, stdin). With `output`, standard output is that descriptor instead (the run's
  /// `stdout` then empty).
  ///
  /// A command that stalled on a lost wakeup below its code (``examineHang(of:frames:limit:)``)
  /// is given a second bound after the look that ends the stall; when it then ends, its result is
  /// its own and the stall a warning.
  static func runInProcess(
    _ arguments: [String], output given: Int32? = nil, bound: Duration = .seconds(600),
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws -> Run {
    // One at a time. Under ThreadSanitizer the Swift runtime takes a lock (a priority-inheriting
    // futex) on every access to some generic metadata (Array<String>'s storage, …), where a
    // plain build reads a flag; argument parsing makes thousands of such accesses, and several
    // commands parsing at once on two loaded cores made a convoy that stalled every thread of
    // the suite, the cooperative pool's included, for tens of seconds (seen in gdb: 13
    // threads in the runtime's once_slow).
    await inProcessSlot.acquire()
    defer { inProcessSlot.release() }
    let output = try CapturedFile(), error = try CapturedFile()
    let input = open("/dev/null", O_RDONLY | O_CLOEXEC)
    defer { close(input) }
    let streams = StandardStreams(input: input, output: given ?? output.fd, error: error.fd)
    // On a thread of its own: a command may block its thread (decode waits on its decoder
    // thread), which on the cooperative pool (two threads here) would stall every other test.
    let thread = CommandThread()
    let command = Task(executorPreference: thread) {
      await StandardStreams.$current.withValue(streams) { await LocEmu.execute(arguments) }
    }
    // The command's own task goes on when the wait is cancelled at the bound: it is cancelled
    // here, once the wait (its hang guard and look included) gives up.
    let status: Int32
    do {
      status = try await bounded("locemu \(arguments.joined(separator: " ")) in process", bound, sourceLocation: sourceLocation) {
        await command.value
      }
    } catch let failure {
      command.cancel()
      throw failure
    }
    thread.shutdown()
    return Run(status: status, stdout: output.read(), stderr: error.read())
  }
}

/// The in-process runs, one at a time (``DecodeCommandTests/runInProcess(_:bound:)``).
private let inProcessSlot = AsyncSlots(1)

/// A thread that runs the jobs of the tasks that prefer it (a task executor), one at a time, in
/// order, until shut down.
private final class CommandThread: TaskExecutor, @unchecked Sendable {
  private let condition = NSCondition()
  private var jobs: [UnownedJob] = []
  private var finished = false

  init() {
    let thread = Thread { [self] in
      // Its own thread, not one of the pool's: what blocks here (decode waiting on its decoder
      // thread) holds up no other test, and expectOffPool says nothing of it.
      CooperativePool.markCurrentThreadOffPool()
      loop()
    }
    thread.name = "locemu in process"
    thread.stackSize = 8 << 20
    thread.start()
  }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    condition.lock()
    jobs.append(job)
    condition.signal()
    condition.unlock()
  }

  /// The thread ends once the jobs it has are run.
  func shutdown() {
    condition.lock()
    finished = true
    condition.signal()
    condition.unlock()
  }

  private func loop() {
    while true {
      condition.lock()
      while jobs.isEmpty && !finished { condition.wait() }
      if jobs.isEmpty {
        condition.unlock()
        return
      }
      let job = jobs.removeFirst()
      condition.unlock()
      job.runSynchronously(on: asUnownedTaskExecutor())
    }
  }
}

/// A temporary file a command in process writes to, read back whole, removed when released.
private final class CapturedFile {
  let fd: Int32
  private let path: String

  init() throws {
    var template = Array((FileManager.default.temporaryDirectory.path + "/locemu-in-process-XXXXXX").utf8CString)
    fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard fd >= 0 else { throw LoopbackError(description: "cannot make a temporary file: \(String(cString: strerror(errno)))") }
    path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  func read() -> String {
    (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
  }

  deinit {
    close(fd)
    unlink(path)
  }
}
