import EmulatorTesting
import Foundation
public import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// What every thread of a process (this one by default) was doing, for the message of a hang
/// guard that fired: a failure that says only "nothing within 600 s" cannot be diagnosed after
/// the run, and a hang seen once in a slow run is rarely seen again on demand.
///
/// gdb attaches for a moment (`thread apply all bt`) and the process goes on. The result is the
/// threads that were not idle, each with its name and innermost `frames` frames, names
/// demangled; a thread with nothing of ours on its stack (a queue's idle worker) is counted, not
/// shown. When gdb is not installed, cannot attach or takes more than `limit` (a hang guard of
/// its own), the result says so instead.
///
/// Before the dump, the threads waiting on the Swift runtime's locks, each with the lock's holder
/// (``futexWaits(of:)``), which no stack shows.
///
/// Blocks its thread while gdb runs: call it through `offPool`.
public func threadBacktraces(of process: Int32? = nil, frames: Int = 20, limit: Duration = .seconds(120)) -> String {
  examineHang(of: process, frames: frames, limit: limit).text
}

/// What a hang guard learns of a process that outlived it (``examineHang(of:frames:limit:)``).
public struct HangReport: Sendable {
  /// The lost handovers first, when any; the threads waiting on the runtime's locks with each
  /// lock's holder; gdb's dump of the threads that were not idle.
  public var text: String
  /// A thread slept on a lock the kernel had handed it, at two looks a second apart
  /// (``FutexSnapshot/lostHandovers``): the process stalled below its own code. gdb's attach,
  /// which interrupts and restarts every sleeping call, wakes it: the process goes on after.
  public var lostHandover: Bool
}

/// Looks at `process` (nil: this one) that outlived a hang guard: its futex waits, a
/// second look when a thread sleeps on a lock the kernel handed it, then gdb's dump (see
/// ``threadBacktraces(of:frames:limit:)``). Blocks its thread (a second, and while gdb runs).
public func examineHang(of process: Int32? = nil, frames: Int = 20, limit: Duration = .seconds(120)) -> HangReport {
  let pid = process ?? getpid()
  let first = FutexSnapshot(of: pid)
  var lost: [FutexWait] = []
  if !first.lostHandovers.isEmpty {
    Thread.sleep(forTimeInterval: 1)
    lost = FutexSnapshot(of: pid).stalledHandovers(since: first)
  }
  let locks = first.report
  let dump = gdbBacktraces(of: pid, frames: frames, limit: limit)
  var parts = lost.map { wait in
    "process \(pid): the kernel handed lock 0x\(String(wait.address, radix: 16)) to thread \(wait.thread), which still "
      + "sleeps in FUTEX_LOCK_PI for it, a second later too (a lost wakeup below the process's code; gdb's attach "
      + "restarts the sleeping call)"
  }
  if !locks.isEmpty { parts.append(locks) }
  parts.append(dump)
  return HangReport(text: parts.joined(separator: "\n"), lostHandover: !lost.isEmpty)
}

/// Records that `what` outlived its bound of `bound` and went on after the hang guard's look
/// (`look`, a ``HangReport``'s text): a warning issue, which fails nothing, and the same on
/// standard error as lines beginning "hang guard: ", which the test command gathers at its end
/// (a console may leave warning issues out).
public func recordEndAfterLook(_ what: String, bound: Duration, look: String, sourceLocation: SourceLocation = #_sourceLocation) {
  let message = "\(what): outlived its bound of \(bound) and went on after the hang guard's look:\n\(look)"
  Issue.record(Comment(rawValue: message), severity: .warning, sourceLocation: sourceLocation)
  let lines = message.split(separator: "\n", omittingEmptySubsequences: false).map { "hang guard: \($0)\n" }.joined()
  FileHandle.standardError.write(Data(lines.utf8))
}

private func gdbBacktraces(of pid: Int32, frames: Int, limit: Duration) -> String {
  guard let gdb = ["/usr/bin/gdb", "/usr/local/bin/gdb"].first(where: FileManager.default.isExecutableFile(atPath:)) else {
    return "(no thread backtraces: gdb is not installed)"
  }
  // gdb stops every thread of the process while attached (when it is this one, the thread
  // waiting for it included): its output goes to a file (a pipe this process cannot drain would
  // fill and stop gdb for good), and timeout(1), a process of its own, is its hang guard.
  let file = FileManager.default.temporaryDirectory.appendingPathComponent("locemu-threads-\(UUID().uuidString).txt")
  guard FileManager.default.createFile(atPath: file.path, contents: nil), let output = try? FileHandle(forWritingTo: file) else {
    return "(no thread backtraces: cannot write \(file.path))"
  }
  defer { try? FileManager.default.removeItem(at: file) }
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
  process.arguments = [
    "-s", "KILL", String(limit.components.seconds), gdb, "-p", String(pid), "-batch", "-nx",
    // Its complaints about the build's missing module caches, thousands of lines, left out.
    "-iex", "set complaints 0", "-ex", "set pagination off", "-ex", "thread apply all bt \(frames)",
  ]
  process.standardOutput = output
  process.standardError = output
  process.standardInput = FileHandle.nullDevice
  do { try process.run() } catch { return "(no thread backtraces: gdb did not start: \(error))" }
  process.waitUntilExit()
  try? output.close()
  return summarizedBacktraces(demangled(file) ?? (try? String(contentsOf: file, encoding: .utf8)) ?? "")
}

/// gdb's `thread apply all bt` output cut to the threads worth reading: each "Thread N (…)"
/// block with a frame in this repository's code, or in the Swift runtime's locks (a lazy global's
/// `once`, generic metadata), is kept whole; the rest (a queue's idle worker, a run loop, the
/// sanitizer's own thread) are counted.
package func summarizedBacktraces(_ text: String, repository: String = repositoryRoot.path) -> String {
  var blocks: [[Substring]] = []
  for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
    if line.hasPrefix("Thread ") {
      blocks.append([line])
    } else if line.hasPrefix("#"), !blocks.isEmpty {
      blocks[blocks.count - 1].append(line)
    }
  }
  guard !blocks.isEmpty else {
    let lines = text.split(separator: "\n").suffix(5).joined(separator: "\n")
    return "(no thread backtraces: gdb printed no threads)\n\(lines)"
  }
  let marks = [repository + "/", "once_slow", "swift_once", "Metadata"]
  var shown: [String] = []
  var idle = 0
  for block in blocks {
    if block.dropFirst().contains(where: { frame in marks.contains { frame.contains($0) } }) {
      shown.append(block.joined(separator: "\n"))
    } else {
      idle += 1
    }
  }
  return "threads at the hang (gdb; \(idle) idle thread\(idle == 1 ? "" : "s") not shown):\n" + shown.joined(separator: "\n\n")
}

/// The file's text with Swift's mangled names made readable by the toolchain's swift-demangle
/// (found on PATH, as `swift` is), or nil when it cannot run.
func demangled(_ file: URL) -> String? {
  guard let reading = try? FileHandle(forReadingFrom: file) else { return nil }
  defer { try? reading.close() }
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  process.arguments = ["swift-demangle", "--simplified"]
  process.standardInput = reading
  let output = Pipe()
  process.standardOutput = output
  process.standardError = FileHandle.nullDevice
  guard (try? process.run()) != nil else { return nil }
  let result = output.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return process.terminationStatus == 0 ? String(decoding: result, as: UTF8.self) : nil
}
