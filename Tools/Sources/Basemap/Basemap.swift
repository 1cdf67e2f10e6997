import Foundation
import GRDB
import Geo
import LocationModel

/// A basemap file made by ``BasemapBuilder`` (`locemu basemap build`), open for reading the
/// features of any region through its R*Tree index. Safe to share: reads are serialized.
public final class Basemap: Sendable {
  /// The `format` the builder writes in its `meta` table.
  static let format = "locemu-basemap-1"
  /// The file format's name (a cache of built files keys on it).
  public static var formatName: String { format }

  public let path: String
  /// The extract's extent: south, north, west, east (degrees).
  public let bounds: (south: Double, north: Double, west: Double, east: Double)
  /// What the map must credit.
  public let attribution: String
  public let featureCount: Int
  /// What a shoreline file was made from (``ShorelineBuilder``: land, lakes, islands and ponds
  /// over the sea, for the whole world); nil for a city's streets.
  public let shoreline: String?
  /// Whether a shoreline file holds a region's cells only (`--region`), so its sea is drawn
  /// within its bounds and the world's shoreline beneath shows around them.
  public var isRegionalShoreline: Bool { shoreline?.contains(", region ") ?? false }
  /// Whether the extract has a coastline (so its sea is drawn from it); nil for a file built
  /// before this was recorded.
  public let hasCoastline: Bool?
  let queue: DatabaseQueue

  /// - Throws: ``BasemapError`` when the file is missing or is not a basemap.
  public init(path: String) throws {
    self.path = path
    queue = try Self.openReadOnly(path)
    do {
      let meta = try queue.read { db in
        try Dictionary(
          uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT key, value FROM meta").map { ($0["key"] as String, $0["value"] as String) })
      }
      guard meta["format"] == Self.format else { throw BasemapError(message: "\(path): not a basemap of this version") }
      let b = (meta["bounds"] ?? "").split(separator: ",").compactMap { Double($0) }
      guard b.count == 4 else { throw BasemapError(message: "\(path): no bounds") }
      bounds = (b[0], b[1], b[2], b[3])
      attribution = meta["attribution"] ?? "© OpenStreetMap contributors"
      featureCount = Int(meta["features"] ?? "") ?? 0
      shoreline = meta["shoreline"]
      hasCoastline = meta["coast"].map { $0 == "yes" }
    } catch let error as BasemapError {
      throw error
    } catch {
      throw BasemapError(message: "\(path): not a basemap file (make one with 'locemu basemap build EXTRACT.osm.pbf \(path)')")
    }
  }

  /// Whether the extract reaches into the box at all.
  public func covers(south: Double, north: Double, west: Double, east: Double) -> Bool {
    south <= bounds.north && north >= bounds.south && west <= bounds.east && east >= bounds.west
  }

  /// The features whose bounding boxes meet the box, in drawing order (by kind, then as built).
  /// - Parameter kinds: only these (nil: all).
  public func features(
    south: Double, north: Double, west: Double, east: Double, kinds: Set<BasemapKind>? = nil
  ) throws
    -> [BasemapFeature]
  {
    do {
      return try queue.read { db in
        let rows = try Row.fetchCursor(
          db,
          sql: """
            SELECT f.kind, f.name, f.geometry FROM feature_box b JOIN feature f ON f.id = b.id
            WHERE b.maxLat >= ? AND b.minLat <= ? AND b.maxLon >= ? AND b.minLon <= ? ORDER BY f.kind, f.id
            """,
          arguments: [south, north, west, east])
        var out: [BasemapFeature] = []
        while let row = try rows.next() {
          guard let kind = BasemapKind(rawValue: row["kind"]) else { continue }
          if let kinds, !kinds.contains(kind) { continue }
          let blob: Data = row["geometry"]
          guard let rings = GeometryCoding.decode(blob) else { continue }
          out.append(BasemapFeature(kind: kind, name: row["name"], rings: rings))
        }
        return out
      }
    } catch {
      throw BasemapError(message: "\(path): cannot be read: \(error)")
    }
  }
}

extension Basemap {
  /// An existing SQLite file (a basemap, an MBTiles file) opened for reading only.
  /// - Throws: ``BasemapError`` when it is not there or SQLite cannot open it.
  static func openReadOnly(_ path: String) throws -> DatabaseQueue {
    guard FileManager.default.isReadableFile(atPath: path) else { throw BasemapError(message: "\(path): no such file") }
    var configuration = Configuration()
    configuration.readonly = true
    do {
      return try DatabaseQueue(path: path, configuration: configuration)
    } catch {
      throw BasemapError(message: "\(path): cannot be opened: \(error)")
    }
  }
}
