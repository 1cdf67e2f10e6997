import Foundation
import Geo
public import LocationModel

#if canImport(Glibc)
  import Glibc
#endif

/// Announcements from a JSON file (the backend's response format), filtered by great-circle
/// distance and sorted in-process.
///
/// The file is read once, at creation. Announcements are kept newest first and indexed on a
/// grid of ``cellDegrees`` × ``cellDegrees`` cells, so a query looks only at the cells its
/// circle touches: a 10 km query among a million announcements reads a few thousand, not all.
public final class FileAnnouncementRepository: AnnouncementRepository, Sendable {
  /// The side of an index cell, degrees (about 11 km of latitude).
  public static let cellDegrees = 0.1
  private static let lonCells = Int(360 / cellDegrees)
  private static let latCells = Int(180 / cellDegrees)

  /// All announcements, newest first (ties by id).
  public let all: [Announcement]
  /// What the file held that was dropped (`CLOSED`, bad coordinates, malformed records).
  public let dropped: AnnouncementMapper.Dropped
  /// Cell key → indices into ``all``, ascending (so newest first).
  private let cells: [Int32: [Int32]]

  /// Reads `path`.
  /// - Throws: ``AnnouncementError/unreadable(path:reason:)`` or ``AnnouncementError/malformed(_:)``.
  public convenience init(contentsOf path: String) throws(AnnouncementError) {
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      let reason = (error as NSError).code == NSFileReadNoSuchFileError ? "no such file" : error.localizedDescription
      throw .unreadable(path: path, reason: reason)
    }
    let decoded: (announcements: [Announcement], dropped: AnnouncementMapper.Dropped)
    do {
      decoded = try AnnouncementMapper.decode(data)
    } catch {
      // Name the file: "cannot read F: not an announcements document: …".
      throw .unreadable(path: path, reason: error.description)
    }
    self.init(decoded.announcements, dropped: decoded.dropped)
  }

  /// Indexes `announcements` (`CLOSED` ones are dropped here too).
  public init(_ announcements: [Announcement], dropped: AnnouncementMapper.Dropped = .init()) {
    var dropped = dropped
    let open = announcements.filter { a in
      if a.status.isPinEligible { return true }
      dropped.closed += 1
      return false
    }
    all = AnnouncementListQuery(limit: nil, location: nil, range: 1).ordered(open)
    self.dropped = dropped
    var cells: [Int32: [Int32]] = [:]
    for (i, a) in all.enumerated() {
      cells[Self.key(Self.latCell(a.coordinate.latitude), Self.lonCell(a.coordinate.longitude)), default: []].append(Int32(i))
    }
    self.cells = cells
  }

  public func announcements(for query: AnnouncementListQuery) async throws -> [Announcement] {
    search(query)
  }

  /// The query, synchronously: candidates from the index cells the circle touches, filtered by
  /// distance, newest first, cut to the limit.
  public func search(_ query: AnnouncementListQuery) -> [Announcement] {
    guard let center = query.location else { return query.ordered(all) }
    let radius = Double(query.range) * 1000
    var matches: [Int32] = []
    forEachCandidateCell(around: center, radius: radius) { indices in
      for i in indices where center.distance(to: all[Int(i)].coordinate) <= radius { matches.append(i) }
    }
    matches.sort()
    let limited = query.limit.map { matches.prefix(max(0, $0)) } ?? matches[...]
    return limited.map { all[Int($0)] }
  }

  /// How many announcements a query for `radius` metres around `center` reads (index candidates).
  public func candidateCount(around center: Coordinate, radius: Double) -> Int {
    var count = 0
    forEachCandidateCell(around: center, radius: radius) { count += $0.count }
    return count
  }

  private func forEachCandidateCell(around center: Coordinate, radius: Double, _ body: ([Int32]) -> Void) {
    let dLat = radius / (Coordinate.earthRadius * .pi / 180)
    let south = max(-90, center.latitude - dLat), north = min(90, center.latitude + dLat)
    let widest = max(abs(south), abs(north))
    // Near a pole, or for a huge radius, the circle spans every longitude.
    let dLon = widest >= 89.5 ? 360 : dLat / cos(widest * .pi / 180)
    let latRange = Self.latCell(south)...Self.latCell(north)
    let lonRange: [Int]
    if dLon >= 180 {
      lonRange = Array(0..<Self.lonCells)
    } else {
      let first = Int(((center.longitude - dLon + 180) / Self.cellDegrees).rounded(.down))
      let last = Int(((center.longitude + dLon + 180) / Self.cellDegrees).rounded(.down))
      lonRange = (first...last).map { (($0 % Self.lonCells) + Self.lonCells) % Self.lonCells }
    }
    for lat in latRange {
      for lon in lonRange {
        if let indices = cells[Self.key(lat, lon)] { body(indices) }
      }
    }
  }

  private static func latCell(_ latitude: Double) -> Int {
    min(latCells - 1, max(0, Int(((latitude + 90) / cellDegrees).rounded(.down))))
  }

  private static func lonCell(_ longitude: Double) -> Int {
    min(lonCells - 1, max(0, Int(((longitude + 180) / cellDegrees).rounded(.down))))
  }

  private static func key(_ lat: Int, _ lon: Int) -> Int32 { Int32(lat * lonCells + lon) }
}
