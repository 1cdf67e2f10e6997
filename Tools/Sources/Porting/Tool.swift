import Foundation

/// Runs a program and collects its output, without blocking a thread of Swift's cooperative
/// pool: the output goes to a file and the exit is awaited through the termination handler.
enum Tool {
  struct Result {
    var status: Int32
    var stdout: String
    var stderr: String
    var output: String { stdout + stderr }
  }

  static func run(_ program: String, _ arguments: [String], environment: [String: String] = [:]) async throws -> Result {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("locemu-port-run-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let out = folder.appendingPathComponent("stdout"), err = folder.appendingPathComponent("stderr")
    _ = FileManager.default.createFile(atPath: out.path, contents: nil)
    _ = FileManager.default.createFile(atPath: err.path, contents: nil)
    let stdout = try FileHandle(forWritingTo: out), stderr = try FileHandle(forWritingTo: err)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [program] + arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    process.standardOutput = stdout
    process.standardError = stderr
    process.standardInput = FileHandle.nullDevice
    // Cancelled (the caller gave up), the program is stopped: nothing is left running.
    let status: Int32 = try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
        do { try process.run() } catch {
          process.terminationHandler = nil
          continuation.resume(throwing: error)
        }
      }
    } onCancel: {
      // SIGINT, as a terminal's ^C: `swift build` and `swift test` then stop their own children
      // (the test process leads a process group of its own, out of reach of a signal to ours).
      if process.isRunning { process.interrupt() }
    }
    try? stdout.close()
    try? stderr.close()
    return Result(
      status: status, stdout: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
      stderr: (try? String(contentsOf: err, encoding: .utf8)) ?? "")
  }
}
