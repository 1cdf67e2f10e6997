import Emulator
import EmulatorTesting
import Foundation
import Geo
import LocationEmulatorClient
import ToolsTestSupport
import PermissionHandling
import Testing
import LocationModel

#if canImport(Glibc)
  import Glibc
#endif

/// The Swift client against the real server process: an app in this process consumes a phone
/// that `locemu ctl` (another process) drives.
@Suite("LocationEmulatorClient")
struct RemotePhoneTests {
  typealias Server = ServeCommandTests.Server

  /// The handler and the status stream over the client see a revocation made by `ctl`.
  @Test func theClientSeesARevocationMadeByCtl() async throws {
    let server = try await Server.start(["--permission", "authorizedWhenInUse"])
    defer { server.stop() }
    let phone = EmulatorServer(url: URL(string: server.url), timeout: 600).phone("1")
    #expect(await phone.authorizationStatus == .authorizedWhenInUse)
    #expect(await phone.locationServicesEnabled)

    let (changes, change) = AsyncStream.makeStream(of: PermissionChange.self)
    let handler = LocationPermissionHandler(service: phone, lifecycle: phone)
    await handler.startObservingLocationPermissionChanges { change.yield($0) }
    defer { handler.stopObservingLocationPermissionChanges() }
    let statuses = phone.authorizationStatusStream
    let first = try await bounded("the status stream's first value", .seconds(600)) { await statuses.first { _ in true } }
    #expect(first == .authorizedWhenInUse)

    #expect(try await server.ctl(["privacy", "revoke"]).status == 0)
    let seen = try await bounded("the handler's callback", .seconds(600)) { await changes.first { _ in true } }
    #expect(seen?.status == .denied && seen?.reason == .denied)
    #expect(await phone.authorizationStatus == .denied)

    // Location Services off reach it too, with their own reason.
    #expect(try await server.ctl(["privacy", "grant"]).status == 0)
    #expect(try await server.ctl(["services", "off"]).status == 0)
    let next = try await bounded("the callback for services off", .seconds(600)) {
      await changes.first { $0.reason == .servicesDisabled }
    }
    #expect(next?.status.isAuthorized == false || next?.reason == .servicesDisabled)
  }

