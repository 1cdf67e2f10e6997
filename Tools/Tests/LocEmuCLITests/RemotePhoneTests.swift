import Emulator
import Foundation
import Geo
import LocationEmulatorClient
import ToolsTestSupport
import PermissionHandling
import Testing
import LocationServices

#if canImport(Glibc)
  import Glibc
#endif

/// The Swift client against the real server process: an app in this process consumes a phone
/// that `locemu ctl` (another process) drives.
@Suite("LocationEmulatorClient")
struct RemotePhoneTests {
  typealias Server = ServeCommandTests.Server

  /// Waits (bounded: 500 reads of the state) until the server counts `count` event clients.
  func eventClients(_ server: Server, _ count: Int, sourceLocation: SourceLocation = #_sourceLocation) async throws {
    var tries = 0
    while try await server.state(["status"]).eventClients != count {
      tries += 1
      try #require(tries < 500, "the server never counted \(count) event clients", sourceLocation: sourceLocation)
      try await Task.sleep(for: .milliseconds(10))
    }
  }

  /// The handler and the status stream over the client see a revocation made by `ctl`.
  @Test func theClientSeesARevocationMadeByCtl() async throws {
    let server = try await Server.start(["--permission", "authorizedWhenInUse"])
    defer { server.stop() }
    let phone = EmulatorServer(url: URL(string: server.url)).phone("1")
    #expect(await phone.authorizationStatus == .authorizedWhenInUse)
    #expect(await phone.locationServicesEnabled)

    let (changes, change) = AsyncStream.makeStream(of: PermissionChange.self)
    let handler = LocationPermissionHandler(service: phone, lifecycle: phone)
    await handler.startObservingLocationPermissionChanges { change.yield($0) }
    defer { handler.stopObservingLocationPermissionChanges() }
    let statuses = phone.authorizationStatusStream
    let first = try await bounded("the status stream's first value") { await statuses.first { _ in true } }
    #expect(first == .authorizedWhenInUse)

    #expect(try await server.ctl(["privacy", "revoke"]).status == 0)
    let seen = try await bounded("the handler's callback") { await changes.first { _ in true } }
    #expect(seen?.status == .denied && seen?.reason == .denied)
    #expect(await phone.authorizationStatus == .denied)

    // Location Services off reach it too, with their own reason.
    #expect(try await server.ctl(["privacy", "grant"]).status == 0)
    #expect(try await server.ctl(["services", "off"]).status == 0)
    let next = try await bounded("the callback for services off") {
      await changes.first { $0.reason == .servicesDisabled }
    }
    #expect(next?.status.isAuthorized == false || next?.reason == .servicesDisabled)
  }

