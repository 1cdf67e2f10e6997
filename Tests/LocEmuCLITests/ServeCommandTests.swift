import Foundation
import Geo
import LocationTestSupport
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

#if canImport(Glibc)
  import Glibc
#endif

/// `locemu serve` and `locemu ctl` end to end (issue 14): the real server process on a
/// loopback port, driven by the real `ctl` binary, on a virtual clock so that every
/// answer is exact.
@Suite("serve, ctl")
struct ServeCommandTests {
  typealias Run = DecodeCommandTests.Run

  /// A running `locemu serve`, stopped (SIGKILL) when the test is done with it.
  final class Server: Sendable {
    let process: Process
    let url: String

    private init(process: Process, url: String) {
      self.process = process
      self.url = url
    }

    /// Starts it and waits (at most 60 s) for its "listening on" line on standard error.
    static func start(_ extra: [String] = []) async throws -> Server {
      let process = Process()
      process.executableURL = locemuBinary
      process.arguments = ["serve", "--virtual-time", "--listen", "127.0.0.1:0"] + extra
      let err = Pipe()
      process.standardError = err
      process.standardOutput = FileHandle.nullDevice
      try process.run()
      let pid = process.processIdentifier
      let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
      DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: watchdog)
      let line = try await offPool { () -> String in
        var seen = Data()
        while let chunk = try err.fileHandleForReading.read(upToCount: 1), !chunk.isEmpty {
          seen.append(chunk)
          if chunk == Data("\n".utf8) { break }
        }
        return String(decoding: seen, as: UTF8.self)
      }
      watchdog.cancel()
      let url = line.split(separator: " ").last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } ?? ""
      guard line.hasPrefix("listening on http://") else {
        kill(pid, SIGKILL)
        throw LoopbackError(description: "serve did not start: \(line)")
      }
      return Server(process: process, url: url)
    }

    func ctl(_ arguments: [String], phone: String? = nil) async throws -> Run {
      try await DecodeCommandTests.run(
        ["ctl", "--server", url] + (phone.map { ["--phone", $0] } ?? []) + arguments, bound: .seconds(60))
    }

    /// `ctl` whose answer is a JSON object.
    func object(_ arguments: [String], phone: String? = nil) async throws -> [String: Any] {
      let run = try await ctl(arguments, phone: phone)
      #expect(run.status == 0, "ctl \(arguments.joined(separator: " ")): \(run.stderr)")
      return try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    }

    func stop() {
      if process.isRunning { kill(process.processIdentifier, SIGKILL) }
      process.waitUntilExit()
    }
  }

  /// The `ctl` verbs change the state that `status` reads back.
  @Test func verbsChangeTheStateThatStatusReadsBack() async throws {
    let server = try await Server.start()
    defer { server.stop() }
    var state = try await server.object(["status"])
    #expect(state["status"] as? String == "notDetermined" && state["lastFix"] is NSNull)

    state = try await server.object(["privacy", "grant"])
    #expect(state["status"] as? String == "authorizedWhenInUse")
    state = try await server.object(["privacy", "grant", "--always"])
    #expect(state["status"] as? String == "authorizedAlways")
    #expect(try await server.object(["privacy", "revoke"])["status"] as? String == "denied")
    #expect(try await server.object(["privacy", "restrict"])["status"] as? String == "restricted")
    #expect(try await server.object(["privacy", "reset"])["status"] as? String == "notDetermined")
    #expect(try await server.object(["services", "off"])["services"] as? String == "off")
    #expect(try await server.object(["services", "on"])["services"] as? String == "on")
    #expect(try await server.object(["accuracy", "reduced"])["accuracy"] as? String == "reduced")
    #expect(try await server.object(["app", "background"])["app"] as? String == "background")
    #expect(try await server.object(["app", "foreground"])["app"] as? String == "foreground")

    state = try await server.object(["location", "set", "52.2297,21.0122", "--altitude", "110", "--accuracy", "8", "--speed", "1.5", "--course", "90"])
    let fix = try #require(state["lastFix"] as? [String: Any])
    #expect(fix["lat"] as? Double == 52.2297 && fix["lon"] as? Double == 21.0122)
    #expect(fix["altMSL"] as? Double == 110 && fix["eph"] as? Double == 8 && fix["speed"] as? Double == 1.5 && fix["track"] as? Double == 90)
    #expect(try await server.object(["location", "clear"])["fixLost"] as? Bool == true)
    #expect(try await server.object(["status"])["fixLost"] as? Bool == true)
  }

  /// On the virtual clock the prompt waits for `clock advance`; the app's call, the prompt and
  /// its answer reach an event stream in order.
  @Test func theEventStreamSeesEveryChangeInOrder() async throws {
    let server = try await Server.start()
    defer { server.stop() }
    #expect(try await server.object(["prompt", "allowOnce", "--delay", "2"])["promptAnswer"] as? String == "allowOnce")
    #expect(try await server.object(["call", "authorize"])["promptOnScreen"] as? Bool == true)
    #expect(try await server.object(["clock", "advance", "1.5"])["elapsed"] as? Double == 1.5)
    #expect(try await server.object(["status"])["status"] as? String == "notDetermined")
    #expect(try await server.object(["clock", "advance", "0.5"])["elapsed"] as? Double == 2)
    #expect(try await server.object(["status"])["status"] as? String == "authorizedWhenInUse")
    _ = try await server.object(["app", "background"])

    let events = try await server.ctl(["events", "--history", "100", "--count", "9"])
    #expect(events.status == 0, "\(events.stderr)")
    let names = events.lines.compactMap { line in
      (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["event"] as? String
    }
    #expect(names == [
      "start", "authorize", "prompt", "promptAnswered", "authorizeResult", "statusChange", "allowOnceExpired", "background",
      "statusChange",
    ])
  }

  /// Phones are made, listed and deleted; each has its own state.
  @Test func phonesAreMadeListedAndDeleted() async throws {
    let server = try await Server.start(["--phones", "2", "--permission", "denied"])
    defer { server.stop() }
    let list = try await server.object(["phones"])
    #expect((list["phones"] as? [[String: Any]])?.map { $0["id"] as? String } == ["1", "2"])
    #expect(try await server.object(["status"])["status"] as? String == "denied")
    #expect(try await server.object(["status"], phone: "2")["status"] as? String == "notDetermined")
    let made = try await server.object(["phones", "create"])
    #expect(made["id"] as? String == "3")
    #expect(try await server.ctl(["phones", "delete", "2"]).status == 0)
    let after = try await server.object(["phones"])
    #expect((after["phones"] as? [[String: Any]])?.map { $0["id"] as? String } == ["1", "3"])
  }

  /// Refusals are exit 1 with the server's one-line message; no server is 2; bad usage 64.
  @Test func refusalsUnreachableAndBadUsageHaveTheirExitCodes() async throws {
    let server = try await Server.start()
    defer { server.stop() }
    let unknown = try await server.ctl(["status"], phone: "99")
    #expect(unknown.status == 1 && unknown.stderr == "locemu ctl: no phone 99\n")
    let outOfRange = try await server.ctl(["location", "set", "91,0"])
    #expect(outOfRange.status == 1 && outOfRange.stderr == "locemu ctl: lat must be within -90…90 and lon within -180…180\n")
    #expect(try await server.ctl(["event", "tap"]).status == 1)
    #expect(try await server.ctl(["privacy", "maybe"]).status == 64)
    #expect(try await server.ctl(["location", "set", "north"]).status == 64)
    #expect(try await server.ctl([]).status == 64)
    let nobody = try await DecodeCommandTests.run(["ctl", "--server", "http://127.0.0.1:\(try freeLoopbackPort())", "status"])
    #expect(nobody.status == 2)
    #expect(nobody.stderr.hasPrefix("locemu ctl: cannot reach http://127.0.0.1:"))
  }

  /// Raw HTTP: status codes for what ctl never sends.
  @Test func badRequestsGetTheirStatusCodes() async throws {
    let server = try await Server.start()
    defer { server.stop() }
    func send(_ method: String, _ path: String, _ body: Data?) async throws -> (Int, String) {
      try await offPool {
        var request = URLRequest(url: URL(string: server.url + path)!)
        request.httpMethod = method
        request.httpBody = body
        let done = DispatchSemaphore(value: 0)
        let result = Locked<(Int, String)>((0, ""))
        URLSession.shared.dataTask(with: request) { data, response, _ in
          result.withLock { $0 = ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data ?? Data(), as: UTF8.self)) }
          done.signal()
        }.resume()
        done.wait()
        return result.withLock { $0 }
      }
    }
    let notJSON = try await send("POST", "/phones/1/services", Data("on".utf8))
    #expect(notJSON.0 == 400 && notJSON.1.contains("\"error\""))
    let wrongType = try await send("POST", "/phones/1/services", Data(#"{"enabled":"yes"}"#.utf8))
    #expect(wrongType.0 == 400)
    let tooLarge = try await send("POST", "/phones/1/location", Data(repeating: 0x20, count: (1 << 20) + 10))
    #expect(tooLarge.0 == 413)
    #expect(try await send("GET", "/phones/7", nil).0 == 404)
    #expect(try await send("DELETE", "/phones/7", nil).0 == 404)
    #expect(try await send("POST", "/phones/1/calls/fly", nil).0 == 404)
    // None of it changed the phone, and the server still answers.
    let state = try await server.object(["status"])
    #expect(state["services"] as? String == "on" && state["lastFix"] is NSNull)
  }

  /// SIGINT ends the server cleanly: phones stopped, event streams ended, exit 0.
  @Test func anInterruptEndsTheServerCleanly() async throws {
    let server = try await Server.start()
    defer { server.stop() }
    _ = try await server.object(["privacy", "grant"])
    let listener = Task { try await server.ctl(["events", "--history", "100", "--count", "1000"]) }
    // The stream is open once the server counts it (bounded: 200 tries).
    var tries = 0
    while try await server.object(["status"])["eventClients"] as? Int != 1 {
      tries += 1
      try #require(tries < 200, "the event stream never connected")
      try await Task.sleep(for: .milliseconds(20))
    }
    kill(server.process.processIdentifier, SIGINT)
    let pid = server.process.processIdentifier
    let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
    DispatchQueue.global().asyncAfter(deadline: .now() + 30, execute: watchdog)
    try await offPool { server.process.waitUntilExit() }
    watchdog.cancel()
    #expect(server.process.terminationReason == .exit && server.process.terminationStatus == 0)
    let events = try await listener.value
    #expect(events.status == 0)
    #expect(events.lines.last?.contains(#""event":"end""#) == true)
  }

  /// `location start` walks a route at its speed on the server's virtual clock.
  @Test func aRouteIsWalkedAtItsSpeedOnVirtualTime() async throws {
    let server = try await Server.start(["--permission", "authorizedWhenInUse"])
    defer { server.stop() }
    // About 139 m east along the parallel at 10 m/s.
    var state = try await server.object(["location", "start", "--speed", "10", "52.2297,21.0122", "52.2297,21.0142"])
    #expect(state["walkingRoute"] as? Bool == true)
    #expect((state["lastFix"] as? [String: Any])?["lon"] as? Double == 21.0122)
    _ = try await server.object(["clock", "advance", "5"])
    state = try await server.object(["status"])
    let fix = try #require(state["lastFix"] as? [String: Any])
    #expect(fix["speed"] as? Double == 10)
    let lon = try #require(fix["lon"] as? Double)
    // 50 m east at 52.23° N is about 0.000733° of longitude.
    #expect(abs(lon - 21.0122 - 0.000733) < 0.00001)
    _ = try await server.object(["clock", "advance", "60"])
    state = try await server.object(["status"])
    #expect(state["walkingRoute"] as? Bool == false)
    #expect((state["lastFix"] as? [String: Any])?["speed"] as? Double == 0)
    #expect(try await server.ctl(["location", "start", "north"]).status == 64)
  }
}
