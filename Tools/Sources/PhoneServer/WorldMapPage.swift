import Foundation
import Geo
import LocationModel

/// The page `locemu serve` serves at `/map`: every phone on a real web map (Leaflet, from
/// Debian's `libjs-leaflet`, served by the server itself at `/leaflet/…`; no request leaves the
/// machine) over the server's own tiles (`/tiles/{z}/{x}/{y}.svg`): pan and zoom from the
/// whole world to the street with the mouse, the wheel and the keys (arrows, + and -); each
/// phone's position, accuracy circle and the trail of the fixes seen since the page opened,
/// kept current through the phone's event stream; a click sets the chosen phone's location.
/// With a token, open `/map?token=TOKEN`: the page passes it on.
///
/// A search box finds a coordinate typed in any common form or a name on the server's maps
/// (`GET /places`) and moves the map there; saved points (named, kept in the browser's
/// `localStorage` across reloads) move the map and the chosen phone when clicked.
///
/// Elements a test can find: `#map` (Leaflet's container), `#phone-select` (the phone a click
/// moves), `#follow` (keep the chosen phone in view), `#fix` (its last fix as text), `#search`
/// and `#results` (`li.result`), `#save-point`, `#show-saved` and `#saved` (`li.saved-point`); and
/// `window.locemuMap` (the Leaflet map) with `window.locemuPhones` (per phone id: `marker`,
/// `accuracy`, `trail`).
enum WorldMapPage {
  /// Where Debian's libjs-leaflet puts Leaflet.
  static let leafletDirectory = "/usr/share/javascript/leaflet"

  /// The files of Leaflet the page needs, by the name it asks for, with their types.
  static let leafletFiles: [String: String] = [
    "leaflet.js": "text/javascript; charset=utf-8", "leaflet.css": "text/css; charset=utf-8",
    "images/layers.png": "image/png", "images/layers-2x.png": "image/png", "images/marker-icon.png": "image/png",
    "images/marker-icon-2x.png": "image/png", "images/marker-shadow.png": "image/png",
  ]

  /// One of Leaflet's files from `directory`, or nil when it is not one of ``leafletFiles`` or
  /// not installed.
  static func leafletFile(_ name: String, directory: String = leafletDirectory) -> (data: Data, type: String)? {
    guard let type = leafletFiles[name], let data = FileManager.default.contents(atPath: directory + "/" + name) else { return nil }
    return (data, type)
  }

  /// The page, opening at `defaultCenter` at city zoom (the world's tiles only when zoomed out:
  /// they are the costliest to draw).
  static func html(defaultCenter: Coordinate, streetTiles: StreetTiles? = nil) -> String {
    WebPage.page(
      html: PackageResources.map_html, style: PackageResources.map_css, script: PackageResources.map_js, defaultCenter: defaultCenter,
      streetTiles: streetTiles)
  }
}
