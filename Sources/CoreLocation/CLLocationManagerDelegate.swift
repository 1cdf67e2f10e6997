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
  /// The manager could not get a location: `denied` without authorization, `locationUnknown` when no fix comes.
  /// - Parameters:
  ///   - manager: The manager that failed.
  ///   - error: A `CLError` saying why.
  func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error)
  /// New locations, oldest first.
  func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation])
  /// A new location and the one before it (the SDK's old form). Kept for source compatibility; never called here.
  /// - Parameters:
  ///   - manager: The manager reporting the location.
  ///   - newLocation: The new location.
  ///   - oldLocation: The location reported before it.
  @available(*, deprecated, message: "Implement locationManager(_:didUpdateLocations:) instead")
  func locationManager(_ manager: CLLocationManager, didUpdateTo newLocation: CLLocation, from oldLocation: CLLocation)
  /// Deferred updates ended. Not emulated (deferred updates are unavailable): never called here.
  /// - Parameters:
  ///   - manager: The manager whose deferred updates ended.
  ///   - error: Why they ended, or nil.
  func locationManager(_ manager: CLLocationManager, didFinishDeferredUpdatesWithError error: (any Error)?)
  /// Updates paused on their own because the device stayed in one place (`pausesLocationUpdatesAutomatically`).
  /// - Parameter manager: The manager whose updates paused.
  func locationManagerDidPauseLocationUpdates(_ manager: CLLocationManager)
  /// Paused updates resumed: the device moved away again while the app was in the foreground.
  /// - Parameter manager: The manager whose updates resumed.
  func locationManagerDidResumeLocationUpdates(_ manager: CLLocationManager)
  /// The device arrived at or left a place where it stayed, when visits are monitored.
  /// - Parameters:
  ///   - manager: The manager monitoring visits.
  ///   - visit: The visit (its departure date is `Date.distantFuture` while the device is still there).
  func locationManager(_ manager: CLLocationManager, didVisit visit: CLVisit)
  /// A new compass heading. Never called here: the emulated phone has no magnetometer.
  /// - Parameters:
  ///   - manager: The manager reporting the heading.
  ///   - newHeading: The new heading.
  func locationManager(_ manager: CLLocationManager, didUpdateHeading newHeading: CLHeading)
  /// Whether the system may show its compass calibration screen. Never asked here (no compass).
  /// - Parameter manager: The manager asking.
  /// - Returns: True to allow the calibration screen.
  func locationManagerShouldDisplayHeadingCalibration(_ manager: CLLocationManager) -> Bool
  /// The device crossed into a monitored region that asks to be told on entry.
  /// - Parameters:
  ///   - manager: The manager monitoring the region.
  ///   - region: The region entered.
  func locationManager(_ manager: CLLocationManager, didEnterRegion region: CLRegion)
  /// The device left a monitored region that asks to be told on exit.
  /// - Parameters:
  ///   - manager: The manager monitoring the region.
  ///   - region: The region left.
  func locationManager(_ manager: CLLocationManager, didExitRegion region: CLRegion)
  /// A monitored region's state: on every boundary crossing, and in answer to `requestState(for:)`.
  /// - Parameters:
  ///   - manager: The manager monitoring the region.
  ///   - state: Inside, outside or unknown.
  ///   - region: The region concerned.
  func locationManager(_ manager: CLLocationManager, didDetermineState state: CLRegionState, for region: CLRegion)
  /// A region could not be monitored, such as when the app already monitors 20 regions.
  /// - Parameters:
  ///   - manager: The manager asked to monitor the region.
  ///   - region: The region, or nil.
  ///   - error: A `CLError` saying why.
  func locationManager(_ manager: CLLocationManager, monitoringDidFailFor region: CLRegion?, withError error: any Error)
  /// Monitoring of a region started.
  /// - Parameters:
  ///   - manager: The manager monitoring the region.
  ///   - region: The region now monitored.
  func locationManager(_ manager: CLLocationManager, didStartMonitoringFor region: CLRegion)
  /// Beacons in range that match a constraint. Beacons are not emulated: never called here.
  /// - Parameters:
  ///   - manager: The manager ranging beacons.
  ///   - beacons: The beacons in range, nearest first.
  ///   - beaconConstraint: The constraint they match.
  func locationManager(_ manager: CLLocationManager, didRange beacons: [CLBeacon], satisfying beaconConstraint: CLBeaconIdentityConstraint)
  /// Ranging beacons failed; here always, with `rangingUnavailable`, as beacons are not emulated.
  /// - Parameters:
  ///   - manager: The manager asked to range beacons.
  ///   - beaconConstraint: The constraint that was to be ranged.
  ///   - error: A `CLError` saying why.
  func locationManager(_ manager: CLLocationManager, didFailRangingFor beaconConstraint: CLBeaconIdentityConstraint, error: any Error)
  /// Beacons in range in a beacon region (the SDK's old form). Never called here.
  /// - Parameters:
  ///   - manager: The manager ranging beacons.
  ///   - beacons: The beacons in range.
  ///   - region: The beacon region ranged.
  @available(*, deprecated)
  func locationManager(_ manager: CLLocationManager, didRangeBeacons beacons: [CLBeacon], in region: CLBeaconRegion)
  /// Ranging a beacon region failed (the SDK's old form). Never called here.
  /// - Parameters:
  ///   - manager: The manager asked to range beacons.
  ///   - region: The beacon region.
  ///   - error: Why ranging failed.
  @available(*, deprecated)
  func locationManager(_ manager: CLLocationManager, rangingBeaconsDidFailFor region: CLBeaconRegion, withError error: any Error)
}

