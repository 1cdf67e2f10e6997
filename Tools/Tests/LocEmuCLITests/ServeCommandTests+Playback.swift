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

// `locemu serve` playing to its phones: routes walked and paused, a receiver under a phone,
// traces played, sought and named from the server's directory.
extension ServeCommandTests {
  /// `location start` walks a route at its speed on the server's virtual clock.
  @Test func aRouteIsWalkedAtItsSpeedOnVirtualTime() async throws {
    let server = try await Server.start(["--permission", "authorizedWhenInUse"])
    defer { server.stop() }
    // About 139 m east along the parallel at 10 m/s.
    var state = try await server.state(["location", "start", "--speed", "10", "52.2297,21.0122", "52.2297,21.0142"])
    #expect(state.walkingRoute == true)
    #expect(state.lastFix?.lon == 21.0122)
    _ = try await server.clock(["advance", "5"])
    state = try await server.state(["status"])
    let fix = try #require(state.lastFix)
    #expect(fix.speed == 10)
    let lon = try #require(fix.lon)
    // 50 m east at 52.23° N is about 0.000733° of longitude.
    #expect(abs(lon - 21.0122 - 0.000733) < 0.00001)
    _ = try await server.clock(["advance", "60"])
    state = try await server.state(["status"])
    #expect(state.walkingRoute == false)
    #expect(state.lastFix?.speed == 0)
    #expect(try await server.ctl(["location", "start", "north"]).status == 64)
  }

  /// A route paused stands where it was for as long as the pause, then carries on: it ends as
  /// much later as it was paused (`ctl location pause|resume`, `POST /phones/{id}/playback`).
  @Test func aPausedRouteCarriesOnWhereItWas() async throws {
    let server = try await Server.start(["--permission", "authorizedWhenInUse"])
    defer { server.stop() }
    // Nothing plays: neither pause nor resume has anything to act on.
    #expect(try await server.ctl(["location", "pause"]).status == 1)
    #expect(try await server.ctl(["location", "resume"]).status == 1)
    _ = try await server.state(["location", "start", "--speed", "10", "52.2297,21.0122", "52.2297,21.0142"])
    _ = try await server.clock(["advance", "5"])
    var state = try await server.state(["location", "pause"])
    #expect(state.playing?.paused == true)
    let fixes = state.playing?.fixes
    let lon = state.lastFix?.lon
    _ = try await server.clock(["advance", "30"])
    state = try await server.state(["status"])
    #expect(state.playing?.fixes == fixes)
    #expect(state.lastFix?.lon == lon)
    #expect(state.walkingRoute == true)

    state = try await server.state(["location", "resume"])
    #expect(state.playing?.paused == nil)
    // Resuming what plays unpaused is no change, as pausing twice is none.
    #expect(try await server.ctl(["location", "resume"]).status == 0)
    _ = try await server.clock(["advance", "5"])
    let moved = try #require(try await server.state(["status"]).lastFix?.lon)
    #expect(abs(moved - 21.0122 - 2 * 0.000733) < 0.00002, "\(moved)")
    // About 14 s of walking in all: not over 10 s after the resume, over by 15.
    _ = try await server.clock(["advance", "3"])
    #expect(try await server.state(["status"]).walkingRoute == true)
    _ = try await server.clock(["advance", "3"])
    #expect(try await server.state(["status"]).walkingRoute == false)
  }

  static let root = repositoryRoot
  static func trace(_ name: String) -> String { root.appendingPathComponent("traces/\(name)").path }

  /// A realistic receiver under a served phone (issue 25): a set location is the truth, the
  /// phone stands there through a seeded receiver (fixes near it, not at it, the same every
  /// run); `off` gives exact positions again; an unknown profile is refused.
  @Test func realismPutsAReceiverUnderThePhone() async throws {
    let server = try await Server.start(["--permission", "authorizedWhenInUse"])
    defer { server.stop() }
    var state = try await server.state(["realism", "suburban", "--seed", "5", "--start", "hot"])
    #expect(state.realism?.profile == "suburban")
    _ = try await server.state(["location", "set", "60.17,24.94"])
    _ = try await server.clock(["advance", "30"])
    state = try await server.state(["status"])
    let fix = try #require(state.lastFix)
    let lat = try #require(fix.lat), lon = try #require(fix.lon)
    #expect(lat != 60.17 || lon != 24.94)
    #expect(abs(lat - 60.17) < 0.001 && abs(lon - 24.94) < 0.002, "\(lat),\(lon)")
    #expect(fix.eph.map { $0 > 1 && $0 < 50 } == true)
    state = try await server.state(["realism", "off"])
    #expect(state.realism == nil)
    _ = try await server.state(["location", "set", "60.18,24.95"])
    state = try await server.state(["status"])
    #expect(state.lastFix?.lat == 60.18)
    let bad = try await server.ctl(["realism", "downtown"])
    #expect(bad.status == 1 && bad.stderr.contains("profile: one of open-sky, suburban"), "\(bad.stderr)")
    // A seed JSON cannot carry exactly (2⁵³, as schemathesis sent) is refused, not kept and echoed wrong.
    let large = try await server.ctl(["realism", "suburban", "--seed", "9007199254740992"])
    #expect(large.status == 1 && large.stderr.contains("seed: a whole number from 0 to 9007199254740991"), "\(large.stderr)")
    #expect(try await server.ctl(["realism", "suburban", "--seed", "9007199254740991"]).status == 0)
  }

