import EmulatorTesting
import Foundation
import ToolsTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

extension WebPageTests {
  /// chromedriver on a free loopback port and one browser session, ended (session deleted,
  /// driver killed by its PID) whatever happens.
  ///
  /// Its hang guards, each above the one it waits on: an in-page wait (``waitFor(_:within:)``)
  /// gives up after 600 s; WebDriver's script timeout is 660 s, and its page load and element
  /// lookup 600 s; a WebDriver command's answer is awaited 720 s.
  final class Browser: @unchecked Sendable {
    let driver: Process
    let port: Int
    var session = ""

    /// The in-page wait's bound, seconds: a hang guard.
    static let pageWait = 600
    /// WebDriver's timeouts, milliseconds: the script's above the in-page wait.
    static let timeouts: JSON = ["implicit": 600_000, "script": 660_000, "pageLoad": 600_000]
    /// How long a WebDriver command's answer is awaited, seconds: above every WebDriver timeout.
    static let receiveTimeout = 720

    /// Starts chromedriver (waiting for its listener, on a thread of its own).
    static func launch() async throws -> Browser {
      try await offPool { try Browser() }
    }

    private init() throws {
      (driver, port) = try startListeningChild(limit: .seconds(600)) { port in
        let driver = Process()
        driver.executableURL = URL(fileURLWithPath: WebPageTests.chromedriver)
        driver.arguments = ["--port=\(port)"]
        driver.standardOutput = FileHandle.nullDevice
        driver.standardError = FileHandle.nullDevice
        return driver
      }
    }

    /// One WebDriver command; its `value`. (Over a plain socket: chromedriver writes header
    /// lines without a space after the colon, which Foundation's URLSession refuses here.)
    @discardableResult
    func command(_ method: String, _ path: String, _ body: JSON? = nil) async throws -> JSON {
      let data = try body.map { try JSONEncoder().encode($0) }
      let port = self.port
      let (status, answer) = try await offPool {
        try LoopbackHTTPConnection(port: port, receiveTimeout: Browser.receiveTimeout).request(method, path, body: data)
      }
      guard status == 200 else {
        throw LoopbackError(description: "WebDriver \(method) \(path): \(String(decoding: answer, as: UTF8.self).prefix(400))")
      }
      return try JSONDecoder().decode(Answer.self, from: answer).value ?? .null
    }

    func start() async throws {
      let value = try await command(
        "POST", "/session",
        [
          "capabilities": [
            "alwaysMatch": [
              "browserName": "chrome",
              "goog:chromeOptions": [
                "binary": .string(WebPageTests.chromium!),
                "args": [
                  "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1400,1000",
                  "--disable-crash-reporter", "--disable-breakpad",
                ],
              ],
              // The script timeout is above the longest in-page wait (``waitFor(_:within:)``).
              "timeouts": Browser.timeouts,
            ]
          ]
        ])
      session = try #require(value["sessionId"]?.string)
    }

    func element(_ css: String) async throws -> String {
      let value = try await command("POST", "/session/\(session)/element", ["using": "css selector", "value": .string(css)])
      return try #require(value.object?.first { $0.key.hasPrefix("element-") }?.value.string)
    }

    func text(_ css: String) async throws -> String {
      try #require(try await command("GET", "/session/\(session)/element/\(try await element(css))/text").string)
    }

    func click(_ css: String) async throws {
      try await command("POST", "/session/\(session)/element/\(try await element(css))/click", [:])
    }

    /// Starts the session and opens `url`.
    func open(_ url: String) async throws {
      try await start()
      try await command("POST", "/session/\(session)/url", ["url": .string(url)])
    }

    /// Waits in the page (no polling from here) until `css`'s text is `text`; false after
    /// ``pageWait`` seconds (a hang guard).
    func waitForText(_ css: String, _ text: String) async throws -> Bool {
      try await waitForText(css, where: "text === \(Self.literal(text))")
    }

    /// Runs `script` in the page; its result.
    func run(_ script: String) async throws -> JSON {
      try await command("POST", "/session/\(session)/execute/sync", ["script": .string(script), "args": []])
    }

    /// Waits in the page (no polling from here) until the JavaScript expression `condition`
    /// holds, checked on every change of the page; false after `seconds` (a hang guard; at most
    /// ``pageWait``, below the script timeout).
    func waitFor(_ condition: String, within seconds: Int = Browser.pageWait) async throws -> Bool {
      let script = """
        const done = arguments[0];
        const ok = () => { try { return Boolean(\(condition)); } catch (e) { return false; } };
        if (ok()) { done(true); return; }
        const observer = new MutationObserver(() => { if (ok()) { observer.disconnect(); done(true); } });
        observer.observe(document.body, {subtree: true, childList: true, characterData: true, attributes: true});
        setTimeout(() => { observer.disconnect(); done(ok()); }, \(min(seconds, Browser.pageWait) * 1000));
        """
      return try await command("POST", "/session/\(session)/execute/async", ["script": .string(script), "args": []]).bool == true
    }

    /// A real mouse click `dx`, `dy` pixels from the middle of `css` (WebDriver's actions).
    func click(_ css: String, dx: Int, dy: Int) async throws {
      let id = try await element(css)
      let origin: JSON = ["element-6066-11e4-a52e-4f735466cecf": .string(id)]
      try await command(
        "POST", "/session/\(session)/actions",
        [
          "actions": [
            [
              "type": "pointer", "id": "mouse", "parameters": ["pointerType": "mouse"],
              "actions": [
                ["type": "pointerMove", "duration": 0, "origin": origin, "x": .int(dx), "y": .int(dy)],
                ["type": "pointerDown", "button": 0],
                ["type": "pointerUp", "button": 0],
              ],
            ]
          ]
        ])
      try await command("DELETE", "/session/\(session)/actions")
    }

    /// Types `text` into the field `css`.
    func type(_ css: String, _ text: String) async throws {
      try await command("POST", "/session/\(session)/element/\(try await element(css))/value", ["text": .string(text)])
    }

    /// Waits in the page (no polling from here) until the JavaScript `condition` on `text`
    /// (`css`'s text) holds; false after ``pageWait`` seconds (a hang guard).
    func waitForText(_ css: String, where condition: String) async throws -> Bool {
      try await waitFor(
        "(() => { const e = document.querySelector(\(Self.literal(css))); if (!e) return false; const text = e.textContent; "
          + "return \(condition); })()")
    }

    /// `text` as a JavaScript string literal.
    static func literal(_ text: String) -> String {
      String(decoding: try! JSONEncoder().encode([text]), as: UTF8.self).dropFirst().dropLast().description
    }

    /// Ends the session and the driver on a thread of its own, and returns at once: a `defer`
    /// in an async test cannot wait, and must not block a thread of the cooperative pool on
    /// the session's deletion (chromedriver quits the browser before it answers).
    func stop() {
      let (session, port, driver) = (self.session, self.port, self.driver)
      self.session = ""
      Thread.detachNewThread {
        if !session.isEmpty {
          // chromedriver closes the browser it started (and removes its profile).
          _ = try? LoopbackHTTPConnection(port: port, receiveTimeout: Browser.receiveTimeout).request("DELETE", "/session/\(session)")
        }
        // A browser left behind (the session never started) is in chromedriver's process
        // group, killed with it.
        kill(-driver.processIdentifier, SIGKILL)
        if driver.isRunning { kill(driver.processIdentifier, SIGKILL) }
      }
    }
  }
}