  /// The client sets what a test sets and reads it back; the app's prompt waits until `ctl`
  /// answers it; a one-shot request gets the location a script set.
  @Test func theClientDrivesAndAsksAsTheApp() async throws {
    let server = try await Server.start(["--prompt-delay", "0", "--keep-alive", "0.1"])
    defer { server.stop() }
    let phone = EmulatorServer(url: URL(string: server.url), timeout: 600).phone("1")
    let state = try await phone.setLocation(
      LocationFix(
        mode: .threeD, coordinate: Coordinate(latitude: 60.1699, longitude: 24.9384)!, altitudeMSL: 12, speed: 1.5, horizontalAccuracy: 8))
    #expect(state.lastFix?.coordinate?.latitude == 60.1699 && state.lastFix?.altitudeMSL == 12 && state.lastFix?.horizontalAccuracy == 8)
    #expect(try await phone.setAccuracy(.reduced).accuracy == .reduced)
    #expect(try await phone.setAccuracy(.full).accuracy == .full)
    #expect(try await phone.setAppState(.background).app == .background)
    #expect(try await phone.setAppState(.foreground).app == .foreground)

    // The prompt waits for its user, as a simulator's does: `ctl privacy grant` answers it.
    let asking = Task { await phone.requestWhenInUseAuthorization() }
    try await server.waitForState("the prompt on the served phone's screen") { $0.promptOnScreen == true }
    #expect(try await server.ctl(["privacy", "grant"]).status == 0)
    let status = try await bounded("the app's authorization request", .seconds(600)) { await asking.value }
    #expect(status == .authorizedWhenInUse)
    // Every stream the client opened so far is closed again (the server notices at its next
    // keep-alive, every 0.1 s here).
    try await server.waitForEventClients(0)

    // A one-shot request waits for the next fix, which the script sends; the app's stream
    // gets it too.
    let request = Task { await phone.requestLocationResult() }
    let (arrived, yield) = AsyncStream.makeStream(of: LocationFix.self)
    let reader = Task {
      for await fix in phone.locations() { yield.yield(fix) }
    }
    try await server.waitForEventClients(2)
    _ = try await server.state(["location", "set", "60.17,24.94", "--accuracy", "7"])
    let result = try await bounded("the one-shot request", .seconds(600)) { await request.value }
    #expect(result.status == .authorizedWhenInUse && result.fix?.coordinate?.latitude == 60.17 && result.reason == nil)
    #expect(result.fix?.horizontalAccuracy == 7)
    let delivered = try await bounded("a fix on locations()", .seconds(600)) { await arrived.first { _ in true } }
    #expect(delivered?.coordinate?.latitude == 60.17)
    reader.cancel()
    // Cancelling the reader closes its connection.
    try await server.waitForEventClients(0)

    // Refusals are errors with the server's message.
    await #expect(throws: EmulatorClientError.refused(status: 404, message: "no phone 9")) {
      try await EmulatorServer(url: URL(string: server.url), timeout: 600).phone("9").revoke()
    }
  }

  /// The server-wide calls answer typed values with the server's own text beside them (what
  /// `ctl` prints): phones made, listed and deleted, the virtual clock read and moved on, the
  /// traces a request may play.
  @Test func theServerWideCallsAnswerTypedValues() async throws {
    let server = try await Server.start(["--traces", repositoryFile("traces")])
    defer { server.stop() }
    let client = EmulatorServer(url: URL(string: server.url), timeout: 600)
    let made = try await client.createPhone(Wire.NewPhone(permission: .authorizedWhenInUse))
    #expect(made.status == .authorizedWhenInUse && made.json.hasPrefix("{"))
    let listed = try await client.phones()
    #expect(listed.phones.map(\.id).contains(made.id) && listed.phones.count == 2, "\(listed.json)")
    try await client.deletePhone(made.id)
    #expect(try await client.phones().phones.map(\.id) == ["1"])
    await #expect(throws: EmulatorClientError.self) { try await client.deletePhone(made.id) }

    let before = try await client.clock()
    #expect(before.isVirtual)
    let after = try await client.advanceClock(seconds: 5)
    #expect(after.elapsed - before.elapsed == .seconds(5), "\(before.json) → \(after.json)")
    let traces = try await client.traces()
    #expect(traces.hasDirectory && traces.names.contains("city-walk.nmea"), "\(traces.json)")
  }

  /// `locemu preview --server` runs the map features on a served phone: its grant and location
  /// load the preview, and a revocation made with `ctl` while it runs takes the map away. The
  /// preview runs until its standard input closes (`--control stdin`), and the test reads its
  /// transcript as it comes: each step waits for the line it needs, whatever the machine's load.
  @Test func previewRunsTheMapFeaturesOnAServedPhone() async throws {
    let server = try await Server.start()
    defer { server.stop() }
    _ = try await server.state(["privacy", "grant"])
    _ = try await server.state(["location", "set", "52.2297,21.0122"])
    let preview = try LiveProcess([
      "preview", "--server", server.url, "--json", "--control", "stdin", "--announcements", ServeCommandTests.trace("announcements.json"),
    ])
    defer { preview.kill() }
    #expect(await preview.waitForLine { $0.contains(#""preview":"map""#) }, "\(preview.lines)")
    _ = try await server.state(["privacy", "revoke"])
    #expect(
      await preview.waitForLines { lines in
        lines.contains { $0.contains(#""preview":"permissionRequired""#) } && lines.contains { $0.contains(#""preview":"map""#) }
      }, "\(preview.lines)")
    preview.closeInput()
    let status = await preview.finish()
    #expect(status == 0, "\(preview.stderr)")
    let lines = preview.lines.compactMap { try? JSONDecoder().decode(TranscriptRecord.self, from: Data($0.utf8)) }
    let states = lines.filter { $0.event == "preview" }.compactMap(\.preview)
    #expect(states.last == "permissionRequired" && states.contains("map"), "\(states)")
    let map = try #require(lines.last { $0.preview == "map" })
    #expect(map.center == [52.2297, 21.0122] && map.pins == 5)

    // A server that is not there: one line, exit 1 (the run's duration is for a hang only).
    let nobody = try await withUnreachablePort { port in
      try await DecodeCommandTests.run(["preview", "--server", "http://127.0.0.1:\(port)", "--duration", "864000"])
    }
    #expect(nobody.status == 1 && nobody.stderr.contains("cannot reach"))
    #expect(try await DecodeCommandTests.run(["preview", "--server", server.url, "--virtual-time"]).status == 64)
  }
}

