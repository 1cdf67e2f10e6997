import Emulator
import Foundation
import Geo
import Hummingbird
import LocationEmulatorClient
import PermissionHandling
import PetMap
import PhoneServer
import Scenarios
import Testing
import Yams
import ToolsTestSupport
import LocationModel

@Suite("PhoneServer: routes, hub")
struct PhoneServerTests {
  static let root = repositoryRoot

  /// What the route check reads of openapi.yaml: its paths, and each path's operations by method.
  struct Spec: Decodable {
    /// An operation: that it is there is all the check reads.
    struct Operation: Decodable {}

    struct Item: Decodable {
      var get: Operation?
      var post: Operation?
      var put: Operation?
      var patch: Operation?
      var delete: Operation?
    }

    var paths: [String: Item]
  }

  /// `METHOD /path/{param}` for every operation in openapi.yaml, read as YAML.
  static func documentedRoutes() throws -> Set<String> {
    let text = try String(contentsOf: root.appendingPathComponent("openapi.yaml"), encoding: .utf8)
    let spec = try YAMLDecoder().decode(Spec.self, from: text)
    var routes = Set<String>()
    for (path, item) in spec.paths {
      let methods: [(String, Spec.Operation?)] = [
        ("get", item.get), ("post", item.post), ("put", item.put), ("patch", item.patch), ("delete", item.delete),
      ]
      for (method, operation) in methods where operation != nil {
        routes.insert("\(method.uppercased()) \(path)")
      }
    }
    return routes
  }

  /// The server's routes and the OpenAPI file agree, both ways.
  @Test func theRoutesAreTheOpenAPIFilesAndNoOthers() throws {
    let router = PhoneServer(hub: PhoneHub(virtualTime: true)).makeRouter()
    let served = Set(
      router.routes.map { route -> String in
        let path = "\(route.path)".split(separator: "/").map { $0.hasPrefix(":") ? "{\($0.dropFirst())}" : String($0) }
        return "\(route.method) /" + path.joined(separator: "/")
      })
    let documented = try Self.documentedRoutes()
    #expect(documented.count >= 15)
    #expect(served.subtracting(documented).isEmpty, "served, not documented: \(served.subtracting(documented).sorted())")
    #expect(documented.subtracting(served).isEmpty, "documented, not served: \(documented.subtracting(served).sorted())")
  }

  /// Phones on a virtual hub: the app's authorize waits for the clock, and stopping the hub
  /// leaves no task, subscriber or event client behind.
  @Test func aHubOnVirtualTimeIsExactAndStopsClean() async throws {
    let hub = PhoneHub(virtualTime: true)
    let phone = try #require(await hub.create(PhoneSettings(promptAnswer: .allowWhileUsing, promptDelay: 2)))
    let events = try #require(phone.events(history: 10)).lines
    phone.runner.apply(.authorize)
    try await hub.advance(by: .zero)
    #expect(phone.phone.state.promptShown)
    try await hub.advance(by: .seconds(2))
    #expect(phone.phone.status == .authorizedWhenInUse)
    #expect(phone.eventClientCount == 1)
    await hub.shutdown()
    /// A transcript line's event, all the check reads of it.
    struct Line: Decodable {
      var event: String?
    }
    var names: [String] = []
    for await line in events {
      names.append(try JSONDecoder().decode(Line.self, from: Data(line.utf8)).event ?? "")
    }
    #expect(names == ["start", "authorize", "prompt", "promptAnswered", "authorizeResult", "statusChange", "end"])
    #expect(phone.eventClientCount == 0)
    #expect(phone.phone.isShutDown && phone.phone.taskCount == 0 && phone.phone.subscriberCount == 0)
    #expect(hub.phones.isEmpty)
  }

