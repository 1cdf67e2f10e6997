public import Foundation
import Geo
import LocationModel

/// Reads and writes the announcements JSON of the backend and of announcement files:
/// `{"announcements": [{"id": …, "latitude": …, "longitude": …, "status": …, "createdAt": …, …}]}`.
///
/// Reading is lenient per record and strict per document: unknown members are ignored; a
/// record without an id, with a missing or out-of-range coordinate, an unknown status or an
/// unreadable `createdAt` is dropped and counted; `CLOSED` records are dropped (they never
/// get a pin); a record with the id of an earlier one is dropped and counted (one pin per id).
/// A document that is not such an object throws.
public enum AnnouncementMapper {
  /// Why records were dropped, with counts.
  public struct Dropped: Sendable, Hashable, CustomStringConvertible {
    public var invalidCoordinate = 0
    public var closed = 0
    /// No id, unknown status or unreadable `createdAt`.
    public var malformed = 0
    /// A record whose id an earlier record already had (the first one is kept: one pin per id).
    public var duplicate = 0
    public var total: Int { invalidCoordinate + closed + malformed + duplicate }
    public init() {}

    /// "dropped 1 closed, 1 with a bad coordinate, 0 malformed" (and duplicates when there were any).
    public var description: String {
      "dropped \(closed) closed, \(invalidCoordinate) with a bad coordinate, \(malformed) malformed"
        + (duplicate > 0 ? ", \(duplicate) with a duplicate id" : "")
    }
  }

  /// The announcements in `data` and what was dropped.
  /// - Throws: ``AnnouncementError/malformed(_:)`` when `data` is not the announcements object.
  public static func decode(_ data: Data) throws(AnnouncementError) -> (announcements: [Announcement], dropped: Dropped) {
    guard let root = JSONValue(parsing: data) else { throw .malformed("invalid JSON") }
    guard let records = root["announcements"]?.array else {
      throw .malformed("expected an object with an \"announcements\" array")
    }
    var out: [Announcement] = []
    out.reserveCapacity(records.count)
    var dropped = Dropped()
    var ids = Set<String>()
    for record in records {
      switch announcement(from: record) {
      case .success(let a):
        if ids.insert(a.id).inserted { out.append(a) } else { dropped.duplicate += 1 }
      case .failure(.closed): dropped.closed += 1
      case .failure(.coordinate): dropped.invalidCoordinate += 1
      case .failure(.malformed): dropped.malformed += 1
      }
    }
    return (out, dropped)
  }

  private enum Rejection: Error { case closed, coordinate, malformed }

  private static func announcement(from r: JSONValue) -> Result<Announcement, Rejection> {
    guard r.object != nil else { return .failure(.malformed) }
    // An id may come as a number: 17 is "17".
    let number = r["id"]?.number.map { $0 == $0.rounded() && abs($0) < 1e15 ? String(Int64($0)) : "\($0)" }
    guard let id = r["id"]?.string ?? number, !id.isEmpty else {
      return .failure(.malformed)
    }
    guard let latitude = r["latitude"]?.number, let longitude = r["longitude"]?.number,
      let coordinate = Coordinate(latitude: latitude, longitude: longitude)
    else { return .failure(.coordinate) }
    guard let statusText = r["status"]?.string, let status = AnnouncementStatus(backend: statusText) else {
      return .failure(.malformed)
    }
    guard status != .closed else { return .failure(.closed) }
    guard let created = r["createdAt"]?.string, let createdAt = ISO8601Time.parse(created) else {
      return .failure(.malformed)
    }
    return .success(
      Announcement(
        id: id, coordinate: coordinate, status: status, createdAt: createdAt, petName: r["petName"]?.string,
        species: r["species"]?.string, description: r["description"]?.string))
  }

  /// The announcements object for `announcements`, members in a fixed order (`status` as the backend spells it).
  public static func encode(_ announcements: [Announcement]) -> Data {
    var out = "{\"announcements\":["
    for (i, a) in announcements.enumerated() {
      if i > 0 { out += "," }
      out += "{\"id\":\(JSONText.quoted(a.id)),\"latitude\":\(a.coordinate.latitude),\"longitude\":\(a.coordinate.longitude)"
      out += ",\"status\":\"\(a.status.rawValue)\",\"createdAt\":\"\(FixRecord.iso8601(a.createdAt))\""
      if let v = a.petName { out += ",\"petName\":\(JSONText.quoted(v))" }
      if let v = a.species { out += ",\"species\":\(JSONText.quoted(v))" }
      if let v = a.description { out += ",\"description\":\(JSONText.quoted(v))" }
      out += "}"
    }
    out += "]}\n"
    return Data(out.utf8)
  }
}
