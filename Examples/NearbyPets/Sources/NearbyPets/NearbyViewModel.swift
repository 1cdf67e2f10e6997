public import LocationServices
import PermissionHandling
import Synchronization

/// A "pets near you" screen's view model, as an app would write it: on appearing it asks for
/// permission and the user's position; while allowed it follows the user's position; it shows
/// why there is none when there is none.
///
/// It knows nothing of the emulator: it imports the app seam (`LocationServices`: the seed's
/// `LocationServiceProtocol` and its values) and the permission handler; the tests give it an
/// emulated phone's service.
public final class NearbyViewModel: Sendable {
  /// What the screen shows.
  public enum Screen: Sendable, Equatable {
    case idle
    /// The user's position, and whether it is precise.
    case located(Coordinate, precise: Bool)
    /// No permission (the status the app reads).
    case needsPermission(LocationPermissionStatus)
    /// Location Services are off.
    case servicesOff
    /// Authorized, but no position came.
    case noPosition
  }

  private let handler: LocationPermissionHandler
  private let state = Mutex<(screen: Screen, positions: Int)>((.idle, 0))

  public init(service: any LocationServiceProtocol) {
    handler = LocationPermissionHandler(service: service)
  }

  public var screen: Screen { state.withLock { $0.screen } }
  /// Positions followed so far.
  public var positionsFollowed: Int { state.withLock { $0.positions } }

  /// The screen appears: asks for permission when needed, then for the user's position.
  public func appear() async {
    await handler.startObservingLocationPermissionChanges { [weak self] change in self?.permissionChanged(change) }
    let result = await handler.requestLocationWithPermissions()
    let screen: Screen =
      if let location = result.location {
        .located(location, precise: result.accuracy == .full)
      } else {
        switch result.reason {
        case .servicesDisabled: .servicesOff
        case .locationUnavailable, .inBackground, .cancelled, .none: .noPosition
        case .denied, .restricted, .notDetermined, .revoked: .needsPermission(result.status)
        }
      }
    state.withLock { $0.screen = screen }
  }

  /// Follows the user's position while allowed (the app runs this in a task of its own).
  public func follow() async {
    for await fix in handler.service.locations() {
      guard let coordinate = fix.coordinate else { continue }
      state.withLock {
        $0.screen = .located(coordinate, precise: (fix.horizontalAccuracy ?? 0) < 1000)
        $0.positions += 1
      }
    }
  }

  /// The screen goes away.
  public func disappear() { handler.stopObservingLocationPermissionChanges() }

  private func permissionChanged(_ change: PermissionChange) {
    state.withLock { s in
      if change.reason == .servicesDisabled {
        s.screen = .servicesOff
      } else if !change.isAuthorized {
        s.screen = .needsPermission(change.status)
      } else if case .located = s.screen {
      } else {
        s.screen = .idle
      }
    }
  }
}
