import Foundation
package import PetMap

/// Where the app's pins come from, as the commands take it (`--announcements FILE|URL`).
package enum AnnouncementSource {
  /// Whether `text` names a server (`http://`, `https://`) rather than a file.
  package static func isURL(_ text: String) -> Bool { text.hasPrefix("http://") || text.hasPrefix("https://") }

  /// The repository `text` names: a server's base URL (asked as the app asks, `GET
  /// URL/api/v1/announcements?lat=…&lng=…&range=10&limit=5`, with libcurl loaded then), or an
  /// announcements file, read now.
  /// - Returns: the repository, and for a file with records it dropped, a line that says so.
  /// - Throws: what reading the file throws (a missing file, bad JSON).
  package static func repository(_ text: String) throws -> (repository: any AnnouncementRepository, note: String?) {
    if isURL(text), let url = URL(string: text) { return (LibcurlAnnouncementRepository(baseURL: url), nil) }
    let file = try FileAnnouncementRepository(contentsOf: text)
    return (file, file.dropped.total > 0 ? "\(text): \(file.all.count) announcements; \(file.dropped)" : nil)
  }
}
