import Combine
import Foundation
import MapKit

/// The landing page: asks for the user's location (with permission when needed), shows the
/// newest pets lost within 10 km as pins on the map preview, follows permission changes (also
/// on returning to the foreground), and opens the fullscreen map on a tap of a loaded preview.
@MainActor
final class LandingPageViewModel: ObservableObject {
  @Published private(set) var mapPreview: MapPreviewView.Model = .loading
  @Published private(set) var announcements: [Announcement] = []
  private(set) var userLocation: Coordinate?

  private let permissionHandler: LocationPermissionHandler
  private let repository: any AnnouncementRepositoryProtocol
  /// Called with the user's location when the loaded preview is tapped.
  var onMapPreviewTapped: ((Coordinate) -> Void)?
  /// Called when the user wants to change permission in Settings.
  var onGoToSettings: (() -> Void)?

  static let permissionMessage = "Allow location access to see lost pets near you."
  static let errorMessage = "We couldn't load the map. Check your connection and try again."

  init(permissionHandler: LocationPermissionHandler, repository: any AnnouncementRepositoryProtocol) {
    self.permissionHandler = permissionHandler
    self.repository = repository
  }

  /// The page appears: observes permission, then loads.
  func onAppear() async {
    permissionHandler.startObservingLocationPermissionChanges { [weak self] status, didBecomeAuthorized in
      guard let self else { return }
      if didBecomeAuthorized {
        Task { await self.load() }
      } else if status == .notDetermined, self.mapPreview == .loading {
        // The prompt is up (or about to be): the request in progress decides.
      } else if !status.isAuthorized {
        self.showPermissionRequired()
      }
    }
    await load()
  }

  func onDisappear() { permissionHandler.stopObservingLocationPermissionChanges() }

  /// Asks for the location (and permission), then for the pets near it.
  func load() async {
    mapPreview = .loading
    let result = await permissionHandler.requestLocationWithPermissions()
    guard result.status.isAuthorized else {
      showPermissionRequired()
      return
    }
    guard let location = result.location else {
      mapPreview = .error(message: Self.errorMessage, onRetry: { [weak self] in Task { await self?.load() } })
      return
    }
    userLocation = location
    let found: [Announcement]
    do {
      found = try await repository.getAnnouncements(query: .landingPageQuery(location: location))
    } catch {
      mapPreview = .error(message: Self.errorMessage, onRetry: { [weak self] in Task { await self?.load() } })
      return
    }
    // Pins: announcements still open (lost or found), within the query's range.
    let query = AnnouncementListQuery.landingPageQuery(location: location)
    announcements = found
    let pins =
      found
      .filter { $0.status != .closed && $0.coordinate.distance(to: location) <= Double(query.range) * 1000 }
      .map { MapPreviewView.PinModel(id: $0.id, coordinate: $0.coordinate) }
    mapPreview = .map(region: location.mapRegion(), pins: pins, onTap: { [weak self] in self?.mapPreviewTapped() })
  }

  private func showPermissionRequired() {
    mapPreview = .permissionRequired(message: Self.permissionMessage, onGoToSettings: { [weak self] in self?.onGoToSettings?() })
  }

  private func mapPreviewTapped() {
    guard case .map = mapPreview, let userLocation else { return }
    onMapPreviewTapped?(userLocation)
  }
}
