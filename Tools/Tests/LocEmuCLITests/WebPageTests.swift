import Foundation
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

  /// chromedriver on a free loopback port and one browser session, ended (session deleted,
  /// driver killed by its PID) whatever happens.
  final class Browser: @unchecked Sendable {
    let driver: Process
    let port: Int
    var session = ""

    init() throws {
      port = try freeLoopbackPort()
      driver = Process()
      driver.executableURL = URL(fileURLWithPath: WebPageTests.chromedriver)
      driver.arguments = ["--port=\(port)"]
      driver.standardOutput = FileHandle.nullDevice
      driver.standardError = FileHandle.nullDevice
      try driver.run()

      guard waitForListener(driver, port: port, limit: .seconds(20)) else {
        stop()
        throw LoopbackError(description: "chromedriver did not start within 20 s")
      }
    }

    /// One WebDriver command; its `value`. (Over a plain socket: chromedriver writes header
    /// lines without a space after the colon, which Foundation's URLSession refuses here.)
    @discardableResult
    func command(_ method: String, _ path: String, _ body: [String: Any]? = nil) async throws -> Any? {
      let data = try body.map { try JSONSerialization.data(withJSONObject: $0) }
      let port = self.port
      let (status, answer) = try await offPool { try LoopbackHTTPConnection(port: port).request(method, path, body: data) }
      guard status == 200 else {
        throw LoopbackError(description: "WebDriver \(method) \(path): \(String(decoding: answer, as: UTF8.self).prefix(400))")
      }
      return (try JSONSerialization.jsonObject(with: answer) as? [String: Any])?["value"]
    }

    func start() async throws {
      let value = try await command(
        "POST", "/session",
        [
          "capabilities": [
            "alwaysMatch": [
              "browserName": "chrome",
              "goog:chromeOptions": [
                "binary": WebPageTests.chromium!,
                "args": [
                  "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1400,1000",
                  "--disable-crash-reporter", "--disable-breakpad",
                ],
              ],
              "timeouts": ["implicit": 10_000, "script": 20_000, "pageLoad": 30_000],
            ]
          ]
        ])
      session = try #require((value as? [String: Any])?["sessionId"] as? String)
    }

    func element(_ css: String) async throws -> String {
      let value = try await command("POST", "/session/\(session)/element", ["using": "css selector", "value": css])
      return try #require((value as? [String: Any])?.first { $0.key.hasPrefix("element-") }?.value as? String)
    }

    func text(_ css: String) async throws -> String {
      try #require(try await command("GET", "/session/\(session)/element/\(try await element(css))/text") as? String)
    }

    func click(_ css: String) async throws {
      try await command("POST", "/session/\(session)/element/\(try await element(css))/click", [:])
    }

    /// Waits in the page (no polling from here) until `css`'s text is `text`; false after 15 s.
    func waitForText(_ css: String, _ text: String) async throws -> Bool {
      let script = """
        const [css, text, done] = arguments;
        const ok = () => { const e = document.querySelector(css); return e && e.textContent === text; };
        if (ok()) { done(true); return; }
        const observer = new MutationObserver(() => { if (ok()) { observer.disconnect(); done(true); } });
        observer.observe(document.body, {subtree: true, childList: true, characterData: true});
        setTimeout(() => { observer.disconnect(); done(ok()); }, 15000);
        """
      return try await command("POST", "/session/\(session)/execute/async", ["script": script, "args": [css, text]]) as? Bool == true
    }

    /// Types `text` into the field `css`.
    func type(_ css: String, _ text: String) async throws {
      try await command("POST", "/session/\(session)/element/\(try await element(css))/value", ["text": text])
    }

    /// Waits in the page (no polling from here) until the JavaScript `condition` on `text`
    /// (`css`'s text) holds; false after 15 s.
    func waitForText(_ css: String, where condition: String) async throws -> Bool {
      let script = """
        const [css, done] = [arguments[0], arguments[1]];
        const ok = () => { const e = document.querySelector(css); if (!e) return false; const text = e.textContent; return \(condition); };
        if (ok()) { done(true); return; }
        const observer = new MutationObserver(() => { if (ok()) { observer.disconnect(); done(true); } });
        observer.observe(document.body, {subtree: true, childList: true, characterData: true});
        setTimeout(() => { observer.disconnect(); done(ok()); }, 15000);
        """
      return try await command("POST", "/session/\(session)/execute/async", ["script": script, "args": [css]]) as? Bool == true
    }

    func stop() {
      if !session.isEmpty {
        // chromedriver closes the browser it started.
        _ = try? LoopbackHTTPConnection(port: port).request("DELETE", "/session/\(session)")
        session = ""
      }
      if driver.isRunning { kill(driver.processIdentifier, SIGKILL) }
      driver.waitUntilExit()
      // A browser left behind (the session never started) is in chromedriver's process group.
      kill(-driver.processIdentifier, SIGKILL)
    }
  }

  @Test(.enabled(if: WebPageTests.available)) func revokeOnThePageChangesTheState() async throws {
    let server = try await Server.start(["--permission", "authorizedWhenInUse"])
    defer { server.stop() }
    _ = try await server.object(["location", "set", "52.2297,21.0122"])
    let browser = try Browser()
    defer { browser.stop() }
    try await browser.start()
    try await browser.command("POST", "/session/\(browser.session)/url", ["url": server.url + "/"])
    #expect(try await browser.waitForText("#status-1", "authorizedWhenInUse"))
    #expect(try await browser.text("#fix-1").hasPrefix("52.229700, 21.012200"))
    // The map is the preview's renderer: the image loaded (an SVG of 640×360).
    let loaded = try await browser.command(
      "POST", "/session/\(browser.session)/execute/sync",
      ["script": "const i = document.querySelector('#map-1'); return i.complete && i.naturalWidth === 640;", "args": []])
    #expect(loaded as? Bool == true)

    try await browser.click("#revoke-1")
    #expect(try await browser.waitForText("#status-1", "denied"))
    #expect(try await server.object(["status"])["status"] as? String == "denied")
    // The transcript on the page has the change.
    #expect(try await browser.text("#transcript-1").contains("\"event\":\"permission=denied\""))

    // A change made elsewhere (ctl) reaches the page through its event stream.
    _ = try await server.object(["services", "off"])
    #expect(try await browser.waitForText("#services-1", "off"))
  }

  /// A receiver chosen on the page goes under the location set there: the state says so (on the
  /// page and through the API), and the fixes are the receiver's (near the location, not at
  /// it, with its accuracy); turned off, the phone is perfect again.
  @Test(.enabled(if: WebPageTests.available)) func aReceiverChosenOnThePageGoesUnderTheLocation() async throws {
    let server = try await Server.start(["--permission", "authorizedWhenInUse"])
    defer { server.stop() }
    let browser = try Browser()
    defer { browser.stop() }
    try await browser.start()
    try await browser.command("POST", "/session/\(browser.session)/url", ["url": server.url + "/"])
    #expect(try await browser.waitForText("#receiver-1", "perfect"))

    try await browser.click("#realism-profile-1 option[value='urban-canyon']")
    try await browser.type("#realism-seed-1", "4")
    try await browser.click("#set-realism-1")
    #expect(try await browser.waitForText("#receiver-1", "urban-canyon, seed 4, cold start"))
    let realism = try await server.object(["status"])["realism"] as? [String: Any]
    #expect(realism?["profile"] as? String == "urban-canyon" && realism?["seed"] as? Int == 4)

    try await browser.type("#phone-1 [data-input='lat']", "60.1699")
    try await browser.type("#phone-1 [data-input='lon']", "24.9384")
    try await browser.click("#set-location-1")
    _ = try await server.object(["clock", "advance", "30"])
    // The receiver's fix: near the set location, not at it, with an accuracy.
    let moved = try await browser.waitForText(
      "#fix-1", where: "text.startsWith('60.1') && !text.startsWith('60.169900, 24.938400') && text.includes('±')")
    let shown = try await browser.text("#fix-1")
    #expect(moved, "\(shown)")

    try await browser.click("#realism-profile-1 option[value='']")
    try await browser.click("#set-realism-1")
    #expect(try await browser.waitForText("#receiver-1", "perfect"))
    #expect(try await server.object(["status"])["realism"] == nil)
  }
}
