import Emulator
import EmulatorTesting
import Foundation
import Geo
import LocationModel
import LocationEmulatorClient
import ToolsTestSupport
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
    /// What it printed before "listening on" ("nmea on tcp://…", "token …").
    let preamble: [String]
    /// The `--token` passed to every `ctl`.
    let token: String?
    /// What it printed on standard error after "listening on", read as it comes (a pipe left
    /// unread would block a server that writes more than its buffer), and whether its standard
    /// error has ended; a test waits on it for a line.
    private let log: Watched<Log>

    struct Log: Sendable {
      var printed = Data()
      var ended = false

      /// The first line printed that starts with `prefix`.
      func line(startingWith prefix: String) -> String? {
        String(decoding: printed, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix(prefix) }.map(String.init)
      }
    }

    private init(process: Process, url: String, preamble: [String], token: String?, log: Watched<Log>) {
      self.process = process
      self.url = url
      self.preamble = preamble
      self.token = token
      self.log = log
    }

    /// What a failure message says of the server: whether it still runs, and what it printed.
    var condition: String {
      let printed = String(decoding: log.current.printed, as: UTF8.self)
      let state =
        process.isRunning
        ? "serve is running" : "serve has ended (\(process.terminationReason == .exit ? "status" : "signal") \(process.terminationStatus))"
      return printed.isEmpty ? state : "\(state); it printed: \(printed)"
    }

    /// The first line after "listening on" that starts with `prefix`, waited for as it is read
    /// (no polling); nil when the server's standard error ended without one. Waiting longer than
    /// 600 s (a hang guard) fails with the prefix and the server's condition.
    func printedLine(startingWith prefix: String) async throws -> String? {
      let bound = Duration.seconds(600)
      guard await log.wait(within: bound, until: { $0.ended || $0.line(startingWith: prefix) != nil }) else {
        throw LoopbackError(description: "serve printed no line starting with \"\(prefix)\" within \(bound) (\(condition))")
      }
      return log.current.line(startingWith: prefix)
    }

    /// Everything printed after "listening on" so far.
    var printedAfterListening: String { String(decoding: log.current.printed, as: UTF8.self) }

    /// The NMEA port, with `--nmea-listen`.
    var nmeaPort: Int? {
      preamble.first { $0.hasPrefix("nmea on tcp://") }.flatMap { $0.split(separator: ":").last.flatMap { Int($0) } }
    }

    /// Servers starting at once: two (a server's start under ThreadSanitizer is 0.25–1 CPU
    /// second; twenty of them started together on two loaded cores each took longer than the
    /// bound below).
    static let startSlots = AsyncSlots(2)

    /// Starts it and waits (at most 600 s from the start of its process, which waits for one of
    /// ``startSlots``: a hang guard) for its "listening on" line on standard error.
    ///
    /// Unless `extra` sets it, the server waits up to 600 s for a request's body: the tests run
    /// many processes on two cores, where a `ctl` can be descheduled for longer than the
    /// default 10 s between the head of an upload and its body (the server then refuses it and
    /// closes, which the client sees as a reset connection).
    static func start(
      _ extra: [String] = [], virtualTime: Bool = true, listen: String = "127.0.0.1:0", token: String? = nil
    )
      async throws -> Server
    {
      let process = Process()
      process.executableURL = locemuBinary
      process.arguments =
        ["serve"] + (virtualTime ? ["--virtual-time"] : []) + ["--listen", listen]
        + (extra.contains("--body-timeout") ? [] : ["--body-timeout", "600"]) + extra
      let err = Pipe()
      process.standardError = err
      process.standardOutput = FileHandle.nullDevice
      await startSlots.acquire()
      defer { startSlots.release() }
      try process.run()
      let pid = process.processIdentifier
      // Disarmed on the reading thread as soon as the server says it listens (or closes its
      // standard error: it has ended, and its pid may be reused): the task
      // awaiting the lines may resume much later (under ThreadSanitizer every access to some
      // generic metadata takes a runtime lock, and with many threads on two loaded cores the
      // cooperative pool has stalled for tens of seconds), and the server must not be killed
      // for that.
      let bound = 600
      let hangGuard = ProcessHangGuard(pid, bound: .seconds(bound))
      let (lines, outcome) = try await offPool { () -> ([String], ProcessHangGuard.Outcome) in
        var lines: [String] = []
        var seen = Data()
        while let chunk = try err.fileHandleForReading.read(upToCount: 1), !chunk.isEmpty {
          if chunk == Data("\n".utf8) {
            lines.append(String(decoding: seen, as: UTF8.self))
            seen.removeAll()
            if lines.last!.hasPrefix("listening on ") { break }
          } else {
            seen.append(chunk)
          }
        }
        return (seen.isEmpty ? lines : lines + [String(decoding: seen, as: UTF8.self)], hangGuard.disarm())
      }
      guard let line = lines.last, line.hasPrefix("listening on http://") else {
        kill(pid, SIGKILL)
        let what = outcome.killed ? "printed no \"listening on\" line within \(bound) s, killed" : "ended before it listened"
        throw LoopbackError(
          description: "serve \(what); it printed: \(lines.isEmpty ? "nothing" : lines.joined(separator: " / "))"
            + (outcome.look.map { "\n\($0)" } ?? ""))
      }
      if case .wentOn(let look) = outcome {
        recordEndAfterLook("locemu \(process.arguments?.joined(separator: " ") ?? "serve")", bound: .seconds(bound), look: look)
      }
      let url = String(line.split(separator: " ").last ?? "")
      let log = Watched(Log())
      let reader = err.fileHandleForReading
      Thread.detachNewThread {
        while case let chunk = reader.availableData, !chunk.isEmpty { log.update { $0.printed.append(chunk) } }
        log.update { $0.ended = true }
      }
      return Server(process: process, url: url, preamble: lines.dropLast(), token: token, log: log)
    }

    /// `ctl` (outside the process slots: a quick client the test waits for, which must not
    /// queue behind long-running processes of other tests).
    func ctl(_ arguments: [String], phone: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) async throws -> Run {
      // The client's timeout a hang guard: a long `clock advance` under ThreadSanitizer on a busy
      // core took more than the default 30 s to answer (scripts/slow.sh). It is longer than the
      // run's bound (600 s), whose look at a hang takes in the server too: a server stalled on a
      // lost wakeup below its code answers once the look has woken it.
      try await DecodeCommandTests.runInBackground(
        ["ctl", "--server", url, "--timeout", "1200"] + (token.map { ["--token", $0] } ?? []) + (phone.map { ["--phone", $0] } ?? [])
          + arguments, also: [process.processIdentifier], sourceLocation: sourceLocation)
    }

    /// `ctl` that waits on the test (an event stream), outside the process slots.
    func ctlInBackground(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) async throws -> Run {
      try await DecodeCommandTests.runInBackground(
        ["ctl", "--server", url, "--timeout", "1200"] + (token.map { ["--token", $0] } ?? []) + arguments,
        also: [process.processIdentifier], sourceLocation: sourceLocation)
    }

    /// `ctl` whose answer is JSON, decoded as `type` (the API's wire model: a phone's state, the
    /// phone list, the clock, the trace list).
    func decoded<T: Decodable>(_ type: T.Type, _ arguments: [String], phone: String? = nil) async throws -> T {
      let run = try await ctl(arguments, phone: phone)
      #expect(run.status == 0, "ctl \(arguments.joined(separator: " ")): \(run.stderr) (\(condition))")
      return try Wire.decode(type, from: Data(run.stdout.utf8))
    }

    /// `ctl` whose answer is a phone's state (`status` and every verb that changes it).
    func state(_ arguments: [String], phone: String? = nil) async throws -> Wire.PhoneState {
      try await decoded(Wire.PhoneState.self, arguments, phone: phone)
    }

    /// `ctl clock …`: the server's clock.
    func clock(_ arguments: [String]) async throws -> Wire.Clock {
      try await decoded(Wire.Clock.self, ["clock"] + arguments)
    }

    /// Waits until the phone's state (`GET /phones/{id}`, what `ctl status` prints) satisfies
    /// `holds`: something only the server knows (the event clients it counts, a prompt on its
    /// screen), asked again every 10 ms over the client library, in this process (a `ctl` process
    /// per look cost a ThreadSanitizer binary's start each time, and a hung one hid the server's
    /// answer). Not before 600 s (a hang guard, ``bounded(_:_:sourceLocation:_:)``) does it fail,
    /// saying `what` it waited for and the server's condition.
    func waitForState(
      _ what: String, phone: String? = nil, sourceLocation: SourceLocation = #_sourceLocation,
      _ holds: @escaping @Sendable (Wire.PhoneState) -> Bool
    ) async throws {
      guard let base = URL(string: url) else { throw LoopbackError(description: "serve printed no URL: \(url)") }
      // The request's timeout is above the wait's bound: a stalled server is the bound's to find.
      let server = EmulatorServer(url: base, token: token, timeout: 1200)
      let path = "phones/\(phone ?? "1")"
      do {
        try await bounded(what, .seconds(600), sourceLocation: sourceLocation) {
          while try await !holds(server.get(path, as: Wire.PhoneState.self)) {
            try await Task.sleep(for: .milliseconds(10))
          }
        }
      } catch {
        throw LoopbackError(description: "\(what): \(error) (\(condition))")
      }
    }

    /// Waits until the server counts `count` event clients of phone 1 (see ``waitForState(_:phone:sourceLocation:_:)``).
    func waitForEventClients(_ count: Int, sourceLocation: SourceLocation = #_sourceLocation) async throws {
      try await waitForState("the server counting \(count) event clients", sourceLocation: sourceLocation) { $0.eventClients == count }
    }

    /// SIGKILL, and no wait: Foundation reaps the child, and a `defer` in an async test must not
    /// block a thread of the cooperative pool in `waitUntilExit`.
    func stop() {
      if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
  }

  /// The `ctl` verbs change the state that `status` reads back.
  @Test func verbsChangeTheStateThatStatusReadsBack() async throws {
    let server = try await Server.start()
    defer { server.stop() }
    var state = try await server.state(["status"])
    #expect(state.status == .notDetermined && state.lastFix == nil)

    state = try await server.state(["privacy", "grant"])
    #expect(state.status == .authorizedWhenInUse)
    state = try await server.state(["privacy", "grant", "--always"])
    #expect(state.status == .authorizedAlways)
    #expect(try await server.state(["privacy", "revoke"]).status == .denied)
    #expect(try await server.state(["privacy", "restrict"]).status == .restricted)
    #expect(try await server.state(["privacy", "reset"]).status == .notDetermined)
    #expect(try await server.state(["services", "off"]).services == .off)
    #expect(try await server.state(["services", "on"]).services == .on)
    #expect(try await server.state(["accuracy", "reduced"]).accuracy == .reduced)
    #expect(try await server.state(["app", "background"]).app == .background)
    #expect(try await server.state(["app", "foreground"]).app == .foreground)

    state = try await server.state([
      "location", "set", "52.2297,21.0122", "--altitude", "110", "--accuracy", "8", "--speed", "1.5", "--course", "90",
    ])
    let fix = try #require(state.lastFix)
    #expect(fix.lat == 52.2297 && fix.lon == 21.0122)
    #expect(fix.altMSL == 110 && fix.eph == 8 && fix.speed == 1.5 && fix.track == 90)
    #expect(try await server.state(["location", "clear"]).fixLost == true)
    #expect(try await server.state(["status"]).fixLost == true)
  }

  /// On the virtual clock the prompt waits for `clock advance`; the app's call, the prompt and
  /// its answer reach an event stream in order.
  @Test func theEventStreamSeesEveryChangeInOrder() async throws {
    let server = try await Server.start()
    defer { server.stop() }
    #expect(try await server.state(["prompt", "allowOnce", "--delay", "2"]).promptAnswer == .allowOnce)
    #expect(try await server.state(["call", "authorize"]).promptOnScreen == true)
    #expect(try await server.clock(["advance", "1.5"]).elapsed == 1.5)
    #expect(try await server.state(["status"]).status == .notDetermined)
    #expect(try await server.clock(["advance", "0.5"]).elapsed == 2)
    #expect(try await server.state(["status"]).status == .authorizedWhenInUse)
    _ = try await server.state(["app", "background"])

    let events = try await server.ctl(["events", "--history", "100", "--count", "9"])
    #expect(events.status == 0, "\(events.stderr)")
    let names = events.lines.compactMap { TranscriptEvent(json: $0)?.event }
    #expect(
      names == [
        "start", "authorize", "prompt", "promptAnswered", "authorizeResult", "statusChange", "allowOnceExpired", "background",
        "statusChange",
      ])
  }

  /// Phones are made, listed and deleted; each has its own state.
  @Test func phonesAreMadeListedAndDeleted() async throws {
    let server = try await Server.start(["--phones", "2", "--permission", "denied"])
    defer { server.stop() }
    #expect(try await server.printedLine(startingWith: "page ") == "page \(server.url)/", "serve says where its page is")
    let list = try await server.decoded(Wire.PhoneList.self, ["phones"])
    #expect(list.phones.map(\.id) == ["1", "2"])
    #expect(try await server.state(["status"]).status == .denied)
    #expect(try await server.state(["status"], phone: "2").status == .notDetermined)
    let made = try await server.state(["phones", "create"])
    #expect(made.id == "3")
    #expect(try await server.ctl(["phones", "delete", "2"]).status == 0)
    let after = try await server.decoded(Wire.PhoneList.self, ["phones"])
    #expect(after.phones.map(\.id) == ["1", "3"])
  }

  /// ctl reads LOCEMU_SERVER and LOCEMU_PHONE as a program bound to the served phone does, and
  /// takes southern and western coordinates without `--` (issue 31 item 6).
  @Test func ctlReadsTheProgramsVariablesAndNegativeCoordinates() async throws {
    let server = try await Server.start(["--phones", "2"])
    defer { server.stop() }
    let set = try await DecodeCommandTests.runInBackground(
      ["ctl", "location", "set", "-33.8688,-151.2093"], environment: ["LOCEMU_SERVER": server.url, "LOCEMU_PHONE": "2"])
    #expect(set.status == 0, "\(set.stderr)")
    let two = try await server.state(["status"], phone: "2")
    let fix = try #require(two.lastFix)
    #expect(fix.lat == -33.8688 && fix.lon == -151.2093)
    #expect(try await server.state(["status"]).lastFix == nil, "phone 1 untouched")
    // A route of negative waypoints, and --phone still wins over the variable.
    let walk = try await DecodeCommandTests.runInBackground(
      ["ctl", "--phone", "1", "location", "start", "-33.87,151.21", "-33.86,151.21"],
      environment: ["LOCEMU_SERVER": server.url, "LOCEMU_PHONE": "2"])
    #expect(walk.status == 0, "\(walk.stderr)")
    #expect(try await server.ctl(["location", "set", "-91,0"]).status == 1)
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
    let nobody = try await withUnreachablePort { port in
      try await DecodeCommandTests.run(["ctl", "--server", "http://127.0.0.1:\(port)", "status"])
    }
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
        // Hang guards: the request's own timeout, and the wait for its answer above it.
        request.timeoutInterval = 600
        let done = DispatchSemaphore(value: 0)
        let result = Locked<(Int, String)>((0, ""))
        URLSession.shared.dataTask(with: request) { data, response, _ in
          result.withLock { $0 = ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data ?? Data(), as: UTF8.self)) }
          done.signal()
        }.resume()
        guard done.wait(timeout: .now() + 660) == .success else {
          throw LoopbackError(description: "\(method) \(path): no answer within 660 s")
        }
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
    let state = try await server.state(["status"])
    #expect(state.services == .on && state.lastFix == nil)
  }

  /// SIGINT ends the server cleanly: phones stopped, event streams ended, exit 0.
  @Test func anInterruptEndsTheServerCleanly() async throws {
    let server = try await Server.start()
    defer { server.stop() }
    _ = try await server.state(["privacy", "grant"])
    let listener = Task { try await server.ctlInBackground(["events", "--history", "100", "--count", "1000"]) }
    // The stream is open once the server counts it.
    try await server.waitForEventClients(1)
    kill(server.process.processIdentifier, SIGINT)
    let pid = server.process.processIdentifier
    // A hang guard: a server that ignores the interrupt is looked at and killed, and the test says so.
    let hangGuard = ProcessHangGuard(pid, bound: .seconds(600))
    // Disarmed off the pool too: a disarm during the guard's look waits for the look.
    let outcome = await offPool {
      server.process.waitUntilExit()
      return hangGuard.disarm()
    }
    #expect(!outcome.killed, "serve did not exit within 600 s of SIGINT, and was killed\n\(outcome.look ?? "")")
    #expect(server.process.terminationReason == .exit && server.process.terminationStatus == 0)
    let events = try await listener.value
    #expect(events.status == 0)
    #expect(events.lines.last?.contains(#""event":"end""#) == true)
  }

  /// --max-phones and --max-event-clients: beyond them a request is refused with 429 and a
  /// message, and what exists goes on.
  @Test func limitsOnPhonesAndEventClientsAnswer429() async throws {
    let server = try await Server.start(["--max-phones", "3", "--max-event-clients", "2"])
    defer { server.stop() }
    _ = try await server.state(["phones", "create"])
    _ = try await server.state(["phones", "create"])
    let refused = try await server.ctl(["phones", "create"])
    #expect(refused.status == 1 && refused.stderr.contains("limit of 3 phones"), "\(refused.stderr)")
    _ = try await server.ctl(["phones", "delete", "3"])
    #expect(try await server.ctl(["phones", "create"]).status == 0)
    let client = EmulatorServer(url: URL(string: server.url), timeout: 600)
    let first = try await client.events("phones/1/events")
    let second = try await client.events("phones/1/events")
    do {
      _ = try await client.events("phones/1/events")
      Issue.record("a third event client was let in")
    } catch {
      guard case .refused(let status, _) = error else { throw error }
      #expect(status == 429)
    }
    _ = (first, second)
  }

  /// With a token every request needs it (401 without); beyond loopback one is made and printed.
  @Test func aTokenGuardsEveryRequest() async throws {
    let token = "0123456789abcdef0123"
    let guarded = try await Server.start(["--token", token], token: token)
    defer { guarded.stop() }
    #expect(try await guarded.state(["status"]).id == "1")
    let without = try await DecodeCommandTests.run(["ctl", "--server", guarded.url, "status"])
    #expect(without.status == 1 && without.stderr.contains("needs its token"))
    let wrong = try await DecodeCommandTests.run(["ctl", "--server", guarded.url, "--token", "0123456789abcdef0124", "privacy", "revoke"])
    #expect(wrong.status == 1)
    #expect(try await guarded.state(["status"]).status == .notDetermined)
    let events = try await DecodeCommandTests.run(["ctl", "--server", guarded.url, "events", "--count", "1"])
    #expect(events.status == 1 && events.stderr.contains("401"))
    // Only Leaflet's own files go without it (public library files the map page's tags load).
    let port = try #require(URL(string: guarded.url)?.port)
    for (path, status) in [
      ("/tiles/0/0/0.svg", 401), ("/map", 401), ("/leaflet/../phones/1", 401), ("/leaflet/secret.js", 401),
      ("/leaflet/leaflet.js", WebPageTests.leaflet ? 200 : 404),
    ] {
      let answer = try await offPool { try LoopbackHTTPConnection(port: port, receiveTimeout: 600).request("GET", path) }
      #expect(answer.status == status, "\(path)")
    }

    let open = try await Server.start(listen: "0.0.0.0:0")
    defer { open.stop() }
    let printed = try #require(open.preamble.first { $0.hasPrefix("token ") })
    let made = String(printed.split(separator: " ")[1])
    #expect(made.count == 32)
    let local = open.url.replacingOccurrences(of: "0.0.0.0", with: "127.0.0.1")
    #expect(try await DecodeCommandTests.run(["ctl", "--server", local, "status"]).status == 1)
    #expect(try await DecodeCommandTests.run(["ctl", "--server", local, "--token", made, "status"]).status == 0)
    #expect(try await DecodeCommandTests.run(["serve", "--token", "short"]).status == 64)
    // How to open the page: the made token in full (it was printed already); the user's own
    // token is not written into the log.
    #expect(try await open.printedLine(startingWith: "page ") == "page \(open.url)/?token=\(made)")
    #expect(try await guarded.printedLine(startingWith: "page ") == "page \(guarded.url)/?token=TOKEN (the --token given)")
    #expect(!guarded.printedAfterListening.contains(try #require(guarded.token)))
  }

  /// A real gpsd reading `--nmea-listen` delivers the set location, then a played trace, to
  /// `gpspipe -w` and to `locemu watch` (real clock: real processes, each under a hang guard;
  /// the server goes on sending an epoch a second, so every count is reached however late a
  /// reader starts).
  @Test(.enabled(if: GPSDProcess.path != nil && FileManager.default.isExecutableFile(atPath: "/usr/bin/gpspipe")))
  func gpsdReadsThePhone() async throws {
    let server = try await Server.start(["--nmea-listen", "127.0.0.1:0"], virtualTime: false)
    defer { server.stop() }
    let nmea = try #require(server.nmeaPort)
    _ = try await server.state(["location", "set", "60.1699,24.9384", "--altitude", "12", "--speed", "1.5", "--course", "90"])
    // Started off the pool (it waits for gpsd's listener); stopped on a thread of its own, so
    // that nothing it may wait for holds a thread of the pool.
    let gpsd = try await offPool { try GPSDProcess(reading: "tcp://127.0.0.1:\(nmea)") }
    defer { Thread.detachNewThread { gpsd.stop() } }
    let pipe = { @Sendable (count: Int) async throws -> String in
      let (output, outcome) = try await offPool { () -> (String, ProcessHangGuard.Outcome) in
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/gpspipe")
        process.arguments = ["-w", "-n", "\(count)", "127.0.0.1:\(gpsd.port)"]
        let out = Pipe()
        process.standardOutput = out
        let err = Pipe()
        process.standardError = err
        try process.run()
        let pid = process.processIdentifier
        // A hang guard: gpsd sends a few reports a second.
        let hangGuard = ProcessHangGuard(pid, bound: .seconds(600))
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let outcome = hangGuard.disarm()
        let output =
          String(decoding: data, as: UTF8.self) + "\nstatus \(process.terminationStatus) "
          + String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (output, outcome)
      }
      #expect(!outcome.killed, "gpspipe -n \(count): not that many reports within 600 s, killed\n\(outcome.look ?? "")")
      return output
    }
    let piped = try await pipe(12)
    let tpv = piped.split(whereSeparator: \.isNewline).compactMap { GPSDReport(line: $0) }
      .filter { $0.class == "TPV" && $0.mode == 3 && $0.time != nil }
    let first = try #require(tpv.first, "gpspipe saw no 3D fix: \(piped)")
    #expect(first.lat == 60.1699 && first.lon == 24.9384)
    #expect(first.altMSL == 12 && first.speed == 1.5 && first.track == 90)

    // A trace played on the phone reaches locemu watch through gpsd: every position is the trace's.
    let decoded = try await DecodeCommandTests.run(["replay", "--virtual-time", Self.trace("drive.nmea")])
    let trace = decoded.lines.compactMap { line -> String? in
      guard let o = try? JSONDecoder().decode(FixLine.self, from: Data(line.utf8)), let lat = o.lat, let lon = o.lon else { return nil }
      return "\(lat),\(lon)"
    }
    let positions = Set(trace)
    // Where each position first comes in the trace.
    var firstIndex: [String: Int] = [:]
    for (index, position) in trace.enumerated() where firstIndex[position] == nil { firstIndex[position] = index }
    _ = try await server.state(["location", "run", Self.trace("drive.nmea"), "--speed", "4"])
    // Its idle timeout and the bound are hang guards: a record comes every 0.25 s.
    let watched = try await DecodeCommandTests.run(
      ["watch", "--gpsd", "127.0.0.1:\(gpsd.port)", "--count", "8", "--fix-only", "--timeout", "600"], bound: .seconds(900))
    #expect(watched.status == 0, "\(watched.stderr)")
    let seen = watched.lines.compactMap { line -> String? in
      guard let o = try? JSONDecoder().decode(FixLine.self, from: Data(line.utf8)), let lat = o.lat, let lon = o.lon else { return nil }
      return "\(lat),\(lon)"
    }
    #expect(seen.count == 8)
    // The first may still be the held location; the rest are the trace's, in its order. How many
    // distinct positions 8 records hold is not checked: gpsd reports the phone's current fix on
    // each of its sentences, and how many epochs the replay has moved on between them depends on
    // the machine (once, at full speed, all 8 were its first position).
    let fromTrace = seen.filter { positions.contains($0) }
    #expect(fromTrace.count >= 7, "\(seen)")
    let order = fromTrace.compactMap { firstIndex[$0] }
    #expect(zip(order, order.dropFirst()).allSatisfy { $0 <= $1 }, "the trace's positions in its order: \(fromTrace)")

    // Under a realistic receiver gpsd gets the receiver's sky and errors: SKY reports with the
    // used set, TPVs near (not at) the set location, and GST reports of the receiver's errors.
    _ = try await server.state(["realism", "open-sky", "--seed", "1", "--start", "hot"])
    _ = try await server.state(["location", "set", "60.1699,24.9384", "--altitude", "12"])
    let realistic = try await pipe(40).split(whereSeparator: \.isNewline).compactMap { GPSDReport(line: $0) }
    let skies = realistic.filter { $0.class == "SKY" }.compactMap(\.satellites)
    #expect(skies.contains { sky in sky.count >= 6 && sky.count { $0.used == true } >= 4 }, "\(realistic)")
    let fixes = realistic.filter { $0.class == "TPV" && $0.mode == 3 && $0.epx != nil }
    let moved = fixes.filter { $0.lat.map { $0 != 60.1699 && abs($0 - 60.1699) < 0.001 } == true }
    #expect(!moved.isEmpty, "\(fixes)")
    // gpsd's GST report: only the receiver's epochs carry the sentence.
    let gst = realistic.filter { $0.class == "GST" }
    #expect(gst.contains { $0.lat.map { $0 > 0 } == true }, "\(realistic)")
  }
}