  /// `location run` plays a trace at its speed on the server's virtual clock: after 10 s at
  /// twice its pace the phone is where the trace is at 20 s, with the phone's time.
  @Test func aTraceRunsAtItsSpeedOnVirtualTime() async throws {
    let server = try await Server.start(["--permission", "authorizedWhenInUse"])
    defer { server.stop() }
    let replayed = try await DecodeCommandTests.run(["replay", "--virtual-time", "--count", "25", Self.trace("city-walk.nmea")])
    let records = try replayed.decoded(FixLine.self)
    var state = try await server.state(["location", "run", Self.trace("city-walk.nmea"), "--speed", "2"])
    var playing = try #require(state.playing)
    #expect(playing.kind == .trace && playing.fixes == 1 && playing.ended == false)
    _ = try await server.clock(["advance", "10"])
    state = try await server.state(["status"])
    playing = try #require(state.playing)
    #expect(playing.fixes == 21)
    let fix = try #require(state.lastFix)
    // The state has the fix's full precision; the replay's record rounds to 1e-9 degrees.
    func same(_ a: Double?, _ b: Double?) -> Bool { abs((a ?? .nan) - (b ?? .nan)) < 1e-8 }
    #expect(same(fix.lat, records[20].lat) && same(fix.lon, records[20].lon))
    // Stamped by the phone (its start date on virtual time), at the trace's pace.
    #expect(fix.time == "2026-01-01T00:00:20.000Z")
    // --offset skips into the trace; a set location stops it.
    state = try await server.state(["location", "run", Self.trace("city-walk.nmea"), "--offset", "20"])
    #expect(same(state.lastFix?.lat, records[20].lat))
    state = try await server.state(["location", "set", "52.1,21.1"])
    #expect(state.playing?.ended == true)
    // A trace that cannot be read is refused and changes nothing.
    let missing = try await server.ctl(["location", "run", "/nonexistent/walk.nmea"])
    #expect(missing.status == 1 && missing.stderr == "locemu ctl: cannot read /nonexistent/walk.nmea: No such file or directory\n")
    let notATrace = try await server.ctl(["location", "run", Self.trace("README.md")])
    #expect(notATrace.status == 1 && notATrace.stderr.contains("'README.md': no epochs read as NMEA"), "\(notATrace.stderr)")
    #expect(try await server.ctl(["location", "run", Self.trace("city-walk.nmea"), "--speed", "0"]).status == 1)
    #expect(try await server.ctl(["location", "run"]).status == 64)
    #expect(try await server.state(["status"]).lastFix?.lat == 52.1)
  }

  /// A seek (issue 32 item 5) jumps within the trace that plays to a fix or a time, paused or
  /// playing: the state's position says where it stands, the next fix is the trace's there, a
  /// paused trace stays paused; a route seeks as well; a source cannot be sought.
  @Test func aSeekJumpsWithinWhatPlays() async throws {
    let server = try await Server.start(["--permission", "authorizedWhenInUse"])
    defer { server.stop() }
    let replayed = try await DecodeCommandTests.run(["replay", "--virtual-time", "--count", "80", Self.trace("city-walk.nmea")])
    let records = try replayed.decoded(FixLine.self)
    func same(_ a: Double?, _ b: Double?) -> Bool { abs((a ?? .nan) - (b ?? .nan)) < 1e-8 }
    var state = try await server.state(["location", "run", Self.trace("city-walk.nmea")])
    var playing = try #require(state.playing)
    let total = try #require(playing.total)
    #expect(total > 80 && playing.position == 1, "\(playing)")
    _ = try await server.clock(["advance", "4"])
    #expect(try await server.state(["status"]).playing?.position == 5)

    // To a fix: it plays at once, and the trace goes on from there.
    state = try await server.state(["location", "seek", "--fix", "60"])
    playing = try #require(state.playing)
    #expect(playing.position == 61 && same(state.lastFix?.lat, records[60].lat), "\(state)")
    _ = try await server.clock(["advance", "2"])
    state = try await server.state(["status"])
    #expect(same(state.lastFix?.lat, records[62].lat))
    // Paused, a seek to a time moves the bar and plays nothing until resumed.
    _ = try await server.state(["location", "pause"])
    state = try await server.state(["location", "seek", "--seconds", "30"])
    playing = try #require(state.playing)
    #expect(playing.paused == true && playing.position == 30, "\(playing)")
    _ = try await server.clock(["advance", "3"])
    #expect(same(try await server.state(["status"]).lastFix?.lat, records[62].lat))
    state = try await server.state(["location", "resume"])
    _ = try await server.clock(["advance", "0"])
    state = try await server.state(["status"])
    #expect(same(state.lastFix?.lat, records[30].lat), "\(state)")

    // A route seeks by its fixes too.
    state = try await server.state(["location", "start", "60.1699,24.9384", "60.1799,24.9384", "--speed", "10"])
    let routeTotal = try #require(state.playing?.total)
    state = try await server.state(["location", "seek", "--fix", String(routeTotal - 1)])
    #expect(abs((state.lastFix?.lat ?? 0) - 60.1799) < 1e-6, "\(state)")
    // A source (a location set) cannot be sought; one of --fix and --seconds.
    _ = try await server.state(["location", "set", "52.1,21.1"])
    let refused = try await server.ctl(["location", "seek", "--fix", "3"])
    #expect(refused.status == 1 && refused.stderr.contains("nothing seekable is playing"), "\(refused.stderr)")
    #expect(try await server.ctl(["location", "seek"]).status == 64)
    #expect(try await server.ctl(["location", "seek", "--fix", "1", "--seconds", "2"]).status == 64)
  }

