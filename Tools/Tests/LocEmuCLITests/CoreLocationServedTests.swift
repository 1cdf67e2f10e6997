import Foundation
import Testing
import ToolsTestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// A plain Linux program on `import CoreLocation` (corelocation-probe), bound to a phone of a
/// real `locemu serve` by LOCEMU_SERVER, driven from outside by the real `locemu ctl`, as
/// `simctl privacy` and `simctl location` drive an app in a simulator (issue 24).
@Suite("CoreLocation on a served phone (LOCEMU_SERVER)")
struct CoreLocationServedTests {
  typealias Server = ServeCommandTests.Server

  /// The probe: its input (commands) and its lines, read on a thread of its own.
  final class Probe: @unchecked Sendable {
    let process = Process()
    private let input = Pipe()
    private let lines: AsyncStream<String>
    /// The stream's iterator, used by one `line(startingWith:)` at a time.
    private final class Reader: @unchecked Sendable {
      var iterator: AsyncStream<String>.Iterator
      init(_ iterator: AsyncStream<String>.Iterator) { self.iterator = iterator }
    }
    private let reader: Reader

    init(server: String) throws {
      let binary = locemuBinary.deletingLastPathComponent().appendingPathComponent("corelocation-probe")
      process.executableURL = binary
      var environment = ProcessInfo.processInfo.environment
      environment["LOCEMU_SERVER"] = server
      environment["LOCEMU_PHONE"] = "1"
      process.environment = environment
      let output = Pipe()
      process.standardInput = input
      process.standardOutput = output
      process.standardError = FileHandle.standardError
      let (lines, continuation) = AsyncStream.makeStream(of: String.self)
      self.lines = lines
      reader = Reader(lines.makeAsyncIterator())
      try process.run()
      let reading = output.fileHandleForReading
      Thread {
        var pending = Data()
        // `availableData`, not `read(upToCount:)`: on Linux the latter waits for the whole
        // count (or the end), so the probe's short lines would sit unread in the pipe.
        while case let chunk = reading.availableData, !chunk.isEmpty {
          pending.append(chunk)
          while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
            continuation.yield(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
            pending.removeSubrange(pending.startIndex...newline)
          }
        }
        continuation.finish()
      }.start()
    }

    func send(_ command: String) { input.fileHandleForWriting.write(Data((command + "\n").utf8)) }

    /// The next line that starts with `prefix` (the lines before it are returned too), within
    /// `limit` of real time (a hang guard).
    func line(startingWith prefix: String, within limit: Duration = .seconds(600)) async throws -> (line: String, skipped: [String]) {
      let reader = self.reader
      return try await bounded("the probe's line starting with \"\(prefix)\"", limit) {
        var skipped: [String] = []
        while let line = await reader.iterator.next() {
          if line.hasPrefix(prefix) { return (line, skipped) }
          skipped.append(line)
        }
        throw LoopbackError(description: "the probe ended without a line starting with \"\(prefix)\" (after \(skipped))")
      }
    }

    /// SIGKILL, and no wait: Foundation reaps the child, and a `defer` in an async test must not
    /// block a thread of the cooperative pool in `waitUntilExit`.
    func stop() {
      if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
  }

  @Test("LOC-CL-40: the delegate hears ctl's grant, location and revoke, in order")
  func ctlDrivesACoreLocationProgram() async throws {
    let server = try await Server.start(virtualTime: false)
    defer { server.stop() }
    let probe = try Probe(server: server.url)
    defer { probe.stop() }
    // Made: told once, with the phone's status.
    #expect(try await probe.line(startingWith: "status").line == "status notDetermined accuracy full")
    #expect(try await server.ctl(["privacy", "grant"]).status == 0)
    #expect(try await probe.line(startingWith: "status").line == "status authorizedWhenInUse accuracy full")
    probe.send("start")
    #expect(try await server.ctl(["location", "set", "60.1699,24.9384"]).status == 0)
    #expect(try await probe.line(startingWith: "location").line == "location 60.169900 24.938400")
    // Held still, the position comes again each second as a new fix, stamped when it comes (as
    // a still device's receiver reports it), not the first fix with the same, older and older
    // stamp: each of the first three fixes' stamps (the probe prints it, seconds since 1970)
    // later than the one before. (Not its age when it arrived, which says how fast it came.)
    var stamps: [Double] = []
    for _ in 0..<3 {
      let line = try await probe.line(startingWith: "time ").line
      stamps.append(try #require(Double(line.dropFirst("time ".count)), "\(line)"))
    }
    #expect(zip(stamps, stamps.dropFirst()).allSatisfy { $0 < $1 }, "\(stamps)")
    #expect(try await server.ctl(["accuracy", "reduced"]).status == 0)
    #expect(try await probe.line(startingWith: "status").line == "status authorizedWhenInUse accuracy reduced")
    #expect(try await server.ctl(["privacy", "revoke"]).status == 0)
    #expect(try await probe.line(startingWith: "status").line == "status denied accuracy reduced")
  }

  @Test("LOC-CL-41: the app's own prompt is answered by the served phone's scripted user")
  func theAppsPromptIsAnsweredOnTheServedPhone() async throws {
    let server = try await Server.start(virtualTime: false)
    defer { server.stop() }
    #expect(try await server.ctl(["prompt", "deny", "--delay", "0"]).status == 0)
    let probe = try Probe(server: server.url)
    defer { probe.stop() }
    #expect(try await probe.line(startingWith: "status").line == "status notDetermined accuracy full")
    probe.send("request")
    #expect(try await probe.line(startingWith: "status").line == "status denied accuracy full")
    probe.send("once")
    #expect(try await probe.line(startingWith: "error").line == "error 1", "kCLErrorDenied")
  }
}
