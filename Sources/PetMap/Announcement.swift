public import Foundation
import Geo
public import LocationModel

/// Where a lost-pet announcement stands. The backend may send `MISSING` for ``active``.
public enum AnnouncementStatus: String, Sendable, Hashable, Codable, CaseIterable {
  /// The pet is missing (backend: `ACTIVE` or `MISSING`): shown with a pin.
  case active = "ACTIVE"
  /// The pet was found: shown with a pin.
  case found = "FOUND"
  /// The case is closed: never shown.
  case closed = "CLOSED"

  /// Parses the backend's spelling (`ACTIVE`, `MISSING`, `FOUND`, `CLOSED`; case-insensitive).
  public init?(backend text: String) {
    switch text.uppercased() {
    case "ACTIVE", "MISSING": self = .active
    case "FOUND": self = .found
    case "CLOSED": self = .closed
    default: return nil
    }
  }

  /// Whether an announcement with this status gets a pin on the map (FR-014: not `CLOSED`).
  public var isPinEligible: Bool { self != .closed }
}

/// A lost-pet announcement: where the pet was last seen, its status and the pet.
public struct Announcement: Sendable, Hashable, Identifiable {
  public var id: String
  public var coordinate: Coordinate
  public var status: AnnouncementStatus
  public var createdAt: Date
  public var petName: String?
  public var species: String?
  public var description: String?

  public init(
    id: String, coordinate: Coordinate, status: AnnouncementStatus, createdAt: Date,
    petName: String? = nil, species: String? = nil, description: String? = nil
  ) {
    self.id = id
    self.coordinate = coordinate
    self.status = status
    self.createdAt = createdAt
    self.petName = petName
    self.species = species
    self.description = description
  }
}

/// How announcements are ordered.
public enum AnnouncementSortOption: String, Sendable, Hashable {
  /// Newest first (ties: by id, so the order is stable).
  case createdAtDescending
}

/// What to fetch: the iOS app's `AnnouncementListQuery`.
public struct AnnouncementListQuery: Sendable, Hashable {
  /// At most this many (nil: all).
  public var limit: Int?
  public var sortBy: AnnouncementSortOption
  /// The centre of the search; nil: anywhere.
  public var location: Coordinate?
  /// Search radius around ``location``, kilometres (positive).
  public var range: Int

  public init(limit: Int?, sortBy: AnnouncementSortOption = .createdAtDescending, location: Coordinate?, range: Int) {
    self.limit = limit
    self.sortBy = sortBy
    self.location = location
    self.range = max(1, range)
  }

  /// The landing page's query: the 5 newest within 10 km.
  public static func landingPageQuery(location: Coordinate?) -> AnnouncementListQuery {
    AnnouncementListQuery(limit: 5, sortBy: .createdAtDescending, location: location, range: 10)
  }

  /// The default query: all within 100 km, newest first.
  public static func defaultQuery(location: Coordinate?) -> AnnouncementListQuery {
    AnnouncementListQuery(limit: nil, sortBy: .createdAtDescending, location: location, range: 100)
  }

  /// Whether `announcement` is inside the query's circle (always, without a location).
  public func covers(_ announcement: Announcement) -> Bool {
    guard let location else { return true }
    return location.distance(to: announcement.coordinate) <= Double(range) * 1000
  }

  /// `announcements` sorted per ``sortBy`` and cut to ``limit``.
  public func ordered(_ announcements: [Announcement]) -> [Announcement] {
    let sorted = announcements.sorted { a, b in
      a.createdAt != b.createdAt ? a.createdAt > b.createdAt : a.id < b.id
    }
    guard let limit else { return sorted }
    return Array(sorted.prefix(max(0, limit)))
  }
}

extension AnnouncementError {
  /// Why a request to the backend failed, whatever client made it (URLSession's error codes,
  /// libcurl's): each said in the same words by ``transport(_:url:)``.
  public enum Failure: Sendable, Hashable {
    case cancelled, cannotConnect, timedOut, noSuchHost, connectionLost, badResponse, unsupportedURL
    /// Anything else, in the client's own words.
    case other(String)
  }

  /// ``transport(_:)`` saying in words why the request to `url` failed, and where it went
  /// (a client's own text can be as bare as "NSURLErrorDomain error -1000").
  public static func transport(_ failure: Failure, url: URL?) -> AnnouncementError {
    let place = url.map { "\($0.host ?? "?")\($0.port.map { ":\($0)" } ?? "")" } ?? "the server"
    return switch failure {
    case .cancelled: .transport("cancelled")
    case .cannotConnect: .transport("cannot connect to \(place) (is the server running?)")
    case .timedOut: .transport("\(place) did not answer in time")
    case .noSuchHost: .transport("no such host: \(url?.host ?? "?")")
    case .connectionLost: .transport("the connection to \(place) was lost")
    case .badResponse: .transport("\(place) sent a bad HTTP response")
    case .unsupportedURL: .transport("unsupported URL: \(url?.absoluteString ?? "?")")
    case .other(let reason): .transport("\(place): \(reason)")
    }
  }
}

// MARK: The backend's endpoint

extension AnnouncementListQuery {
  /// The backend's URL for this query under `base`:
  /// `{base}/api/v1/announcements?lat=X&lng=Y&range=KM[&limit=N]`.
  public func url(base: URL) -> URL {
    var components = URLComponents(url: base.appendingPathComponent("api/v1/announcements"), resolvingAgainstBaseURL: false)!
    var items: [URLQueryItem] = []
    if let location {
      items.append(URLQueryItem(name: "lat", value: String(location.latitude)))
      items.append(URLQueryItem(name: "lng", value: String(location.longitude)))
    }
    items.append(URLQueryItem(name: "range", value: String(range)))
    if let limit { items.append(URLQueryItem(name: "limit", value: String(limit))) }
    components.queryItems = items
    return components.url!
  }

  /// The backend's answer to this query: its JSON read with ``AnnouncementMapper`` (bad records
  /// dropped, `CLOSED` dropped), sorted newest first and cut to ``limit``, whatever order the
  /// server used. Whatever the HTTP client that fetched it.
  /// - Throws: ``AnnouncementError/httpStatus(_:)`` for a status other than 200,
  ///   ``AnnouncementError/malformed(_:)`` for a body that is not the announcements object.
  public func announcements(status: Int, body: Data) throws(AnnouncementError) -> [Announcement] {
    guard status == 200 else { throw .httpStatus(status) }
    return ordered(try AnnouncementMapper.decode(body).announcements)
  }
}

/// Where announcements come from: the backend over HTTP, or a file.
public protocol AnnouncementRepository: Sendable {
  /// The announcements matching `query`, newest first, without `CLOSED` ones.
  /// - Throws: ``AnnouncementError`` when the source cannot be read.
  func announcements(for query: AnnouncementListQuery) async throws -> [Announcement]
}

/// Why announcements could not be fetched.
public enum AnnouncementError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The server answered with a status other than 200.
  case httpStatus(Int)
  /// The request failed (connection refused, timed out, …).
  case transport(String)
  /// The answer or file is not the announcements JSON object.
  case malformed(String)
  /// The file cannot be read.
  case unreadable(path: String, reason: String)

  public var description: String {
    switch self {
    case .httpStatus(let code): "the server answered HTTP \(code)"
    case .transport(let reason): "request failed: \(reason)"
    case .malformed(let reason): "not an announcements document: \(reason)"
    case .unreadable(let path, let reason): "cannot read \(path): \(reason)"
    }
  }
}
