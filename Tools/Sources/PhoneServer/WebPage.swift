import Foundation
import Geo
import LocationServices

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
  /// The page, with `defaultCenter` where a phone without a fix is shown.
  static func html(defaultCenter: Coordinate) -> String {
    page(
      html: PackageResources.controls_html, style: PackageResources.controls_css, script: PackageResources.controls_js,
      defaultCenter: defaultCenter)
  }

  /// A page of `Page/` (this one's or ``WorldMapPage``'s, embedded in the binary at build time):
  /// its HTML with its style sheet in place of `__STYLE__`, its script in place of
  /// `__SCRIPT__`, the script both pages start with (`Page/shared.js`) in place of
  /// `__SHARED_SCRIPT__`, and `defaultCenter` in place of `__DEFAULT_CENTER__`. The files are
  /// plain HTML, CSS and JavaScript (`node --check` reads the scripts in the test command).
  static func page(html: [UInt8], style: [UInt8], script: [UInt8], defaultCenter: Coordinate) -> String {
    func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
    let script = text(script).replacingOccurrences(of: "__SHARED_SCRIPT__\n", with: text(PackageResources.shared_js))
    return text(html).replacingOccurrences(of: "__STYLE__\n", with: text(style))
      .replacingOccurrences(of: "__SCRIPT__\n", with: script)
      .replacingOccurrences(of: "__DEFAULT_CENTER__", with: "[\(defaultCenter.latitude), \(defaultCenter.longitude)]")
  }
}
