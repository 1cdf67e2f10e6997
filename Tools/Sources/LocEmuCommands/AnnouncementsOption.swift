import ArgumentParser
import Foundation
import LostPetsApp
import PetMap

// `--announcements FILE|URL` as `preview` and `serve` take it: checked the same way, opened the
// same way.
extension AnnouncementSource {
  /// The checks of `--announcements`: a server's URL needs a host, and the real clock (the app
  /// asks the server as time passes).
  static func validate(_ text: String?, virtualTime: Bool) throws {
    guard let text, isURL(text) else { return }
    if virtualTime { throw ValidationError("--announcements URL runs on the real clock; drop --virtual-time") }
    if URL(string: text)?.host == nil { throw ValidationError("--announcements: '\(text)' is not a valid URL") }
  }

  /// The repository `--announcements` names (nil without it); a file's dropped records are
  /// said on standard error, as `locemu COMMAND: …`.
  static func open(_ text: String?, command: String) throws -> (any AnnouncementRepository)? {
    guard let text else { return nil }
    do {
      let (found, note) = try repository(text)
      if let note { printError("locemu \(command): " + note) }
      return found
    } catch {
      throw CommandFailure("\(error)")
    }
  }
}
