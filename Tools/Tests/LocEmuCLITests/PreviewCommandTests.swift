import Foundation
import ToolsTestSupport
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

#if canImport(Glibc)
  import Glibc
#endif

/// `locemu preview` and `locemu serve-announcements` end to end: the built binary, the bundled
/// trace and announcements, a real HTTP server and a real gpsd.
@Suite("preview, serve-announcements")
struct PreviewCommandTests {
  typealias Run = DecodeCommandTests.Run
  static let root = SourceCommandTests.root
  static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }
  static func run(_ arguments: [String]) async throws -> Run { try await DecodeCommandTests.run(arguments) }
  static func runInProcess(_ arguments: [String]) async throws -> Run { try await DecodeCommandTests.runInProcess(arguments) }
  static func objects(_ run: Run) throws -> [TranscriptRecord] { try run.decoded(TranscriptRecord.self) }

  static let mainJob = [
    "preview", "--virtual-time", "--json", "--trace", path("traces/city-walk.nmea"),
    "--announcements", path("traces/announcements.json"), "--at", "1=authorize", "--at", "4=tap", "--at", "4.1=tap",
    "--at", "6=back", "--at", "8=tap", "--at", "9=swipeBack", "--duration", "10",
  ]

  static func lines(_ records: [TranscriptRecord], _ event: String) -> [TranscriptRecord] {
    records.filter { $0.event == event }
  }

  @Test func preview_theMainJobPrintsTheSameTransitionsEveryRun() async throws {
    let first = try await Self.run(Self.mainJob), second = try await Self.run(Self.mainJob)
    #expect(first.status == 0, "\(first.stderr)")
    #expect(first.stdout == second.stdout)
    // Every line has its time, a number: decoding checks it.
    let records = try Self.objects(first)
    // Not authorized at first; authorized through the prompt another screen showed; then the map.
    let previews = Self.lines(records, "preview")
    #expect(previews.map(\.preview) == ["permissionRequired", "loading", "map"])
    let map = try #require(previews.last)
    #expect(map.radiusMeters == 10_000)
    #expect(map.pins == 5)
    #expect(map.pinIds == ["a-101", "a-102", "a-103", "a-104", "a-106"])
    let center = try #require(map.center)
    #expect(abs(center[0] - 52.2476) < 0.01 && abs(center[1] - 21.0137) < 0.01)
    // Two taps 0.1 s apart push once; back pops; the next tap pushes again; the swipe pops.
    let navigation = Self.lines(records, "navigation")
    #expect(navigation.map(\.screen) == ["fullscreenMap", "landing", "fullscreenMap", "landing"])
    #expect(navigation.map(\.trigger) == ["tap", "back", "tap", "swipeBack"])
    #expect(Self.lines(records, "tapIgnored").count == 1)
    #expect(Self.lines(records, "fullscreenMap").first?.title == "Pet Locations")
    #expect(Self.lines(records, "log").contains { $0.message == "map preview tapped" })
  }

  /// The main job of scripts/run.sh (issue 15): Helsinki's walk, announcements and basemap; the
  /// same transcript every run, the five newest pins around the walk, the streets under them.
  @Test func preview_theHelsinkiMainJobDrawsTheStreetsUnderThePins() async throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("main-job-\(UUID())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let map = dir.appendingPathComponent("helsinki.basemap").path, svg = dir.appendingPathComponent("preview.svg").path
    let fullscreen = dir.appendingPathComponent("fullscreen.svg").path
    #expect(try await Self.run(["basemap", "build", Self.path("data/helsinki/Helsinki.osm.pbf"), map]).status == 0)
    let job = [
      "preview", "--virtual-time", "--json", "--trace", Self.path("traces/helsinki-walk.nmea"), "--announcements",
      Self.path("traces/helsinki-announcements.json"), "--basemap", Self.path("data/shoreline/gulf-of-finland.basemap"),
      "--basemap", map, "--snapshot", svg, "--snapshot-fullscreen", fullscreen, "--snapshot-fullscreen-zoom", "16",
      "--at", "1=authorize", "--at", "4=tap", "--at", "4.1=tap", "--at", "6=back", "--duration", "8",
    ]
    let first = try await Self.run(job), second = try await Self.run(job)
    #expect(first.status == 0, "\(first.stderr)")
    #expect(first.stdout == second.stdout)
    let previews = Self.lines(try Self.objects(first), "preview")
    #expect(previews.map(\.preview) == ["permissionRequired", "loading", "map"])
    let loaded = try #require(previews.last)
    #expect(loaded.pinIds == ["h-201", "h-202", "h-203", "h-204", "h-205"])
    let center = try #require(loaded.center)
    #expect(abs(center[0] - 60.1712) < 0.001 && abs(center[1] - 24.9417) < 0.001)
    let drawn = try String(contentsOfFile: svg, encoding: .utf8)
    #expect(drawn.contains("class=\"basemap\"") && drawn.contains("© OpenStreetMap contributors"))
    #expect(drawn.contains("class=\"shoreline\"") && drawn.contains("GSHHG (Wessel &amp; Smith, LGPL)"))
    #expect(drawn.components(separatedBy: "class=\"pin\"").count - 1 == 5)
    // The fullscreen map at street zoom: a 100 m scale bar, and the streets from edge to edge
    // (no land laid under the extract's sea shows: the extract covers the whole frame).
    let street = try String(contentsOfFile: fullscreen, encoding: .utf8)
    #expect(street.contains(">100 m</text>") && street.contains("width=\"390\" height=\"844\""))
    #expect(street.components(separatedBy: "<path ").count > 500)
    let opened = try #require(Self.lines(try Self.objects(first), "fullscreenMap").first)
    #expect(abs((opened.zoom ?? 0) - 10.567) < 0.01)
  }

  @Test func preview_fullscreenZoomNeedsTheFullscreenImageAndASaneZoom() async throws {
    for (arguments, message) in [
      (["--snapshot-fullscreen-zoom", "16"], "--snapshot-fullscreen-zoom needs --snapshot-fullscreen"),
      (["--snapshot-fullscreen", "/tmp/x.svg", "--snapshot-fullscreen-zoom", "40"], "--snapshot-fullscreen-zoom must be within"),
    ] {
      let run = try await Self.runInProcess(["preview", "--virtual-time", "--fixed", "60.17,24.94"] + arguments)
      #expect(run.status == 64 && run.stderr.contains(message), "\(run.stderr)")
    }
  }

  @Test func preview_readableTranscriptAndSnapshot() async throws {
    let svg = FileManager.default.temporaryDirectory.appendingPathComponent("locemu-cli-\(UUID().uuidString).svg").path
    defer { try? FileManager.default.removeItem(atPath: svg) }
    let run = try await Self.run([
      "preview", "--virtual-time", "--permission", "authorizedWhenInUse", "--fixed", "52.2476,21.0137",
      "--announcements", Self.path("traces/announcements.json"), "--snapshot", svg, "--language", "pl", "--duration", "2",
    ])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.lines.contains { $0.contains("preview") && $0.contains(" map center=[52.2476000,21.0137000]") && $0.contains("pins=5") })
    let image = try String(contentsOfFile: svg, encoding: .utf8)
    #expect(image.contains("Zaginione"))
    #expect(image.components(separatedBy: "class=\"pin\"").count - 1 == 5)
  }

  @Test func preview_badInputIsAClearErrorNotACrash() async throws {
    let missing = try await Self.runInProcess(["preview", "--virtual-time", "--announcements", "/nonexistent/pets.json"])
    #expect(missing.status == 1)
    #expect(missing.stderr == "locemu preview: cannot read /nonexistent/pets.json: no such file\n")
    #expect(missing.stdout.isEmpty)
    let garbage = try await Self.runInProcess(["preview", "--virtual-time", "--announcements", Self.path("traces/city-walk.nmea")])
    #expect(garbage.status == 1)
    #expect(garbage.stderr.hasPrefix("locemu preview: cannot read \(Self.path("traces/city-walk.nmea")): not an announcements document"))
    #expect(try await Self.runInProcess(["preview", "--virtual-time", "--announcements", "http://127.0.0.1:9"]).status == 64)
    #expect(try await Self.runInProcess(["preview", "--snapshot", "map.png"]).status == 64)
    #expect(try await Self.runInProcess(["preview", "--at", "1=wave"]).status == 64)
  }

  /// Starts `locemu serve-announcements` with the bundled announcements on a free port.
  static func startServer(_ extra: [String] = []) async throws -> ServerProcess {
    try await ServerProcess.start(
      locemuBinary, ["serve-announcements", path("traces/announcements.json"), "--listen", "127.0.0.1:0"] + extra)
  }

  /// `preview` on the real clock (an HTTP backend, a live gpsd), driven from its standard input
  /// (`--control stdin`) by what it prints rather than at set times: the run goes on until the
  /// test closes its input, so each step happens once the one before it has, whatever the
  /// machine's load. The location request waits for its fix as long as it must (a hang guard).
  static func livePreview(_ arguments: [String]) throws -> LiveProcess {
    try LiveProcess(arguments + ["--control", "stdin", "--request-timeout", "3600"])
  }

  /// The transcript of a live preview that has ended (`--json`).
  static func objects(_ preview: LiveProcess) throws -> [TranscriptRecord] {
    try preview.lines.map { try JSONDecoder().decode(TranscriptRecord.self, from: Data($0.utf8)) }
  }

  @Test func preview_againstServeAnnouncementsOverHTTP() async throws {
    let server = try await Self.startServer()
    defer { server.stop() }
    let url = server.url
    #expect(url.hasPrefix("http://127.0.0.1:"))
    let preview = try Self.livePreview([
      "preview", "--json", "--permission", "authorizedWhenInUse", "--fixed", "52.2476,21.0137", "--announcements", url,
    ])
    defer { preview.kill() }
    // The tap once the pins are on the map, the end once it has opened the fullscreen map.
    #expect(await preview.waitForLine { $0.contains(#""preview":"map""#) }, "no map: \(preview.lines) \(preview.stderr)")
    preview.send("tap")
    #expect(await preview.waitForLine { $0.contains(#""event":"navigation""#) }, "the tap did nothing: \(preview.lines)")
    preview.closeInput()
    #expect(await preview.finish() == 0, "\(preview.stderr)")
    let records = try Self.objects(preview)
    let previews = Self.lines(records, "preview")
    #expect(previews.map(\.preview) == ["loading", "map"])
    #expect(previews.last?.pinIds == ["a-101", "a-102", "a-103", "a-104", "a-106"])
    #expect(Self.lines(records, "navigation").first?.screen == "fullscreenMap", "\(preview.lines)")
  }

  @Test func preview_aFailingBackendGivesTheMapWithoutPins() async throws {
    let server = try await Self.startServer(["--fail-with", "500"])
    defer { server.stop() }
    let url = server.url
    let preview = try Self.livePreview([
      "preview", "--json", "--permission", "authorizedWhenInUse", "--fixed", "52.2476,21.0137", "--announcements", url,
    ])
    defer { preview.kill() }
    // The end once the map has come (after the failed fetch's log line).
    #expect(await preview.waitForLine { $0.contains(#""preview":"map""#) }, "no map: \(preview.lines) \(preview.stderr)")
    preview.closeInput()
    #expect(await preview.finish() == 0, "\(preview.stderr)")
    let records = try Self.objects(preview)
    let map = try #require(Self.lines(records, "preview").last)
    #expect(map.preview == "map")
    #expect(map.pins == 0)
    #expect(Self.lines(records, "log").contains { $0.message?.contains("HTTP 500") == true })
  }

  @Test func serveAnnouncements_answersQueriesAndRejectsBadOnes() async throws {
    let server = try await Self.startServer()
    defer { server.stop() }
    let url = server.url
    func get(_ query: String) async throws -> (Int, String) {
      // The request's timeout is a hang guard.
      let (data, response) = try await URLSession.shared.data(for: URLRequest(url: URL(string: url + query)!, timeoutInterval: 600))
      return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }
    let (status, body) = try await get("/api/v1/announcements?lat=52.2476&lng=21.0137&range=10&limit=2")
    #expect(status == 200)
    #expect(body.contains("\"a-101\"") && body.contains("\"a-102\"") && !body.contains("\"a-103\""))
    #expect(try await get("/api/v1/announcements?lat=52").0 == 400)
    #expect(try await get("/nothing").0 == 404)
    let missing = try await Self.run(["serve-announcements", "/nonexistent.json", "--listen", "127.0.0.1:0"])
    #expect(missing.status == 1)
    #expect(missing.stderr == "locemu serve-announcements: cannot read /nonexistent.json: no such file\n")
  }

  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/sbin/gpsd")))
  func preview_againstARealGPSD() async throws {
    // As ``livePreview(_:)``, through the script, which passes its
    // standard input on. The feed loops (the walk never runs out, however late the preview
    // starts), and gpsd's connection has all the time a hang leaves it.
    let preview = try LiveProcess(
      [
        Self.path("scripts/with-gpsd.sh"), "--loop", Self.path("traces/city-walk.nmea"), "--",
        "sh", "-c",
        "\"$LOCEMU\" preview --json --gpsd 127.0.0.1:$GPSD_PORT --gpsd-timeout 86400 --permission authorizedWhenInUse "
          + "--announcements \"$ANNOUNCEMENTS\" --control stdin --request-timeout 3600",
      ], executable: URL(fileURLWithPath: "/bin/bash"),
      environment: ["LOCEMU": locemuBinary.path, "ANNOUNCEMENTS": Self.path("traces/announcements.json")])
    defer { preview.kill() }
    #expect(await preview.waitForLine { $0.contains(#""preview":"map""#) }, "no map: \(preview.lines) \(preview.stderr)")
    preview.send("tap")
    #expect(await preview.waitForLine { $0.contains(#""event":"navigation""#) }, "the tap did nothing: \(preview.lines)")
    // Back once the push's transition (350 ms of the clock) is over: a back during it is
    // ignored, says so (backIgnored), and is sent again.
    let poppedLine: @Sendable (String) -> Bool = { $0.contains(#""event":"navigation""#) && $0.contains(#""screen":"landing""#) }
    while !preview.lines.contains(where: poppedLine) {
      let ignored = preview.lines.count { $0.contains(#""event":"backIgnored""#) }
      preview.send("back")
      let answered = await preview.waitForLines { lines in
        lines.contains(where: poppedLine) || lines.count { $0.contains(#""event":"backIgnored""#) } > ignored
      }
      guard answered else {
        Issue.record("preview: no answer to back: \(preview.lines) \(preview.stderr)")
        break
      }
    }
    preview.closeInput()
    let status = await preview.finish()
    let stdout = preview.lines.joined(separator: "\n"), stderr = preview.stderr
    #expect(status == 0, "\(stderr)")
    let records = try Self.objects(preview)
    let map = try #require(Self.lines(records, "preview").last)
    #expect(map.preview == "map", "\(stdout)")
    // The walk starts at 52.2476,21.0137 and stays within a few hundred metres.
    let center = try #require(map.center)
    #expect(abs(center[0] - 52.2476) < 0.01 && abs(center[1] - 21.0137) < 0.01)
    #expect(map.pins == 5)
    #expect(Self.lines(records, "navigation").map(\.screen) == ["fullscreenMap", "landing"])
    let pids = stderr.matches(of: /pid (\d+)/).compactMap { Int32($0.1) }
    #expect(pids.count == 2 && pids.allSatisfy { kill($0, 0) != 0 })
  }
}
