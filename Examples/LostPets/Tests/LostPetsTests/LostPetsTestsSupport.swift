import CoreLocation
import MapKit
import Emulator
import Foundation
import LocationModel
import Synchronization

@testable import LostPets

/// The app's coordinate (the emulator has one of its own).
typealias Coordinate = LostPets.Coordinate

/// Central Helsinki, where the tests' user stands.
let home = Coordinate(latitude: 60.1699, longitude: 24.9384)

/// A point `north` and `east` kilometres from `home`.
func near(north: Double = 0, east: Double = 0) -> Coordinate {
  Coordinate(
    latitude: home.latitude + north * 1000 / 111_195.08,
    longitude: home.longitude + east * 1000 / (111_195.08 * cos(home.latitude * .pi / 180)))
}

/// The announcements API, in memory: what it holds, and the queries it was asked.
final class FakeAnnouncements: AnnouncementRepositoryProtocol, Sendable {
  private let held: [Announcement]
  private let asked = Mutex<[AnnouncementListQuery]>([])

  init(_ held: [Announcement] = FakeAnnouncements.sample) { self.held = held }

  var queries: [AnnouncementListQuery] { asked.withLock { $0 } }

  func getAnnouncements(query: AnnouncementListQuery) async throws -> [Announcement] {
    asked.withLock { $0.append(query) }
    return Array(held.prefix(query.limit ?? held.count))
  }

  /// Three open within 10 km, one closed within, one open 15 km away.
  static let sample = [
    Announcement(id: "rex", petName: "Rex", coordinate: near(north: 2), status: .active),
    Announcement(id: "mia", petName: "Mia", coordinate: near(east: -6), status: .found),
    Announcement(id: "old", petName: "Old", coordinate: near(north: 1), status: .closed),
    Announcement(id: "far", petName: "Far", coordinate: near(north: 15), status: .active),
    Announcement(id: "bo", petName: "Bo", coordinate: near(north: -7, east: 5), status: .active),
  ]
}

/// A navigation stack that writes down what it was asked.
@MainActor
final class RecordingNavigation: NavigationControllerProtocol {
  private(set) var stack: [String] = []
  private(set) var pushedMaps: [FullscreenMapViewModel] = []

  func push(_ screen: HomeScreen, animated: Bool) {
    switch screen {
    case .landingPage: stack.append("landing")
    case .fullscreenMap(let model):
      stack.append("map")
      pushedMaps.append(model)
    }
  }

  func pop(animated: Bool) { stack.removeLast() }
}

/// The app on an emulated phone: the service, the handler and the landing page, made as the
/// app makes them (on the main actor, on this phone), and the phone's lifecycle notifications
/// posted to the app's notification center.
@MainActor
struct App {
  let phone: EmulatedPhone
  let center: NotificationCenter
  let service: LostPets.LocationService
  let handler: LocationPermissionHandler
  let landing: LandingPageViewModel
  let announcements: FakeAnnouncements
  let navigation: RecordingNavigation
  let coordinator: HomeCoordinator

  init(phone: EmulatedPhone, announcements: FakeAnnouncements = FakeAnnouncements()) {
    self.phone = phone
    center = NotificationCenter()
    service = LostPets.LocationService(notificationCenter: center)
    handler = LocationPermissionHandler(locationService: service, notificationCenter: center)
    self.announcements = announcements
    landing = LandingPageViewModel(permissionHandler: handler, repository: announcements)
    navigation = RecordingNavigation()
    coordinator = HomeCoordinator(navigationController: navigation)
    coordinator.start(with: landing)
  }
}

/// Runs `body` with the app on a new phone (see ``App``).
@MainActor
func withApp(
  _ configuration: EmulatedPhone.Configuration, announcements: FakeAnnouncements = FakeAnnouncements(),
  _ body: @MainActor (App) async throws -> Void
) async throws {
  try await withEmulatedPhone(configuration) { phone in
    let app = App(phone: phone, announcements: announcements)
    let notifications = phone.postApplicationNotifications(to: app.center)
    defer { notifications.cancel() }
    try await body(app)
  }
}

/// A phone standing at `home`, with the given permission and answer to the prompt.
func phone(
  _ status: LocationModel.LocationPermissionStatus = .notDetermined, services: Bool = true, answer: PromptAnswer = .allowWhileUsing,
  source: PhoneSource = .fixed(LocationModel.Coordinate(latitude: home.latitude, longitude: home.longitude)!)
) -> EmulatedPhone.Configuration {
  EmulatedPhone.Configuration(
    permission: PermissionState(appStatus: status, servicesEnabled: services), promptAnswer: answer, source: source)
}

extension MapPreviewView.Model {
  var pinIDs: [String]? {
    if case .map(_, let pins, _) = self { return pins.map(\.id) }
    return nil
  }
  var region: MKCoordinateRegion? {
    if case .map(let region, _, _) = self { return region }
    return nil
  }
  var isPermissionRequired: Bool {
    if case .permissionRequired = self { return true }
    return false
  }
  func tap() { if case .map(_, _, let onTap) = self { onTap() } }
}