  /// Traces by name come from the server's --traces directory only (issue 22): a name is
  /// played, a name that leads outside is "no such trace" whatever is there, and a server
  /// without a directory says how to send the trace instead.
  @Test func namedTracesComeFromTheServersDirectoryOnly() async throws {
    let server = try await Server.start([
      "--permission", "authorizedWhenInUse", "--traces", Self.root.appendingPathComponent("traces").path,
    ])
    defer { server.stop() }
    let listed = try await server.decoded(Wire.TraceList.self, ["traces"])
    #expect(listed.names.contains("city-walk.nmea") && listed.maxBytes == 16 << 20)
    let state = try await server.state(["location", "run", "--named", "city-walk.nmea", "--speed", "2", "--loop"])
    #expect(state.playing?.name == "city-walk.nmea")
    for name in ["../Package.swift", Self.root.appendingPathComponent("Package.swift").path, "/etc/passwd", "nope.nmea"] {
      let refused = try await server.ctl(["location", "run", "--named", name])
      #expect(
        refused.status == 1 && refused.stderr.contains("no trace") && refused.stderr.contains("in the server's trace directory"),
        "\(name): \(refused.stderr)")
    }
    #expect(try await server.state(["status"]).playing?.name == "city-walk.nmea")
    let plain = try await Server.start()
    defer { plain.stop() }
    let none = try await plain.ctl(["location", "run", "--named", "city-walk.nmea"])
    #expect(none.status == 1 && none.stderr.contains("this server has no trace directory"), "\(none.stderr)")
    #expect(try await plain.decoded(Wire.TraceList.self, ["traces"]).directory == false)
  }

  /// `--map-features` runs the lost-pets app on phone 1, as `locemu preview` runs it: its
  /// preview loads the pins around the phone, `ctl event tap` opens the fullscreen map and
  /// `back` closes it, each line on the phone's event stream. A phone made without it refuses
  /// map events; `phones create --map-features` makes one that takes them.
  @Test func aPhoneWithMapFeaturesRunsTheLostPetsApp() async throws {
    let server = try await Server.start([
      "--map-features", "--announcements", PreviewCommandTests.path("traces/announcements.json"),
      "--permission", "authorizedWhenInUse", "--fixed", "52.2476,21.0137",
    ])
    defer { server.stop() }
    _ = try await server.clock(["advance", "2"])
    #expect(try await server.ctl(["event", "tap"]).status == 0)
    _ = try await server.clock(["advance", "1"])
    #expect(try await server.ctl(["event", "back"]).status == 0)
    // The transcript so far, then its end: deleting the phone (its app stops) ends the stream.
    let stream = try await EmulatorServer(url: URL(string: server.url), timeout: 600).events("phones/1/events?history=1000")
    #expect(try await server.ctl(["phones", "delete", "1"]).status == 0)
    var lines: [String] = []
    for try await line in stream { lines.append(line) }
    let records = lines.compactMap { try? JSONDecoder().decode(TranscriptRecord.self, from: Data($0.utf8)) }
    #expect(records.last?.event == "end")
    let previews = records.filter { $0.event == "preview" }
    #expect(previews.map(\.preview) == ["loading", "map"], "\(lines)")
    #expect(previews.last?.pinIds == ["a-101", "a-102", "a-103", "a-104", "a-106"])
    let navigation = records.filter { $0.event == "navigation" }
    #expect(navigation.map(\.screen) == ["fullscreenMap", "landing"] && navigation.map(\.trigger) == ["tap", "back"])
    #expect(records.first { $0.event == "fullscreenMap" }?.title == "Pet Locations")

    let plain = try await server.state(["phones", "create"])
    let refused = try await server.ctl(["event", "tap"], phone: plain.id)
    #expect(refused.status == 1 && refused.stderr.contains("this phone has no map"), "\(refused.stderr)")
    let withMap = try await server.state(["phones", "create", "--map-features"])
    #expect(try await server.ctl(["event", "tap"], phone: withMap.id).status == 0)
  }
}
