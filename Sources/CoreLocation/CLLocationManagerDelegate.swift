public import Foundation

/// What a location manager tells the app, with the SDK's method names. The SDK's methods are
/// `@objc optional`; Linux has no optional requirements, so each has an implementation here that
/// does nothing, and an app implements the ones it wants, exactly as on iOS.
///
/// The manager calls them in the order things happen on its phone's clock, where it was made:
/// on the main actor when it was made there (an app's view model, a `@MainActor` test), else
/// synchronously on the phone's clock, in order. See the "Running your CoreLocation code on
/// Linux" article.
public protocol CLLocationManagerDelegate: NSObjectProtocol {
  /// The authorization or the accuracy authorization changed, and once after the manager was made.
  func locationManagerDidChangeAuthorization(_ manager: CLLocationManager)
  /// The authorization changed (before iOS 14). Called with ``locationManagerDidChangeAuthorization(_:)``,
  /// as Linux cannot tell which of the two an app implements. Deprecated on Apple's platforms as
  /// in the SDK (the manager must call it, so not on Linux).
  @available(iOS, introduced: 4.2, deprecated: 14.0, message: "Use locationManagerDidChangeAuthorization(_:)")
  @available(macOS, introduced: 10.7, deprecated: 11.0, message: "Use locationManagerDidChangeAuthorization(_:)")
  func locationManager(_ manager: CLLocationManager, didChangeAuthorization status: CLAuthorizationStatus)
  func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error)
  /// New locations, oldest first.
  func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation])
  @available(*, deprecated, message: "Implement locationManager(_:didUpdateLocations:) instead")
  func locationManager(_ manager: CLLocationManager, didUpdateTo newLocation: CLLocation, from oldLocation: CLLocation)
  func locationManager(_ manager: CLLocationManager, didFinishDeferredUpdatesWithError error: (any Error)?)
  func locationManagerDidPauseLocationUpdates(_ manager: CLLocationManager)
  func locationManagerDidResumeLocationUpdates(_ manager: CLLocationManager)
  func locationManager(_ manager: CLLocationManager, didVisit visit: CLVisit)
  func locationManager(_ manager: CLLocationManager, didUpdateHeading newHeading: CLHeading)
  func locationManagerShouldDisplayHeadingCalibration(_ manager: CLLocationManager) -> Bool
  func locationManager(_ manager: CLLocationManager, didEnterRegion region: CLRegion)
  func locationManager(_ manager: CLLocationManager, didExitRegion region: CLRegion)
  func locationManager(_ manager: CLLocationManager, didDetermineState state: CLRegionState, for region: CLRegion)
  func locationManager(_ manager: CLLocationManager, monitoringDidFailFor region: CLRegion?, withError error: any Error)
  func locationManager(_ manager: CLLocationManager, didStartMonitoringFor region: CLRegion)
  func locationManager(_ manager: CLLocationManager, didRange beacons: [CLBeacon], satisfying beaconConstraint: CLBeaconIdentityConstraint)
  func locationManager(_ manager: CLLocationManager, didFailRangingFor beaconConstraint: CLBeaconIdentityConstraint, error: any Error)
  @available(*, deprecated)
  func locationManager(_ manager: CLLocationManager, didRangeBeacons beacons: [CLBeacon], in region: CLBeaconRegion)
  @available(*, deprecated)
  func locationManager(_ manager: CLLocationManager, rangingBeaconsDidFailFor region: CLBeaconRegion, withError error: any Error)
}

extension CLLocationManagerDelegate {
  public func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {}
  public func locationManager(_ manager: CLLocationManager, didChangeAuthorization status: CLAuthorizationStatus) {}
  public func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error) {}
  public func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {}
  public func locationManager(_ manager: CLLocationManager, didUpdateTo newLocation: CLLocation, from oldLocation: CLLocation) {}
  public func locationManager(_ manager: CLLocationManager, didFinishDeferredUpdatesWithError error: (any Error)?) {}
  public func locationManagerDidPauseLocationUpdates(_ manager: CLLocationManager) {}
  public func locationManagerDidResumeLocationUpdates(_ manager: CLLocationManager) {}
  public func locationManager(_ manager: CLLocationManager, didVisit visit: CLVisit) {}
  public func locationManager(_ manager: CLLocationManager, didUpdateHeading newHeading: CLHeading) {}
  public func locationManagerShouldDisplayHeadingCalibration(_ manager: CLLocationManager) -> Bool { false }
  public func locationManager(_ manager: CLLocationManager, didEnterRegion region: CLRegion) {}
  public func locationManager(_ manager: CLLocationManager, didExitRegion region: CLRegion) {}
  public func locationManager(_ manager: CLLocationManager, didDetermineState state: CLRegionState, for region: CLRegion) {}
  public func locationManager(_ manager: CLLocationManager, monitoringDidFailFor region: CLRegion?, withError error: any Error) {}
  public func locationManager(_ manager: CLLocationManager, didStartMonitoringFor region: CLRegion) {}
  public func locationManager(
    _ manager: CLLocationManager, didRange beacons: [CLBeacon], satisfying beaconConstraint: CLBeaconIdentityConstraint
  ) {}
  public func locationManager(
    _ manager: CLLocationManager, didFailRangingFor beaconConstraint: CLBeaconIdentityConstraint, error: any Error
  ) {}
  public func locationManager(_ manager: CLLocationManager, didRangeBeacons beacons: [CLBeacon], in region: CLBeaconRegion) {}
  public func locationManager(_ manager: CLLocationManager, rangingBeaconsDidFailFor region: CLBeaconRegion, withError error: any Error) {}
}
