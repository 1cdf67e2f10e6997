@preconcurrency import CoreLocation
import Foundation

/// One location, async: the wrapper over the delegate that Swift 6 apps write. The manager and
/// its delegate live on the main actor; the delegate's methods are nonisolated (the protocol's
/// are) and step back onto it with `MainActor.assumeIsolated`, as they are called on the thread
/// that made the manager.
@MainActor
public final class LocationFetcher: NSObject, CLLocationManagerDelegate {
  public enum FetchError: Error, Equatable {
    case denied
    case busy
  }

  private let manager = CLLocationManager()
  private var locationContinuation: CheckedContinuation<CLLocation, any Error>?
  private var authorizationContinuation: CheckedContinuation<CLAuthorizationStatus, Never>?

  public override init() {
    super.init()
    manager.delegate = self
    manager.desiredAccuracy = kCLLocationAccuracyHundredMeters
  }

  /// Asks for When In Use when the status is not determined; returns the status after.
  public func authorize() async -> CLAuthorizationStatus {
    guard manager.authorizationStatus == .notDetermined else { return manager.authorizationStatus }
    return await withCheckedContinuation { continuation in
      authorizationContinuation = continuation
      manager.requestWhenInUseAuthorization()
    }
  }

  /// The device's location now (authorizing first when needed).
  public func currentLocation() async throws -> CLLocation {
    let status = await authorize()
    guard status == .authorizedWhenInUse || status == .authorizedAlways else { throw FetchError.denied }
    guard locationContinuation == nil else { throw FetchError.busy }
    return try await withCheckedThrowingContinuation { continuation in
      locationContinuation = continuation
      manager.requestLocation()
    }
  }

  nonisolated public func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {
    let status = manager.authorizationStatus
    MainActor.assumeIsolated {
      guard status != .notDetermined, let continuation = authorizationContinuation else { return }
      authorizationContinuation = nil
      continuation.resume(returning: status)
    }
  }

  nonisolated public func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
    guard let location = locations.last else { return }
    MainActor.assumeIsolated {
      locationContinuation?.resume(returning: location)
      locationContinuation = nil
    }
  }

  nonisolated public func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error) {
    Task { @MainActor in
      locationContinuation?.resume(throwing: error)
      locationContinuation = nil
    }
  }
}
