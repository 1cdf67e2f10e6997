public import Foundation
import GRDB

/// Raster tiles from an MBTiles file (SQLite, the common offline tile container), read through
/// GRDB: `tiles(zoom_level, tile_column, tile_row, tile_data)` with rows counted from the south
/// (TMS), as the MBTiles specification says.
public final class MBTiles: Sendable {
  public let path: String
  private let queue: DatabaseQueue

  /// - Throws: ``BasemapError`` when the file is missing or has no `tiles` table.
  public init(path: String) throws {
    self.path = path
    queue = try Basemap.openReadOnly(path)
    do {
      _ = try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM tiles LIMIT 1") }
    } catch {
      throw BasemapError(message: "\(path): not an MBTiles file (no tiles table)")
    }
  }

  /// The tile at zoom `z`, column `x` and row `y` counted from the north (the slippy-map
  /// layout the renderer uses); nil when the file has none there.
  public func tile(z: Int, x: Int, y: Int) -> Data? {
    let row = (1 << z) - 1 - y
    return try? queue.read { db in
      try Data.fetchOne(
        db, sql: "SELECT tile_data FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?", arguments: [z, x, row])
    }
  }
}