extension CLLocationManagerDelegate {
  /// Does nothing by default.
  /// - Parameter manager: The manager whose authorization changed.
  public func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {}
  /// Does nothing by default.
  /// - Parameters:
  ///   - manager: The manager whose authorization changed.
  ///   - status: The new authorization status.
  public func locationManager(_ manager: CLLocationManager, didChangeAuthorization status: CLAuthorizationStatus) {}
  /// Does nothing by default.
  /// - Parameters:
  ///   - manager: The manager that failed.
  ///   - error: Why it failed.
  public func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error) {}
  /// Does nothing by default.
  /// - Parameters:
  ///   - manager: The manager reporting the locations.
  ///   - locations: The new locations, oldest first.
  public func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {}
  /// Does nothing by default.
  /// - Parameters:
  ///   - manager: The manager reporting the location.
  ///   - newLocation: The new location.
  ///   - oldLocation: The location reported before it.
  public func locationManager(_ manager: CLLocationManager, didUpdateTo newLocation: CLLocation, from oldLocation: CLLocation) {}
  /// Does nothing by default.
  /// - Parameters:
  ///   - manager: The manager whose deferred updates ended.
  ///   - error: Why they ended, or nil.
  public func locationManager(_ manager: CLLocationManager, didFinishDeferredUpdatesWithError error: (any Error)?) {}
  /// Does nothing by default.
  /// - Parameter manager: The manager whose updates paused.
  public func locationManagerDidPauseLocationUpdates(_ manager: CLLocationManager) {}
  /// Does nothing by default.
  /// - Parameter manager: The manager whose updates resumed.
  public func locationManagerDidResumeLocationUpdates(_ manager: CLLocationManager) {}
  /// Does nothing by default.
  /// - Parameters:
  ///   - manager: The manager monitoring visits.
  ///   - visit: The visit.
  public func locationManager(_ manager: CLLocationManager, didVisit visit: CLVisit) {}
  /// Does nothing by default.
  /// - Parameters:
  ///   - manager: The manager reporting the heading.
  ///   - newHeading: The new heading.
  public func locationManager(_ manager: CLLocationManager, didUpdateHeading newHeading: CLHeading) {}
  /// Does not allow the calibration screen by default.
  /// - Parameter manager: The manager asking.
  /// - Returns: False.
  public func locationManagerShouldDisplayHeadingCalibration(_ manager: CLLocationManager) -> Bool { false }
  /// Does nothing by default.
  /// - Parameters:
  ///   - manager: The manager monitoring the region.
  ///   - region: The region entered.
  public func locationManager(_ manager: CLLocationManager, didEnterRegion region: CLRegion) {}
  /// Does nothing by default.
  /// - Parameters:
  ///   - manager: The manager monitoring the region.
  ///   - region: The region left.
  public func locationManager(_ manager: CLLocationManager, didExitRegion region: CLRegion) {}
  /// Does nothing by default.
  /// - Parameters:
  ///   - manager: The manager monitoring the region.
  ///   - state: The region's state.
  ///   - region: The region concerned.
  public func locationManager(_ manager: CLLocationManager, didDetermineState state: CLRegionState, for region: CLRegion) {}
  /// Does nothing by default.
  /// - Parameters:
  ///   - manager: The manager asked to monitor the region.
  ///   - region: The region, or nil.
  ///   - error: Why monitoring failed.
  public func locationManager(_ manager: CLLocationManager, monitoringDidFailFor region: CLRegion?, withError error: any Error) {}
  /// Does nothing by default.
  /// - Parameters:
  ///   - manager: The manager monitoring the region.
  ///   - region: The region now monitored.
  public func locationManager(_ manager: CLLocationManager, didStartMonitoringFor region: CLRegion) {}
  /// Does nothing by default.
  /// - Parameters:
  ///   - manager: The manager ranging beacons.
  ///   - beacons: The beacons in range.
  ///   - beaconConstraint: The constraint they match.
  public func locationManager(
    _ manager: CLLocationManager, didRange beacons: [CLBeacon], satisfying beaconConstraint: CLBeaconIdentityConstraint
  ) {}
  /// Does nothing by default.
  /// - Parameters:
  ///   - manager: The manager asked to range beacons.
  ///   - beaconConstraint: The constraint that was to be ranged.
  ///   - error: Why ranging failed.
  public func locationManager(
    _ manager: CLLocationManager, didFailRangingFor beaconConstraint: CLBeaconIdentityConstraint, error: any Error
  ) {}
  /// Does nothing by default.
  /// - Parameters:
  ///   - manager: The manager ranging beacons.
  ///   - beacons: The beacons in range.
  ///   - region: The beacon region ranged.
  public func locationManager(_ manager: CLLocationManager, didRangeBeacons beacons: [CLBeacon], in region: CLBeaconRegion) {}
  /// Does nothing by default.
  /// - Parameters:
  ///   - manager: The manager asked to range beacons.
  ///   - region: The beacon region.
  ///   - error: Why ranging failed.
  public func locationManager(_ manager: CLLocationManager, rangingBeaconsDidFailFor region: CLBeaconRegion, withError error: any Error) {}
}