  /// The client sets what a test sets and reads it back; the app's prompt waits until `ctl`
  /// answers it; a one-shot request gets the location a script set.
  @Test func theClientDrivesAndAsksAsTheApp() async throws {
    let server = try await Server.start(["--prompt-delay", "0", "--keep-alive", "0.1"])
    defer { server.stop() }
    let phone = EmulatorServer(url: URL(string: server.url)).phone("1")
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
    var tries = 0
    while try await server.state(["status"]).promptOnScreen != true {
      tries += 1
      try #require(tries < 500, "the prompt never showed")
      try await Task.sleep(for: .milliseconds(10))
    }
    #expect(try await server.ctl(["privacy", "grant"]).status == 0)
    let status = try await bounded("the app's authorization request") { await asking.value }
    #expect(status == .authorizedWhenInUse)
    // Every stream the client opened so far is closed again (the server notices at its next
    // keep-alive, every 0.1 s here).
    try await eventClients(server, 0)

    // A one-shot request waits for the next fix, which the script sends; the app's stream
    // gets it too.
    let request = Task { await phone.requestLocationResult() }
    let (arrived, yield) = AsyncStream.makeStream(of: LocationFix.self)
    let reader = Task {
      for await fix in phone.locations() { yield.yield(fix) }
    }
    try await eventClients(server, 2)
    _ = try await server.state(["location", "set", "60.17,24.94", "--accuracy", "7"])
    let result = try await bounded("the one-shot request") { await request.value }
    #expect(result.status == .authorizedWhenInUse && result.fix?.coordinate?.latitude == 60.17 && result.reason == nil)
    #expect(result.fix?.horizontalAccuracy == 7)
    let delivered = try await bounded("a fix on locations()") { await arrived.first { _ in true } }
    #expect(delivered?.coordinate?.latitude == 60.17)
    reader.cancel()
    // Cancelling the reader closes its connection.
    try await eventClients(server, 0)

    // Refusals are errors with the server's message.
    await #expect(throws: EmulatorClientError.refused(status: 404, message: "no phone 9")) {
      try await EmulatorServer(url: URL(string: server.url)).phone("9").revoke()
    }
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
      await preview.waitForLine {
        $0.contains(#""preview":"permissionRequired""#) && preview.lines.contains { $0.contains(#""preview":"map""#) }
      })
    preview.closeInput()
    let status = await preview.finish()
    #expect(status == 0, "\(preview.stderr)")
    let lines = preview.lines.compactMap { try? JSONDecoder().decode(TranscriptRecord.self, from: Data($0.utf8)) }
    let states = lines.filter { $0.event == "preview" }.compactMap(\.preview)
    #expect(states.last == "permissionRequired" && states.contains("map"), "\(states)")
    let map = try #require(lines.last { $0.preview == "map" })
    #expect(map.center == [52.2297, 21.0122] && map.pins == 5)

    // A server that is not there: one line, exit 1.
    let nobody = try await withUnreachablePort { port in
      try await DecodeCommandTests.run(["preview", "--server", "http://127.0.0.1:\(port)", "--duration", "5"])
    }
    #expect(nobody.status == 1 && nobody.stderr.contains("cannot reach"))
    #expect(try await DecodeCommandTests.run(["preview", "--server", server.url, "--virtual-time"]).status == 64)
  }
}

/// A `locemu` process the test talks to while it runs: its standard output read line by line
/// as it comes, its standard input closed when the test says. Every wait is bounded; `kill()`
/// ends it whatever happened.
final class LiveProcess: @unchecked Sendable {
  let process = Process()
  private let input = Pipe()
  private let output = Locked<[String]>([])
  private let errors = Locked(Data())

  init(_ arguments: [String]) throws {
    process.executableURL = locemuBinary
    process.arguments = arguments
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = input
    try process.run()
    let output = self.output, errors = self.errors
    Thread {
      var pending = Data()
      while case let chunk = out.fileHandleForReading.availableData, !chunk.isEmpty {
        pending.append(chunk)
        while let end = pending.firstIndex(of: 10) {
          let line = String(decoding: pending[pending.startIndex..<end], as: UTF8.self)
          pending.removeSubrange(pending.startIndex...end)
          output.withLock { $0.append(line) }
        }
      }
    }.start()
    Thread {
      while case let chunk = err.fileHandleForReading.availableData, !chunk.isEmpty { errors.withLock { $0.append(chunk) } }
    }.start()
  }

  var lines: [String] { output.withLock { $0 } }
  var stderr: String { String(decoding: errors.withLock { $0 }, as: UTF8.self) }

  /// Waits until a line satisfies `condition` (false after `limit`, or when the process ended without one).
  func waitForLine(_ limit: Duration = .seconds(240), _ condition: @escaping (String) -> Bool) async -> Bool {
    await waitUntil(limit) { self.lines.contains(where: condition) || !self.process.isRunning }
    return lines.contains(where: condition)
  }

  func closeInput() { try? input.fileHandleForWriting.close() }

  /// Waits (at most `limit`) for the process to end; its exit status, or nil if it had to be killed.
  func finish(_ limit: Duration = .seconds(120)) async -> Int32? {
    guard await waitUntil(limit, { !self.process.isRunning }) else {
      kill()
      return nil
    }
    process.waitUntilExit()
    return process.terminationStatus
  }

  func kill() {
    if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
    closeInput()
  }
}
