import Foundation
import GRDB
import Geo
public import LocationModel

/// A named place of a basemap that a search found.
public struct BasemapPlace: Sendable, Hashable {
  public var name: String
  public var kind: BasemapKind
  /// The place's point, a station's, or the middle of a street's or a park's box.
  public var coordinate: Coordinate

  public init(name: String, kind: BasemapKind, coordinate: Coordinate) {
    self.name = name
    self.kind = kind
    self.coordinate = coordinate
  }

  /// How a person calls the kind: "place", "station", "street", "water", "park", …
  public var kindName: String {
    switch kind {
    case .place: "place"
    case .station: "station"
    case .water, .lake, .pond, .river, .stream: "water"
    case .park, .forest: "park"
    case .building: "building"
    case .railway: "railway"
    default: kind.isRoad ? "street" : "area"
    }
  }
}

extension Basemap {
  /// The named features whose name contains `text` (case and accents ignored), best first:
  /// a name that is the text, then one that starts with it, then one that has it; places
  /// before stations, water and parks, then streets. A street of many ways is found once.
  /// - Parameter limit: at most this many (1 to 100).
  /// - Throws: ``BasemapError`` when the file cannot be read.
  public func search(_ text: String, limit: Int = 20) throws -> [BasemapPlace] {
    let needle = Self.folded(text.trimmingCharacters(in: .whitespacesAndNewlines))
    guard !needle.isEmpty else { return [] }
    let limit = max(1, min(100, limit))
    do {
      return try queue.read { db in
        // Every named feature, folded here: SQLite's LIKE would fold ASCII case only.
        let rows = try Row.fetchCursor(
          db,
          sql: """
            SELECT f.kind, f.name, b.minLat, b.maxLat, b.minLon, b.maxLon FROM feature f JOIN feature_box b ON b.id = f.id
            WHERE f.name IS NOT NULL ORDER BY f.id
            """)
        var found: [String: (rank: Int, place: BasemapPlace)] = [:]
        while let row = try rows.next() {
          guard let kind = BasemapKind(rawValue: row["kind"]), !kind.isShoreline, let name: String = row["name"] else { continue }
          let folded = Self.folded(name)
          guard let match = folded.range(of: needle) else { continue }
          let how = folded == needle ? 0 : match.lowerBound == folded.startIndex ? 1 : 2
          let order =
            switch kind {
            case .place: 0
            case .station: 1
            case .water, .lake, .pond, .river, .park, .forest: 2
            default: kind.isRoad ? 3 : 4
            }
          let rank = how * 10 + order
          let key = "\(folded)|\(order)"
          if let kept = found[key], kept.rank <= rank { continue }
          let lat = ((row["minLat"] as Double) + (row["maxLat"] as Double)) / 2
          let lon = ((row["minLon"] as Double) + (row["maxLon"] as Double)) / 2
          guard let coordinate = Coordinate(latitude: lat, longitude: lon) else { continue }
          found[key] = (rank, BasemapPlace(name: name, kind: kind, coordinate: coordinate))
        }
        return found.values.sorted { ($0.rank, $0.place.name) < ($1.rank, $1.place.name) }.prefix(limit).map(\.place)
      }
    } catch {
      throw BasemapError(message: "\(path): cannot be read: \(error)")
    }
  }

  /// `text` without case or accents ("Töölö" → "toolo").
  static func folded(_ text: String) -> String {
    text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
  }
}
