// Shape of D3AsyncLocation's permission helper: a file that imports CoreLocation and nothing
// else, and uses NSObject, NSObjectProtocol and Date from it (Apple's CoreLocation re-exports
// Foundation).
import CoreLocation

/// A delegate protocol refining NSObjectProtocol, as wrappers declare them.
public protocol PermissionRequesting: NSObjectProtocol, CLLocationManagerDelegate {
  func requestWhenInUse() async -> CLAuthorizationStatus
}

public final class PermissionRequester: NSObject, PermissionRequesting {
  private let manager = CLLocationManager()
  private var continuation: CheckedContinuation<CLAuthorizationStatus, Never>?
  public private(set) var askedAt: Date?

  public override init() {
    super.init()
    manager.delegate = self
  }

  public func requestWhenInUse() async -> CLAuthorizationStatus {
    guard manager.authorizationStatus == .notDetermined else { return manager.authorizationStatus }
    askedAt = Date()
    return await withCheckedContinuation { continuation in
      self.continuation = continuation
      manager.requestWhenInUseAuthorization()
    }
  }

  public func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {
    guard manager.authorizationStatus != .notDetermined, let continuation else { return }
    self.continuation = nil
    continuation.resume(returning: manager.authorizationStatus)
  }
}
