package import Basemap
package import Foundation
import Geo
import MapRendering

/// The server's basemaps as web map tiles (`GET /tiles/{z}/{x}/{y}.svg`): 256-pixel SVG squares
/// in Web Mercator with OpenStreetMap's numbering, so Leaflet, OpenLayers or any tile client
/// shows the same land, sea, streets and names as the phones' maps, at any zoom from the whole
/// world (0) to the street (20). Each tile is drawn once and kept (the most recent
/// ``capacity``); labels near a tile's edge may be cut, as each tile is drawn alone.
package final class MapTiles: Sendable {
  /// The deepest zoom served (about 15 cm a pixel at the equator).
  package static let maximumZoom = 20
  /// Tiles kept in memory (a few KB to a few hundred KB each).
  package let capacity: Int
  private let basemaps: [Basemap]
  // A pthread lock (Geo's Locked), not Synchronization's Mutex: ThreadSanitizer does not see
  // Mutex's futex slow path and reports two of its critical sections as a race under contention
  // (it did, with the world map's tiles drawn on both of the pool's threads).
  private let cache = Locked(Cache())

  private struct Cache {
    var tiles: [Int: Data] = [:]
    /// Keys in the order they were drawn (the oldest is dropped first).
    var order: [Int] = []
    var start = 0
  }

  package init(basemaps: [Basemap], capacity: Int = 4096) {
    self.basemaps = basemaps
    self.capacity = max(1, capacity)
  }

  /// Whether `z`/`x`/`y` names a tile of the world.
  package static func isValid(z: Int, x: Int, y: Int) -> Bool {
    (0...maximumZoom).contains(z) && (0..<(1 << z)).contains(x) && (0..<(1 << z)).contains(y)
  }

  /// The tile's SVG, from the cache or drawn now (blocking: call it off the event loop).
  /// - Precondition: ``isValid(z:x:y:)``.
  package func tile(z: Int, x: Int, y: Int) throws -> Data {
    let key = (z << 50) | (x << 25) | y
    if let kept = cache.withLock({ $0.tiles[key] }) { return kept }
    let data = Data(try Self.draw(z: z, x: x, y: y, basemaps: basemaps).utf8)
    cache.withLock { cache in
      guard cache.tiles.updateValue(data, forKey: key) == nil else { return }
      cache.order.append(key)
      if cache.order.count - cache.start > capacity {
        cache.tiles[cache.order[cache.start]] = nil
        cache.start += 1
        if cache.start > capacity {
          cache.order.removeFirst(cache.start)
          cache.start = 0
        }
      }
    }
    return data
  }

  /// Tiles held now.
  package var count: Int { cache.withLock { $0.tiles.count } }

  /// Tile `z`/`x`/`y` drawn from `basemaps` in order (none: the plain background).
  package static func draw(z: Int, x: Int, y: Int, basemaps: [Basemap], size: Int = 256) throws -> String {
    let projection = SnapshotProjection(tileZ: z, x: x, y: y, size: size)
    var svg = """
      <?xml version="1.0" encoding="UTF-8"?>
      <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="\(size)" height="\(size)" viewBox="0 0 \(size) \(size)">
      <rect width="\(size)" height="\(size)" fill="#EEF1F4"/>

      """
    for basemap in basemaps { svg += try basemap.draw(projection, keepClear: []).svg }
    svg += "</svg>\n"
    return svg
  }
}
