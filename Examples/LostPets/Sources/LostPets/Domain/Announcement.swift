/// A lost or found pet, as the announcements API gives it.
struct Announcement: Equatable, Sendable, Identifiable {
  enum Status: String, Codable, Sendable {
    case active
    case found
    case closed
  }

  let id: String
  let petName: String
  let coordinate: Coordinate
  let status: Status
}

/// What the app asks the announcements API for.
struct AnnouncementListQuery: Equatable, Sendable {
  enum SortOption: Equatable, Sendable { case createdAtDescending }

  let limit: Int?
  let sortBy: SortOption
  let location: Coordinate?
  /// Search radius, kilometres.
  let range: Int

  /// The landing page's: the five newest within 10 km.
  static func landingPageQuery(location: Coordinate?) -> AnnouncementListQuery {
    AnnouncementListQuery(limit: 5, sortBy: .createdAtDescending, location: location, range: 10)
  }

  static func defaultQuery(location: Coordinate?) -> AnnouncementListQuery {
    AnnouncementListQuery(limit: nil, sortBy: .createdAtDescending, location: location, range: 100)
  }
}

/// The announcements API.
protocol AnnouncementRepositoryProtocol: Sendable {
  func getAnnouncements(query: AnnouncementListQuery) async throws -> [Announcement]
}
