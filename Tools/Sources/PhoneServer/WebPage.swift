import Foundation
import Geo
import LocationModel

/// The page `locemu serve` serves at `/`: every phone's state, a map that follows it (Leaflet
/// over the server's tiles, from the world to the street: the phone, its accuracy circle, the
/// trail of the fixes seen since the page opened; without Debian's libjs-leaflet, the server's
/// SVG street map, `/phones/{id}/map.svg?view=street`, redrawn on each fix; a click sets the
/// location, or lays a route's waypoints that play at a chosen speed), its transcript as readable lines as it happens (the
/// event stream; a click on a line shows its JSON), and buttons and fields for the controls of
/// the API. Plain HTML and JavaScript, no
/// build step, nothing fetched from elsewhere. With a token, open `/?token=TOKEN`: the page
/// passes it on.
///
/// Elements a test can find: `#phone-ID` (a phone's card), `#status-ID`, `#services-ID`,
/// `#accuracy-ID`, `#app-ID`, `#fix-ID`, `#map-ID` (the map: Leaflet's container, its layers' paths
/// of class `user`, `accuracy`, `trail`, `waypoint` and `route`, the map itself in
/// `window.locemuCardMaps[ID]`; without Leaflet, an inline SVG with `data-corners`),
/// `#click-mode-ID` (`set` or `route`), `#route-speed-ID`, `#play-route-ID`, `#clear-route-ID`,
/// `#route-info-ID`, `#pause-ID`, `#resume-ID`, `#playing-ID`, `#seek-ID` (the seek bar: a range of
/// the fixes of what plays, hidden for a source), `#transcript-ID` (lines of class `line`), and buttons `#grant-ID`,
/// `#always-ID`, `#revoke-ID`, `#reset-ID`, `#restrict-ID`, `#services-on-ID`, …, and for a
/// trace `#trace-file-ID` (a file of the browser's machine, uploaded), `#trace-name-ID` (the
/// server's `--traces`), `#trace-speed-ID`, `#trace-loop-ID`, `#play-trace-ID`, and for a
/// realistic receiver `#receiver-ID` (what the state says), `#realism-profile-ID` (off or a
/// built-in profile), `#realism-seed-ID`, `#realism-start-ID`, `#set-realism-ID`.
enum WebPage {
  /// The page, with `defaultCenter` where a phone without a fix is shown, and `streetTiles`
  /// under its maps when given.
  static func html(defaultCenter: Coordinate, streetTiles: StreetTiles? = nil) -> String {
    page(
      html: PackageResources.controls_html, style: PackageResources.controls_css, script: PackageResources.controls_js,
      defaultCenter: defaultCenter, streetTiles: streetTiles)
  }

  /// A page of `Page/` (this one's or ``WorldMapPage``'s, embedded in the binary at build time):
  /// its HTML with its style sheet in place of `__STYLE__`, its script in place of
  /// `__SCRIPT__`, the script both pages start with (`Page/shared.js`) in place of
  /// `__SHARED_SCRIPT__`, `defaultCenter` in place of `__DEFAULT_CENTER__`, and `streetTiles` as
  /// JSON (or `null`) in place of `__STREET_TILES__`. The files are plain HTML, CSS and
  /// JavaScript (`node --check` reads the scripts in the test command).
  static func page(
    html: [UInt8], style: [UInt8], script: [UInt8], defaultCenter: Coordinate, streetTiles: StreetTiles? = nil
  )
    -> String
  {
    func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
    let script = text(script).replacingOccurrences(of: "__SHARED_SCRIPT__\n", with: text(PackageResources.shared_js))
    return text(html).replacingOccurrences(of: "__STYLE__\n", with: text(style))
      .replacingOccurrences(of: "__SCRIPT__\n", with: script)
      .replacingOccurrences(of: "__DEFAULT_CENTER__", with: "[\(defaultCenter.latitude), \(defaultCenter.longitude)]")
      .replacingOccurrences(of: "__STREET_TILES__", with: streetTiles?.json ?? "null")
  }
}

/// A web map tile server (OpenStreetMap's `{z}/{x}/{y}` numbering) whose tiles the pages show,
/// with the attribution its terms ask for.
package struct StreetTiles: Sendable, Hashable, Codable {
  /// The tiles' URL, with `{z}`, `{x}` and `{y}` (and optionally `{s}`, Leaflet's subdomains).
  package var url: String
  /// What the map's corner credits (plain text).
  package var attribution: String

  package init(url: String, attribution: String) {
    self.url = url
    self.attribution = attribution
  }

  /// Why `url` is not a tile URL template, or nil when it is one.
  package static func problem(url: String) -> String? {
    guard let parsed = URL(string: url.replacingOccurrences(of: "{", with: "%7B").replacingOccurrences(of: "}", with: "%7D")),
      ["http", "https"].contains(parsed.scheme?.lowercased() ?? ""), parsed.host != nil
    else { return "'\(url)' is not an http(s) URL" }
    let missing = ["{z}", "{x}", "{y}"].filter { !url.contains($0) }
    return missing.isEmpty ? nil : "'\(url)' has no \(missing.joined(separator: ", ")) (e.g. https://tile.example.org/{z}/{x}/{y}.png)"
  }

  /// The settings as the pages' script reads them: JSON whose text cannot end the script
  /// element it sits in (`JSONEncoder` writes `/` as `\/`, so `</script>` cannot appear), the attribution
  /// HTML-escaped, since Leaflet shows it as HTML.
  var json: String {
    let escaped = attribution.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;")
    let data = (try? JSONEncoder().encode(StreetTiles(url: url, attribution: escaped))) ?? Data("null".utf8)
    return String(decoding: data, as: UTF8.self)
  }
}
