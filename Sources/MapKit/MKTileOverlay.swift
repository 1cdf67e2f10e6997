public import CoreLocation
public import Foundation

/// A tile's place in a tile overlay's pyramid, with MapKit's fields.
public struct MKTileOverlayPath: Sendable {
  public var x: Int
  public var y: Int
  public var z: Int
  public var contentScaleFactor: CGFloat

  public init() { self.init(x: 0, y: 0, z: 0, contentScaleFactor: 1) }
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
  public let urlTemplate: String?
  open var tileSize = CGSize(width: 256, height: 256)
  open var isGeometryFlipped = false
  open var minimumZ = 0
  open var maximumZ = 21
  open var canReplaceMapContent = false
  open var coordinate: CLLocationCoordinate2D { MKMapPoint(x: MKMapRect.world.midX, y: MKMapRect.world.midY).coordinate }
  open var boundingMapRect: MKMapRect { MKMapRect.world }

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
  open func loadTile(at path: MKTileOverlayPath, result: @escaping @Sendable (Data?, (any Error)?) -> Void) {
    let url = url(forTilePath: path)
    Thread {
      do { result(try Data(contentsOf: url), nil) } catch { result(nil, error) }
    }.start()
  }

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
  public init(tileOverlay overlay: MKTileOverlay) { super.init(overlay: overlay) }

  /// Forgets the tiles loaded, so that they are loaded again.
  open func reloadData() { setNeedsDisplay() }
}
