import EmulatorTesting
import Foundation
import LocationEmulatorClient
import LocationModel
import ToolsTestSupport
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

#if canImport(Glibc)
  import Glibc
#endif

/// The page at `/` in a real headless browser (Debian's chromium, driven through chromedriver's
/// WebDriver API): it shows the phone's state, and its Revoke button changes the state both on
/// the page and through the API.
@Suite("serve: the web page")
struct WebPageTests {
  typealias Server = ServeCommandTests.Server

  static let chromedriver = "/usr/bin/chromedriver"
  static let chromium = ["/usr/lib/chromium/chromium", "/usr/bin/chromium"].first { FileManager.default.isExecutableFile(atPath: $0) }
  static var available: Bool { FileManager.default.isExecutableFile(atPath: chromedriver) && chromium != nil }

  /// A JSON value as WebDriver takes it (a command's body) and gives it (a command's `value`, a
  /// script's result, whose kind varies with the script): numbers that are whole stay integers.
  enum JSON: Codable, Sendable, Hashable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
  {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSON])
    case object([String: JSON])

    init(stringLiteral value: String) { self = .string(value) }
    init(integerLiteral value: Int) { self = .int(value) }
    init(booleanLiteral value: Bool) { self = .bool(value) }
    init(arrayLiteral elements: JSON...) { self = .array(elements) }
    init(dictionaryLiteral elements: (String, JSON)...) { self = .object(Dictionary(elements) { _, last in last }) }

    init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      if container.decodeNil() {
        self = .null
      } else if let bool = try? container.decode(Bool.self) {
        self = .bool(bool)
      } else if let int = try? container.decode(Int.self) {
        self = .int(int)
      } else if let double = try? container.decode(Double.self) {
        self = .double(double)
      } else if let string = try? container.decode(String.self) {
        self = .string(string)
      } else if let array = try? container.decode([JSON].self) {
        self = .array(array)
      } else {
        self = .object(try container.decode([String: JSON].self))
      }
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      switch self {
      case .null: try container.encodeNil()
      case .bool(let value): try container.encode(value)
      case .int(let value): try container.encode(value)
      case .double(let value): try container.encode(value)
      case .string(let value): try container.encode(value)
      case .array(let value): try container.encode(value)
      case .object(let value): try container.encode(value)
      }
    }

    var bool: Bool? { if case .bool(let b) = self { b } else { nil } }
    /// The number, when it is a whole one.
    var int: Int? { if case .int(let i) = self { i } else { nil } }
    /// The number, whole or not.
    var double: Double? {
      switch self {
      case .int(let i): Double(i)
      case .double(let d): d
      default: nil
      }
    }
    var string: String? { if case .string(let s) = self { s } else { nil } }
    var array: [JSON]? { if case .array(let a) = self { a } else { nil } }
    var object: [String: JSON]? { if case .object(let o) = self { o } else { nil } }
    /// The elements, when it is an array of numbers.
    var doubles: [Double]? {
      guard let array else { return nil }
      let numbers = array.compactMap(\.double)
      return numbers.count == array.count ? numbers : nil
    }
    /// A member of an object (nil for anything else, or when it has no such member).
    subscript(_ key: String) -> JSON? { object?[key] }
  }

  /// A WebDriver answer: its `value` (null when it has none).
  struct Answer: Decodable {
    var value: JSON?
  }

  /// Debian's Leaflet (libjs-leaflet; scripts/test.sh installs it), which /map loads from the server.
  static var leaflet: Bool { FileManager.default.fileExists(atPath: "/usr/share/javascript/leaflet/leaflet.js") }

  /// Issue 32 item 4: `/map` is a real web map of a fresh server (no options): Leaflet from the
  /// server over its own tiles, following the phone anywhere in the world with its marker and
  /// accuracy circle as Leaflet layers; zoomed out to the world and in to a street, tiles of
  /// each zoom load; a real click sets the location; no request goes to any other host.
  @Test(.enabled(if: WebPageTests.available && WebPageTests.leaflet)) func theMapPageIsAWebMapOfAnywhere() async throws {
    let server = try await Server.start(["--permission", "authorizedWhenInUse"])
    defer { server.stop() }
    _ = try await server.state(["location", "set", "-33.8568,151.2153", "--accuracy", "40"])
    let browser = try await Browser.launch()
    defer { browser.stop() }
    try await browser.open(server.url + "/map")
    #expect(try await browser.waitFor("document.body.dataset.ready === 'true' && window.locemuMap !== undefined"))
    #expect(
      try await browser.waitFor(
        "(() => { const c = locemuMap.getCenter(); return Math.abs(c.lat + 33.8568) < 1e-3 && Math.abs(c.lng - 151.2153) < 1e-3 "
          + "&& locemuMap.getZoom() === 16; })()"))
    let layers = try await browser.run(
      "const p = locemuPhones['1']; return [locemuMap.hasLayer(p.marker), locemuMap.hasLayer(p.accuracy), p.accuracy.getRadius()]")
    #expect(layers.array?.count == 3 && layers.array?[0].bool == true && layers.array?[2].int == 40, "\(layers)")
    let loaded = "[...document.querySelectorAll('#map img.leaflet-tile-loaded')]"
    #expect(try await browser.waitFor("\(loaded).filter(i => i.src.includes('/tiles/16/')).length >= 4"))
    #expect(try await browser.waitForText("#fix", where: "text.startsWith('phone 1: -33.856800, 151.215300 ±40.0 m')"))

    // Out to the whole world and in to a street of Helsinki: each zoom's tiles come.
    _ = try await browser.run("locemuMap.setView([20, 0], 1, {animate: false})")
    #expect(try await browser.waitFor("\(loaded).filter(i => i.src.includes('/tiles/1/')).length >= 2"))
    _ = try await browser.run("locemuMap.setView([60.1699, 24.9384], 17, {animate: false})")
    #expect(try await browser.waitFor("\(loaded).filter(i => i.src.includes('/tiles/17/')).length >= 4"))

    // A real click 120 px right of the middle sets the phone there.
    let target = try await browser.run(
      "const p = locemuMap.containerPointToLatLng(locemuMap.getSize().divideBy(2).add([120, 0])); return [p.lat, p.lng]")
    let expected = try #require(target.doubles)
    try await browser.click("#map", dx: 120, dy: 0)
    #expect(try await browser.waitForText("#fix", where: "text.startsWith('phone 1: \(String(format: "%.4f", expected[0]))')"))
    let fix = try #require(try await server.state(["status"]).lastFix)
    #expect(abs((fix.lat ?? 0) - expected[0]) < 2e-5 && abs((fix.lon ?? 0) - expected[1]) < 2e-5, "\(fix)")

    // Leaflet came from the server; nothing was asked of any other host.
    #expect(try await browser.run("return typeof L.map").string == "function")
    let foreign = try await browser.run(
      "return performance.getEntriesByType('resource').map(e => e.name).filter(n => !n.startsWith(location.origin + '/'))")
    #expect(foreign.array?.isEmpty == true, "\(foreign)")
  }

  /// Issue 50 item 8: `serve --tiles` puts a tile server's street map under both pages' maps,
  /// credited as given, with the offline map one click away. The tile server is a second
  /// `locemu serve` on loopback (its `/tiles` are numbered as OpenStreetMap's), so the test never
  /// leaves the machine.
  @Test(.enabled(if: WebPageTests.available && WebPageTests.leaflet)) func aTileServersStreetMapGoesUnderTheMaps() async throws {
    let tileServer = try await Server.start()
    defer { tileServer.stop() }
    let server = try await Server.start([
      "--permission", "authorizedWhenInUse", "--tiles", tileServer.url + "/tiles/{z}/{x}/{y}.svg", "--tiles-attribution",
      "Tiles <local> & co",
    ])
    defer { server.stop() }
    _ = try await server.state(["location", "set", "60.1699,24.9384"])
    let browser = try await Browser.launch()
    defer { browser.stop() }
    let loaded = "[...document.querySelectorAll('img.leaflet-tile-loaded')]"
    for page in ["/map", "/"] {
      try await browser.open(server.url + page)
      #expect(try await browser.waitFor("\(loaded).filter(i => i.src.startsWith('\(tileServer.url)/tiles/')).length >= 4"), "\(page)")
      #expect(
        try await browser.waitFor(
          "[...document.querySelectorAll('.leaflet-control-attribution')].some(e => e.textContent.includes('Tiles <local> & co'))"),
        "\(page)")
      // The offline map, chosen in the layers control: the server's own tiles load.
      _ = try await browser.run("document.querySelectorAll('.leaflet-control-layers-base input')[1].click()")
      #expect(try await browser.waitFor("\(loaded).filter(i => i.src.startsWith(location.origin + '/tiles/')).length >= 4"), "\(page)")
    }
  }

  /// Issue 32 item 5 on `/map`: a place search (a name on the bundled maps, then a coordinate
  /// typed as degrees, minutes and seconds) moves the map; a saved point survives a reload and,
  /// clicked, moves the phone there.
  @Test(.enabled(if: WebPageTests.available && WebPageTests.leaflet)) func theMapPageSearchesAndKeepsSavedPoints() async throws {
    let server = try await Server.start(["--permission", "authorizedWhenInUse"])
    defer { server.stop() }
    let port = try #require(URL(string: server.url)?.port)
    let answer = try await offPool { try LoopbackHTTPConnection(port: port, receiveTimeout: 600).request("GET", "/places?q=hakaniemi") }
    let places = try Wire.decode(Wire.PlaceList.self, from: answer.body).places
    let hakaniemi = try #require(places.first { $0.name == "Hakaniemi" })
    let (lat, lon) = (hakaniemi.lat, hakaniemi.lon)
    let browser = try await Browser.launch()
    defer { browser.stop() }
    try await browser.open(server.url + "/map")
    #expect(try await browser.waitFor("document.body.dataset.ready === 'true' && window.locemuMap !== undefined"))

    try await browser.type("#search", "hakaniemi\u{E007}")
    #expect(
      try await browser.waitFor(
        "document.querySelectorAll('#results li.result').length > 0 && Math.abs(locemuMap.getCenter().lat - \(lat)) < 1e-6 "
          + "&& Math.abs(locemuMap.getCenter().lng - \(lon)) < 1e-6"))
    #expect(try await browser.text("#results li.result").hasPrefix("Hakaniemi"))
    _ = try await browser.run("document.querySelector('#search').value = ''")
    try await browser.type("#search", "33°52′7.68″S 151°12′33.48″E\u{E007}")
    #expect(
      try await browser.waitFor(
        "Math.abs(locemuMap.getCenter().lat + 33.8688) < 1e-6 && Math.abs(locemuMap.getCenter().lng - 151.2093) < 1e-6"))

    // Saved here under a name (the page asks with window.prompt), it is there after a reload.
    _ = try await browser.run("window.prompt = () => 'Opera House'")
    try await browser.click("#save-point")
    try await browser.command("POST", "/session/\(browser.session)/refresh", [:])
    #expect(try await browser.waitFor("document.body.dataset.ready === 'true' && window.locemuMap !== undefined"))
    try await browser.click("#show-saved")
    #expect(
      try await browser.waitFor(
        "[...document.querySelectorAll('#saved li.saved-point')].some(l => l.textContent.startsWith('Opera House'))"))
    try await browser.click("#saved li.saved-point")
    #expect(try await browser.waitForText("#fix", where: "text.startsWith('phone 1: -33.86880')"))
    let fix = try #require(try await server.state(["status"]).lastFix)
    #expect(abs((fix.lat ?? 0) + 33.8688) < 1e-5 && abs((fix.lon ?? 0) - 151.2093) < 1e-5, "\(fix)")
  }

  /// Issue 32 item 5: the seek bar of a playing trace stands at its position and, moved (the
  /// keyboard's End key on the focused bar), jumps the trace there.
  @Test(.enabled(if: WebPageTests.available)) func theSeekBarJumps() async throws {
    let server = try await Server.start(["--permission", "authorizedWhenInUse"])
    defer { server.stop() }
    let state = try await server.state(["location", "run", ServeCommandTests.trace("city-walk.nmea")])
    let total = try #require(state.playing?.total)
    _ = try await server.clock(["advance", "9"])
    let browser = try await Browser.launch()
    defer { browser.stop() }
    try await browser.open(server.url + "/")
    #expect(try await browser.waitFor("document.querySelector('#seek-1') && !document.querySelector('#seek-1').closest('div').hidden"))
    #expect(try await browser.run("return document.querySelector('#seek-1').value").string == "10")
    #expect(try await browser.run("return document.querySelector('#seek-1').max").string == String(total - 1))
    // Focused, not clicked: a click on the bar is itself a seek (to where it lands), whose
    // request could overtake the key's under load.
    _ = try await browser.run("document.querySelector('#seek-1').focus()")
    try await browser.type("#seek-1", "\u{E010}")  // End
    #expect(try await browser.waitForText("#playing-1", where: "text.includes('fix \(total) of \(total)')"))
    let playing = try #require(try await server.state(["status"]).playing)
    #expect(playing.position == total, "\(playing)")
  }

  /// Issue 32 item 5: a KML track and a GeoJSON line chosen in the page's file picker go up as
  /// the phone's trace and play (WebDriver types a file's path into a file input, as a user
  /// picks it).
  @Test(.enabled(if: WebPageTests.available)) func kmlAndGeoJSONFilesChosenOnThePagePlay() async throws {
    let server = try await Server.start(["--permission", "authorizedWhenInUse"])
    defer { server.stop() }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("page-upload-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    // The bundled KML sample (a timed gx:Track of three points).
    let kml = URL(fileURLWithPath: ServeCommandTests.trace("helsinki-steps.kml"))
    let geoJSON = directory.appendingPathComponent("harbour.geojson")
    let line =
      #"{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {"coordTimes": "#
      + #"["2026-05-16T09:00:00Z", "2026-05-16T09:00:01Z"]}, "geometry": {"type": "LineString", "#
      + #""coordinates": [[151.2093, -33.8688, 5], [151.2094, -33.8687, 6]]}}]}"#
    try Data(line.utf8).write(to: geoJSON)
    let browser = try await Browser.launch()
    defer { browser.stop() }
    try await browser.open(server.url + "/")
    #expect(try await browser.waitFor("document.querySelector('#trace-file-1')"))
    for (file, points, last) in [(kml, 3, (60.16993, 24.9384)), (geoJSON, 2, (-33.8687, 151.2094))] {
      try await browser.type("#trace-file-1", file.path)
      try await browser.click("#play-trace-1")
      #expect(try await browser.waitForText("#playing-1", where: "text.includes(\(Browser.literal(file.lastPathComponent)))"))
      let playing = try #require(try await server.state(["status"]).playing)
      #expect(playing.kind == .trace && playing.name == file.lastPathComponent && playing.total == points, "\(playing)")
      _ = try await server.clock(["advance", String(points)])
      let fix = try #require(try await server.state(["status"]).lastFix)
      #expect(abs((fix.lat ?? 0) - last.0) < 1e-7 && abs((fix.lon ?? 0) - last.1) < 1e-7, "\(file.lastPathComponent): \(fix)")
    }
  }

  @Test(.enabled(if: WebPageTests.available)) func revokeOnThePageChangesTheState() async throws {
    let server = try await Server.start(["--permission", "authorizedWhenInUse"])
    defer { server.stop() }
    _ = try await server.state(["location", "set", "52.2297,21.0122", "--altitude", "101.25", "--speed", "1.3998033333333335"])
    let browser = try await Browser.launch()
    defer { browser.stop() }
    try await browser.open(server.url + "/")
    #expect(try await browser.waitForText("#status-1", "authorizedWhenInUse"))
    // Rounded for people (6 decimals for degrees, one for metres and m/s), exact on hover.
    let fix = try await browser.text("#fix-1")
    #expect(fix.hasPrefix("52.229700, 21.012200, 101.3 m, 1.4 m/s"), "\(fix)")
    let exact = try await browser.run("return document.querySelector('#fix-1').title").string ?? ""
    #expect(exact.contains("speed 1.3998033333333335") && exact.contains("altMSL 101.25"), "\(exact)")
    #expect(try await browser.waitFor("document.querySelector('#clock').textContent.includes('clock ')"))
    // The map is Leaflet over the server's tiles, centred on the phone, its tiles loaded.
    #expect(try await browser.waitFor("document.querySelectorAll('#map-1 img.leaflet-tile-loaded').length >= 2"))
    let centre = try await Self.coordinate(browser, dx: 0, dy: 0)
    #expect(abs(centre.lat - 52.2297) < 1e-5 && abs(centre.lon - 21.0122) < 1e-5, "within a pixel: \(centre)")
    #expect(try await browser.waitFor("document.querySelector('#map-1 path.user') !== null"))
    // The card and its map use the window's width (1,400 px here), not a fixed 640.
    let width = try await browser.run("return document.querySelector('#map-1').getBoundingClientRect().width").double ?? 0
    #expect(width > 900, "\(width)")

    try await browser.click("#revoke-1")
    #expect(try await browser.waitForText("#status-1", "denied"))
    #expect(try await server.state(["status"]).status == .denied)
    // The transcript on the page has the change, as a readable line; a click shows its JSON.
    let line = "[...document.querySelectorAll('#transcript-1 .line')].find(l => l.textContent.includes('permission=denied'))"
    #expect(try await browser.waitFor("\(line) !== undefined"))
    #expect(try await browser.run("const l = \(line); return l.querySelector('pre').hidden").bool == true)
    #expect(try await browser.run("const l = \(line); l.click(); return l.querySelector('pre').hidden").bool == false)

    // A change made elsewhere (ctl) reaches the page through its event stream.
    _ = try await server.state(["services", "off"])
    #expect(try await browser.waitForText("#services-1", "off"))
  }

  /// A phone that runs the lost-pets app (`--map-features`) shows it on its card: the preview's
  /// state and the screen on top, from the app's lines; its buttons tap the preview (the
  /// fullscreen map opens) and go back. A phone without the app has no such row.
  @Test(.enabled(if: WebPageTests.available)) func theLostPetsAppIsDrivenFromThePage() async throws {
    let server = try await Server.start([
      "--map-features", "--announcements", PreviewCommandTests.path("traces/announcements.json"), "--phones", "2",
      "--permission", "authorizedWhenInUse", "--fixed", "52.2476,21.0137",
    ])
    defer { server.stop() }
    _ = try await server.clock(["advance", "2"])
    let browser = try await Browser.launch()
    defer { browser.stop() }
    try await browser.open(server.url + "/")
    #expect(try await browser.waitForText("#lost-pets-1", where: "text.includes('preview map, 5 pins; on screen: landing')"))
    try await browser.click("#app-tap-1")
    #expect(try await browser.waitForText("#lost-pets-1", where: "text.includes('on screen: fullscreenMap')"))
    _ = try await server.clock(["advance", "1"])
    try await browser.click("#app-back-1")
    #expect(try await browser.waitForText("#lost-pets-1", where: "text.includes('on screen: landing')"))
    #expect(try await browser.waitFor("document.querySelector('#status-2') !== null"))
    #expect(try await browser.run("return document.querySelector('#lost-pets-2').closest('div').hidden").bool == true)
  }

  /// A receiver chosen on the page goes under the location set there: the state says so (on the
  /// page and through the API), and the fixes are the receiver's (near the location, not at
  /// it, with its accuracy); turned off, the phone is perfect again.
  @Test(.enabled(if: WebPageTests.available)) func aReceiverChosenOnThePageGoesUnderTheLocation() async throws {
    let server = try await Server.start(["--permission", "authorizedWhenInUse"])
    defer { server.stop() }
    let browser = try await Browser.launch()
    defer { browser.stop() }
    try await browser.open(server.url + "/")
    #expect(try await browser.waitForText("#receiver-1", "perfect"))

    try await browser.click("#realism-profile-1 option[value='urban-canyon']")
    try await browser.type("#realism-seed-1", "4")
    try await browser.click("#set-realism-1")
    #expect(try await browser.waitForText("#receiver-1", "urban-canyon, seed 4, cold start"))
    let realism = try await server.state(["status"]).realism
    #expect(realism?.profile == "urban-canyon" && realism?.seed == 4)

    try await browser.type("#phone-1 [data-input='lat']", "60.1699")
    try await browser.type("#phone-1 [data-input='lon']", "24.9384")
    try await browser.click("#set-location-1")
    // The page's request is answered before the clock moves on.
    #expect(try await browser.waitForText("#playing-1", where: "text.includes('fixed 60.1699')"))
    _ = try await server.clock(["advance", "30"])
    // The receiver's fix: near the set location, not at it, with an accuracy.
    let moved = try await browser.waitForText(
      "#fix-1", where: "text.startsWith('60.1') && !text.startsWith('60.169900, 24.938400') && text.includes('±')")
    let shown = try await browser.text("#fix-1")
    #expect(moved, "\(shown)")

    try await browser.click("#realism-profile-1 option[value='']")
    try await browser.click("#set-realism-1")
    #expect(try await browser.waitForText("#receiver-1", "perfect"))
    #expect(try await server.state(["status"]).realism == nil)
  }

  /// The map's corners on the page (north, west, south, east).
  /// Where phone 1's map (Leaflet) shows the point `dx`, `dy` pixels from its middle now.
  static func coordinate(_ browser: Browser, dx: Int, dy: Int) async throws -> (lat: Double, lon: Double) {
    let value = try await browser.run(
      "const m = locemuCardMaps['1']; const p = m.containerPointToLatLng(m.getSize().divideBy(2).add([\(dx), \(dy)])); "
        + "return [p.lat, p.lng]")
    let pair = try #require(value.doubles)
    return (pair[0], pair[1])
  }

  /// A click on the map moves the phone there: at the middle of a phone without a location
  /// (the map's default centre), then off to the side of the map now centred on it.
  @Test(.enabled(if: WebPageTests.available)) func aClickOnTheMapMovesThePhone() async throws {
    // Without the bundled maps (whose Helsinki would centre it): the grid around the default place.
    let server = try await Server.start(["--permission", "authorizedWhenInUse", "--no-bundled-basemaps"])
    defer { server.stop() }
    let browser = try await Browser.launch()
    defer { browser.stop() }
    try await browser.open(server.url + "/")
    #expect(try await browser.waitFor("window.locemuCardMaps && locemuCardMaps['1'] !== undefined"))
    // No fix yet: the map around the default place, no phone on it.
    let centre = try await Self.coordinate(browser, dx: 0, dy: 0)
    #expect(abs(centre.lat - 52.2297) < 1e-5 && abs(centre.lon - 21.0122) < 1e-5, "within a pixel: \(centre)")
    #expect(try await browser.run("return document.querySelector('#map-1 path.user') === null").bool == true)

    try await browser.click("#map-1", dx: 0, dy: 0)
    let moved = try await browser.waitForText("#fix-1", where: "text.startsWith('52.2297')")
    let shown = try await browser.text("#fix-1")
    #expect(moved, "\(shown)")
    let first = try #require(try await server.state(["status"]).lastFix)
    #expect(abs((first.lat ?? 0) - 52.2297) < 2e-5 && abs((first.lon ?? 0) - 21.0122) < 2e-5, "\(first)")

    // The map follows the phone; a click 160 px right and 90 px up of its middle.
    #expect(try await browser.waitFor("document.querySelector('#map-1 path.user') !== null"))
    let expected = try await Self.coordinate(browser, dx: 160, dy: -90)
    try await browser.click("#map-1", dx: 160, dy: -90)
    #expect(try await browser.waitFor("document.querySelector('#fix-1').textContent.startsWith('\(String(format: "%.4f", expected.lat))')"))
    let second = try #require(try await server.state(["status"]).lastFix)
    #expect(abs((second.lat ?? 0) - expected.lat) < 3e-5 && abs((second.lon ?? 0) - expected.lon) < 3e-5, "\(second)")
    #expect((second.lon ?? 0) > 21.0122 + 0.001)
  }

  /// A route laid by clicks plays at the chosen speed: the phone walks it on the virtual clock
  /// and the map shows its trail.
  @Test(.enabled(if: WebPageTests.available)) func aRouteDrawnByClicksPlays() async throws {
    let server = try await Server.start(["--permission", "authorizedWhenInUse"])
    defer { server.stop() }
    _ = try await server.state(["location", "set", "60.1699,24.9384"])
    let browser = try await Browser.launch()
    defer { browser.stop() }
    try await browser.open(server.url + "/")
    #expect(try await browser.waitFor("document.querySelector('#map-1 path.user') !== null"))
    let last = try await Self.coordinate(browser, dx: 200, dy: 60)
    try await browser.click("#click-mode-1 option[value='route']")
    for (dx, dy) in [(-200, 60), (0, -60), (200, 60)] { try await browser.click("#map-1", dx: dx, dy: dy) }
    #expect(try await browser.waitForText("#route-info-1", "3 waypoints"))
    #expect(try await browser.run("return document.querySelectorAll('#map-1 path.waypoint').length").int == 3)
    try await browser.type("#route-speed-1", "10")
    try await browser.click("#play-route-1")
    // The click's request is the page's to send: the page shows its answer first.
    #expect(try await browser.waitForText("#playing-1", where: "text.startsWith('route')"))
    let playing = try await server.state(["status"]).playing
    #expect(playing?.kind == .route, "\(String(describing: playing))")
    // Paused and resumed on the page.
    try await browser.click("#pause-1")
    #expect(try await browser.waitForText("#playing-1", where: "text.endsWith(', paused')"))
    #expect(try await server.state(["status"]).playing?.paused == true)
    try await browser.click("#resume-1")
    #expect(try await browser.waitForText("#playing-1", where: "text.startsWith('route') && !text.includes('paused')"))

    // Walked on the virtual clock to its end: the phone at the last waypoint, the trail drawn.
    _ = try await server.clock(["advance", "120"])
    let fix = try #require(try await server.state(["status"]).lastFix)
    #expect(abs((fix.lat ?? 0) - last.lat) < 3e-5 && abs((fix.lon ?? 0) - last.lon) < 3e-5, "\(fix)")
    #expect(try await browser.waitFor("(document.querySelector('#map-1 path.trail')?.getAttribute('d') || '').length > 20"))
    #expect(try await browser.waitFor("document.querySelector('#map-1 path.accuracy') !== null"))
  }
}