/// A process the test talks to while it runs (`locemu`, or a script that runs it): its standard
/// output read line by line and its standard error as they come, each on a thread of its own,
/// its standard input written and closed when the test says. A wait wakes on what the process
/// says or on its end (no polling) and is bounded by a hang guard; `kill()` ends it, and what it
/// started, whatever happened.
final class LiveProcess: @unchecked Sendable {
  /// What the process has said so far, and whether it has ended.
  struct State: Sendable {
    var lines: [String] = []
    var errors = Data()
    /// Its exit status, once it has exited.
    var status: Int32?
    /// How many of its two output streams have been read to their end.
    var streamsEnded = 0
    /// It has exited and all it said is read.
    var ended: Bool { status != nil && streamsEnded == 2 }
  }

  let process = Process()
  /// Its command line, for failure messages.
  let name: String
  private let input = Pipe()
  private let progress = Watched(State())

  init(_ arguments: [String], executable: URL = locemuBinary, environment: [String: String] = [:]) throws {
    process.executableURL = executable
    process.arguments = arguments
    if !environment.isEmpty {
      process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
    }
    name = ([executable.lastPathComponent] + arguments).joined(separator: " ")
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = input
    let progress = self.progress
    // Set before it runs: its exit wakes the waiters, as its lines do.
    process.terminationHandler = { process in
      let status = process.terminationStatus
      progress.update { $0.status = status }
    }
    try process.run()
    Thread {
      var pending = Data()
      while case let chunk = out.fileHandleForReading.availableData, !chunk.isEmpty {
        pending.append(chunk)
        var lines: [String] = []
        while let end = pending.firstIndex(of: 10) {
          lines.append(String(decoding: pending[pending.startIndex..<end], as: UTF8.self))
          pending.removeSubrange(pending.startIndex...end)
        }
        if !lines.isEmpty { progress.update { $0.lines += lines } }
      }
      let last = pending
      progress.update {
        if !last.isEmpty { $0.lines.append(String(decoding: last, as: UTF8.self)) }
        $0.streamsEnded += 1
      }
    }.start()
    Thread {
      while case let chunk = err.fileHandleForReading.availableData, !chunk.isEmpty { progress.update { $0.errors.append(chunk) } }
      progress.update { $0.streamsEnded += 1 }
    }.start()
  }

  var lines: [String] { progress.current.lines }
  var stderr: String { String(decoding: progress.current.errors, as: UTF8.self) }

  /// Waits until the lines so far satisfy `condition`; false when the process ended without
  /// them, or after `limit` (a hang guard).
  func waitForLines(_ limit: Duration = .seconds(600), _ condition: @escaping @Sendable ([String]) -> Bool) async -> Bool {
    _ = await progress.wait(within: limit) { $0.ended || condition($0.lines) }
    return condition(lines)
  }

  /// Waits until a line satisfies `condition` (as ``waitForLines(_:_:)``).
  func waitForLine(_ limit: Duration = .seconds(600), _ condition: @escaping @Sendable (String) -> Bool) async -> Bool {
    await waitForLines(limit) { $0.contains(where: condition) }
  }

  /// Writes `line` to its standard input (a few bytes into the pipe's buffer: nothing waits).
  func send(_ line: String) {
    // A process that has ended fails the write (EPIPE) instead of killing this one.
    signal(SIGPIPE, SIG_IGN)
    try? input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
  }

  func closeInput() { try? input.fileHandleForWriting.close() }

  /// Waits for the process to end and all it said to be read; its exit status. Still running
  /// after `limit` (a hang guard), it is killed, and that is recorded as an issue naming it.
  func finish(_ limit: Duration = .seconds(600), sourceLocation: SourceLocation = #_sourceLocation) async -> Int32? {
    if await progress.wait(within: limit, until: { $0.ended }) { return progress.current.status }
    // A look before the kill, as ``ProcessHangGuard`` does: a stall on a lost wakeup below its
    // code, which the look ends, gets a second bound and is a warning.
    let pid = process.processIdentifier
    let hang = await offPool { examineHang(of: pid) }
    if hang.lostHandover, await progress.wait(within: .seconds(300), until: { $0.ended }) {
      recordEndAfterLook(name, bound: limit, look: hang.text, sourceLocation: sourceLocation)
      return progress.current.status
    }
    Issue.record("\(name): no end within \(limit), killed; it printed \(lines) \(stderr)\n\(hang.text)", sourceLocation: sourceLocation)
    kill()
    return nil
  }

  /// SIGKILL to it and to its process group (Foundation makes the child lead one), so that
  /// what a script started goes too; no wait (Foundation reaps the child).
  func kill() {
    if process.isRunning {
      Glibc.kill(process.processIdentifier, SIGKILL)
      Glibc.kill(-process.processIdentifier, SIGKILL)
    }
    closeInput()
  }
}
