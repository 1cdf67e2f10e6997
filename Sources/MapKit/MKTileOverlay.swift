public import CoreLocation
public import Foundation

/// A tile's place in a tile overlay's pyramid, with MapKit's fields.
public struct MKTileOverlayPath: Sendable {
  /// The tile's column, counted from the west (the antimeridian).
  public var x: Int
  /// The tile's row, counted from the north.
  public var y: Int
  /// The zoom level: the world is 2^z tiles across.
  public var z: Int
  /// The screen's scale (1, 2 or 3), which fills `{scale}` in a URL template.
  public var contentScaleFactor: CGFloat

  /// The tile that shows the whole world (x, y, z 0) at scale 1.
  public init() { self.init(x: 0, y: 0, z: 0, contentScaleFactor: 1) }
  /// A tile's path from its column, row, zoom level and scale.
  /// - Parameters:
  ///   - x: The column, from the west.
  ///   - y: The row, from the north.
  ///   - z: The zoom level.
  ///   - contentScaleFactor: The screen's scale.
  public init(x: Int, y: Int, z: Int, contentScaleFactor: CGFloat) {
    (self.x, self.y, self.z, self.contentScaleFactor) = (x, y, z, contentScaleFactor)
  }
}

/// Map tiles from a URL template (`https://tile.example/{z}/{x}/{y}.png`, with `{scale}`), as
/// MapKit's tile overlay: the URL of each tile, and its data. Covers the world;
/// `isGeometryFlipped` for tile servers that count rows from the south (TMS).
///
/// Tiles load with `Data(contentsOf:)` on a thread of their own: `file:` URLs always, and
/// `http(s):` ones in a program that links FoundationNetworking (MapKit does not, so that a
/// program using it does not load libcurl and its libraries).
open class MKTileOverlay: NSObject, MKOverlay, @unchecked Sendable {
  /// The template of the tiles' URLs, with `{x}`, `{y}`, `{z}` and `{scale}`; nil for an overlay that supplies URLs itself.
  public let urlTemplate: String?
  /// The size of a tile, 256 by 256 by default. Kept for source compatibility: tiles are not drawn here.
  open var tileSize = CGSize(width: 256, height: 256)
  /// Whether rows count from the south (TMS servers) rather than the north; false by default.
  open var isGeometryFlipped = false
  /// The lowest zoom level with tiles, 0 by default. Kept for source compatibility: tiles are not drawn here.
  open var minimumZ = 0
  /// The highest zoom level with tiles, 21 by default. Kept for source compatibility: tiles are not drawn here.
  open var maximumZ = 21
  /// Whether the tiles hide the map beneath them; false by default. Kept for source compatibility: tiles are not drawn here.
  open var canReplaceMapContent = false
  /// The centre of the world map, as the overlay covers the world.
  open var coordinate: CLLocationCoordinate2D { MKMapPoint(x: MKMapRect.world.midX, y: MKMapRect.world.midY).coordinate }
  /// The whole world.
  open var boundingMapRect: MKMapRect { MKMapRect.world }

  /// An overlay of the tiles a URL template names.
  /// - Parameter URLTemplate: The template, such as `https://tile.example/{z}/{x}/{y}.png`, or nil.
  public init(urlTemplate URLTemplate: String?) {
    urlTemplate = URLTemplate
    super.init()
  }

  /// The tile's URL: the template with `{x}`, `{y}`, `{z}` and `{scale}` filled in.
  open func url(forTilePath path: MKTileOverlayPath) -> URL {
    let y = isGeometryFlipped ? (1 << path.z) - 1 - path.y : path.y
    let text = (urlTemplate ?? "")
      .replacingOccurrences(of: "{x}", with: String(path.x)).replacingOccurrences(of: "{y}", with: String(y))
      .replacingOccurrences(of: "{z}", with: String(path.z))
      .replacingOccurrences(of: "{scale}", with: String(Int(path.contentScaleFactor)))
    return URL(string: text) ?? URL(fileURLWithPath: text)
  }

  /// Loads the tile's data and hands it to `result` (data, or the error).
  @preconcurrency
  open func loadTile(at path: MKTileOverlayPath, result: @escaping @Sendable (Data?, (any Error)?) -> Void) {
    let url = url(forTilePath: path)
    Thread {
      do { result(try Data(contentsOf: url), nil) } catch { result(nil, error) }
    }.start()
  }

  /// Loads a tile's data.
  /// - Parameter path: The tile.
  /// - Returns: The tile's data.
  /// - Throws: The error of the load, such as a missing file.
  open func loadTile(at path: MKTileOverlayPath) async throws -> Data {
    try await withCheckedThrowingContinuation { continuation in
      loadTile(at: path) { data, error in
        if let data { continuation.resume(returning: data) } else { continuation.resume(throwing: error ?? URLError(.badServerResponse)) }
      }
    }
  }
}

/// Renders an ``MKTileOverlay`` (nothing is drawn; ``reloadData()`` is counted as a redraw).
open class MKTileOverlayRenderer: MKOverlayRenderer, @unchecked Sendable {
  /// A renderer for a tile overlay.
  /// - Parameter overlay: The tile overlay to render.
  public init(tileOverlay overlay: MKTileOverlay) { super.init(overlay: overlay) }

  /// Forgets the tiles loaded, so that they are loaded again.
  open func reloadData() { setNeedsDisplay() }
}