  /// A phone made with `mapFeatures` runs the lost-pets app on the hub's clock: the preview
  /// loads the five newest pins within 10 km of the phone, a tap pushes the fullscreen map and
  /// back pops it, on the phone's transcript as `locemu preview` writes them; without it the
  /// phone has no app.
  @Test func aPhoneWithMapFeaturesRunsTheLostPetsApp() async throws {
    let pets = try FileAnnouncementRepository(contentsOf: Self.root.appendingPathComponent("traces/announcements.json").path)
    let hub = PhoneHub(virtualTime: true, announcements: pets)
    let here = Coordinate(latitude: 52.2476, longitude: 21.0137)!
    let phone = try #require(
      await hub.create(PhoneSettings(permission: .authorizedWhenInUse, mapFeatures: true), source: .fixed(here)))
    let plain = try #require(await hub.create(PhoneSettings(permission: .authorizedWhenInUse)))
    #expect(phone.app != nil && plain.app == nil)
    #expect(phone.state.mapFeatures == true && plain.state.mapFeatures == nil)
    try await hub.advance(by: .seconds(2))
    phone.runner.apply(.tap)
    try await hub.advance(by: .seconds(1))
    phone.runner.apply(.back)
    try await hub.advance(by: .seconds(1))
    let events = try #require(phone.events(history: ServedPhone.historyLimit)).lines
    await hub.shutdown()
    /// What the check reads of a transcript line.
    struct Line: Decodable {
      var event: String
      var preview: String?
      var pinIds: [String]?
      var screen: String?
      var trigger: String?
    }
    var lines: [Line] = []
    for await line in events where !line.isEmpty { lines.append(try JSONDecoder().decode(Line.self, from: Data(line.utf8))) }
    let previews = lines.filter { $0.event == "preview" }
    #expect(previews.map(\.preview) == ["loading", "map"])
    #expect(previews.last?.pinIds == ["a-101", "a-102", "a-103", "a-104", "a-106"])
    let navigation = lines.filter { $0.event == "navigation" }
    #expect(navigation.map(\.screen) == ["fullscreenMap", "landing"] && navigation.map(\.trigger) == ["tap", "back"])
    #expect(lines.last?.event == "end")
  }

  /// A route is walked at its speed: a fix every interval, `speed × interval` metres apart
  /// along the legs, the last waypoint once more standing still.
  @Test func aRouteIsWalkedAtItsSpeed() throws {
    let a = Coordinate(latitude: 52.2297, longitude: 21.0122)!
    let b = Coordinate(latitude: 52.2297, longitude: 21.0142)!
    let c = Coordinate(latitude: 52.2300, longitude: 21.0142)!
    let first = a.distance(to: b), total = first + b.distance(to: c)
    let fixes = try #require(RouteWalk(waypoints: [a, b, c], speed: 10, interval: .seconds(1)).fixes())
    // 0, 10, 20, … m along the legs, then c once more.
    #expect(fixes.count == Int(total / 10) + 2)
    #expect(fixes.first?.coordinate == a && fixes.last?.coordinate == c && fixes.last?.speed == 0)
    for (k, fix) in fixes.dropLast().enumerated() {
      let along = Double(k) * 10
      let expected =
        along <= first
        ? a.interpolated(to: b, fraction: along / first) : b.interpolated(to: c, fraction: (along - first) / (total - first))
      #expect(fix.coordinate!.distance(to: expected) < 1e-3, "fix \(k)")
    }
    #expect(RouteWalk(waypoints: [a, c], speed: 0.001, interval: .milliseconds(10)).fixes() == nil)
  }

  /// On virtual time the walk is exact: after 5 s the phone is 50 m along, and a set location
  /// stops the walk.
  @Test func aHubWalksARouteOnItsClock() async throws {
    let hub = PhoneHub(virtualTime: true)
    let phone = try #require(await hub.create(PhoneSettings(permission: .authorizedWhenInUse)))
    let a = Coordinate(latitude: 52.2297, longitude: 21.0122)!
    let b = Coordinate(latitude: 52.2297, longitude: 21.0142)!
    let route = RouteWalk(waypoints: [a, b], speed: 10, interval: .seconds(1))
    phone.start(route, fixes: try #require(route.fixes()))
    try await hub.advance(by: .seconds(5))
    let there = try #require(phone.phone.latestFix?.coordinate)
    #expect(abs(there.distance(to: a) - 50) < 1e-3)
    #expect(phone.isWalkingRoute)
    phone.stopPlaying()
    try await hub.advance(by: .seconds(5))
    #expect(phone.phone.latestFix?.coordinate == there)
    #expect(!phone.isWalkingRoute)
    await hub.shutdown()
  }

  /// A client that stops reading is dropped: its stream ends after the backlog it was given,
  /// and the phone and its other clients go on.
  @Test func aClientThatFallsBehindIsDroppedAndItsStreamEnds() async throws {
    let hub = PhoneHub(virtualTime: true)
    let phone = try #require(await hub.create(PhoneSettings()))
    let slow = try #require(phone.events()).lines
    for i in 0..<(ServedPhone.clientBacklog + 10) { phone.runner.apply(.services(i % 2 == 1)) }
    try await hub.advance(by: .zero)
    #expect(phone.eventClientCount == 0)
    var received = 0
    for await _ in slow { received += 1 }
    #expect(received == ServedPhone.clientBacklog)
    let fresh = try #require(phone.events()).lines
    phone.runner.apply(.services(false))
    #expect(phone.eventClientCount == 1)
    await hub.shutdown()
    var lines = 0
    for await _ in fresh { lines += 1 }
    #expect(lines >= 2)  // the change and the end line
  }

  /// A client the server cancels (its write failed) is forgotten at once; a keep-alive reaches
  /// every client as the empty line and is not kept for later clients.
  @Test func aCancelledClientIsForgottenAndKeepAlivesReachEveryone() async throws {
    let hub = PhoneHub(virtualTime: true)
    let phone = try #require(await hub.create(PhoneSettings()))
    let gone = try #require(phone.events())
    let staying = try #require(phone.events())
    #expect(phone.eventClientCount == 2)
    gone.cancel()
    #expect(phone.eventClientCount == 1)
    phone.keepAlive()
    phone.runner.apply(.services(false))
    try await hub.advance(by: .zero)
    await hub.shutdown()
    var lines: [String] = []
    for await line in staying.lines { lines.append(line) }
    #expect(lines.first == ServedPhone.keepAliveLine && lines.dropFirst().allSatisfy { !$0.isEmpty })
    #expect(lines.last?.contains(#""event":"end""#) == true)
    var goneLines = 0
    for await _ in gone.lines { goneLines += 1 }
    #expect(goneLines == 0)
  }
}
