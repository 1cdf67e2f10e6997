import Emulator
public import Foundation
import Geo
import LocationModel

/// The object an app starts and stops location services with, as the SDK's: its properties
/// with Apple's defaults, authorization requests with iOS's rules, standard and
/// significant-change updates, region monitoring, visits; its delegate told as iOS tells it.
///
/// It belongs to a phone (see the article "Running your CoreLocation code on Linux"): the one
/// of `withEmulatedPhone` or of a phone task when made there, else the process's own (a served
/// phone with `LOCEMU_SERVER`, or a fresh one). Its delegate is called in the phone's order, on
/// the main actor when the manager was made there, else on the phone's clock; on a virtual clock
/// a test advances the phone and checks right after.
///
/// Open to subclassing, as apps and their tests do.
open class CLLocationManager: NSObject {
  // MARK: Capabilities of the (emulated) device

  /// Whether Location Services are on, on the phone of the code running now.
  open class func locationServicesEnabled() -> Bool { BoundPhone.current.phone.state.servicesEnabled }
  /// False: the emulated phone has no magnetometer.
  open class func headingAvailable() -> Bool { false }
  /// True: significant-change updates are emulated.
  ///
  /// - Returns: Whether significant-change monitoring is available.
  open class func significantLocationChangeMonitoringAvailable() -> Bool { true }
  /// Circular regions only (beacons are not emulated).
  open class func isMonitoringAvailable(for regionClass: AnyClass) -> Bool {
    regionClass == CLCircularRegion.self || regionClass is CLCircularRegion.Type
  }
  /// False: beacons are not emulated.
  ///
  /// - Returns: Whether beacon ranging is available.
  open class func isRangingAvailable() -> Bool { false }
  /// The app's status on the phone of the code running now.
  @available(*, deprecated, message: "Use the authorizationStatus property")
  open class func authorizationStatus() -> CLAuthorizationStatus { Engine.status(of: BoundPhone.current.phone.state) }
  /// False: deferred updates are not available, as on recent iOS.
  ///
  /// - Returns: Whether deferred location updates are available.
  @available(*, deprecated, message: "You can remove calls to this method")
  open class func deferredLocationUpdatesAvailable() -> Bool { false }
  /// True: region monitoring is emulated (for circular regions).
  ///
  /// - Returns: Whether region monitoring is available.
  @available(*, deprecated, message: "Use isMonitoringAvailable(for:)")
  open class func regionMonitoringAvailable() -> Bool { true }
  /// True, whatever the authorization: the old check of region monitoring.
  ///
  /// - Returns: Whether region monitoring is enabled.
  @available(*, deprecated, message: "Use isMonitoringAvailable(for:) and authorizationStatus")
  open class func regionMonitoringEnabled() -> Bool { true }

  // MARK: Configuration (Apple's defaults)

  /// The delegate; not retained.
  open var delegate: (any CLLocationManagerDelegate)? {
    get { delegateBox.withLock { $0.value } }
    set { delegateBox.withLock { $0.value = newValue } }
  }
  /// Metres a device must move before a new location is delivered, measured from the last one
  /// delivered; ``kCLDistanceFilterNone`` (the default) delivers every one.
  open var distanceFilter: CLLocationDistance {
    get { engine.withSettings { $0.distanceFilter } }
    set { engine.withSettings { $0.distanceFilter = newValue } }
  }
  /// ``kCLLocationAccuracyBest`` by default. A kilometre or coarser gets network fixes, as iOS
  /// may give them with the GPS off: the device's position with that horizontal accuracy and no
  /// altitude, speed or course.
  open var desiredAccuracy: CLLocationAccuracy {
    get { engine.withSettings { $0.desiredAccuracy } }
    set { engine.withSettings { $0.desiredAccuracy = newValue } }
  }
  /// `.other` by default; decides when updates pause.
  open var activityType: CLActivityType {
    get { engine.withSettings { $0.activityType } }
    set { engine.withSettings { $0.activityType = newValue } }
  }
  /// True by default: updates pause while the device stays put (see the article for how long).
  open var pausesLocationUpdatesAutomatically: Bool {
    get { engine.withSettings { $0.pausesAutomatically } }
    set { engine.withSettings { $0.pausesAutomatically = newValue } }
  }
  /// False by default. True: an app authorized when in use keeps its updates in the background
  /// (the app's `location` background mode is taken as declared).
  open var allowsBackgroundLocationUpdates: Bool {
    get { engine.withSettings { $0.allowsBackground } }
    set {
      engine.withSettings { $0.allowsBackground = newValue }
      engine.updateBackgroundPermission()
    }
  }
  /// Whether the status bar shows that the app uses location in the background. Kept for source compatibility: has no effect here.
  open var showsBackgroundLocationIndicator = false
  /// 1 degree by default (headings are not emulated).
  open var headingFilter: CLLocationDegrees = 1
  /// The device orientation headings are measured for; `.portrait` by default. Has no effect here (headings are not emulated).
  open var headingOrientation: CLDeviceOrientation = .portrait
  /// Why the app uses location (the old way to say it). Kept for source compatibility: has no effect here.
  @available(*, deprecated, message: "Set the purpose string in Info.plist using key NSLocationUsageDescription")
  open var purpose: String?

  // MARK: State

  /// The last location delivered to this manager; nil before the first.
  open var location: CLLocation? { engine.lastLocation }
  /// Where the manager's phone is now, as the app may know it (its latest fix while permission
  /// lets locations through): what MapKit's "current location" means (directions from here).
  package var phoneLocation: CLLocation? { engine.latestPhoneLocation }
  /// Nil: headings are not emulated.
  open var heading: CLHeading? { nil }
  /// The app's authorization on the manager's phone.
  open var authorizationStatus: CLAuthorizationStatus { Engine.status(of: engine.bound.phone.state) }
  /// Precise or approximate location.
  open var accuracyAuthorization: CLAccuracyAuthorization {
    engine.bound.phone.state.accuracy == .full ? .fullAccuracy : .reducedAccuracy
  }
  /// Whether the app's widgets may get locations. Always false here (widgets are not emulated).
  open var isAuthorizedForWidgetUpdates: Bool { false }
  /// The largest radius a region may have (400 km, as phones report it).
  open var maximumRegionMonitoringDistance: CLLocationDistance { Engine.maximumRegionRadius }
  /// The regions the app monitors on this phone (shared by its managers, as on iOS).
  open var monitoredRegions: Set<CLRegion> { Set(RegionRegistry.of(engine.bound.phone).regions) }
  /// The beacon regions being ranged: always empty (beacons are not emulated).
  @available(*, deprecated, message: "Use rangedBeaconConstraints")
  open var rangedRegions: Set<CLRegion> { [] }
  /// The beacon constraints being ranged: always empty (beacons are not emulated).
  open var rangedBeaconConstraints: Set<CLBeaconIdentityConstraint> { [] }
  /// Whether Location Services are on, on the manager's phone.
  @available(*, deprecated, message: "Use the class method locationServicesEnabled()")
  open var locationServicesEnabled: Bool { engine.bound.phone.state.servicesEnabled }
  /// False: the emulated phone has no magnetometer.
  @available(*, deprecated, message: "Use the class method headingAvailable()")
  open var headingAvailable: Bool { false }

  let engine: Engine
  private let delegateBox = Locked(WeakDelegate())

  /// A manager on the phone of the code running now; its delegate hears of the authorization
  /// once the delegate is set (an asynchronous call, as on iOS).
  public override init() {
    let bound = BoundPhone.current
    engine = Engine(bound: bound, delivery: DelegateDelivery(bound: bound, onMainActor: MainQueue.isCurrent))
    super.init()
    engine.attach(self)
  }

  deinit { engine.detach() }

  // MARK: Authorization

  /// A prompt only from `notDetermined`, with Location Services on and the app in the
  /// foreground; the answer (the phone's scripted user) comes to the delegate.
  open func requestWhenInUseAuthorization() { engine.bound.requestAuthorization(always: false) }

  /// From `notDetermined`, a prompt whose "Allow While Using App" grants a provisional Always;
  /// from when in use, the upgrade prompt; once per app; nothing after "Allow Once".
  open func requestAlwaysAuthorization() { engine.bound.requestAuthorization(always: true) }

  /// Full accuracy for a while, for an app with approximate location: a prompt when the key is
  /// given, the accuracy is reduced and the app is in the foreground; else `promptDeclined`.
  /// The completion comes once the prompt is shown (nil) or declined.
  @preconcurrency
  open func requestTemporaryFullAccuracyAuthorization(
    withPurposeKey purposeKey: String, completion: (@Sendable ((any Error)?) -> Void)? = nil
  ) {
    engine.requestTemporaryFullAccuracy(purposeKey: purposeKey, completion: completion)
  }

  /// Full accuracy for a while, with no completion: Apple's separate method of this name, so
  /// a protocol that requires it (a manager's abstraction in an app) is met by the manager, as on iOS.
  ///
  /// - Parameter purposeKey: The key of the purpose string in the app's Info.plist.
  open func requestTemporaryFullAccuracyAuthorization(withPurposeKey purposeKey: String) {
    engine.requestTemporaryFullAccuracy(purposeKey: purposeKey, completion: nil)
  }

  /// Asks for full accuracy for a while, as the completion-handler form does, and waits for the answer.
  ///
  /// - Parameter purposeKey: The key of the purpose string in the app's Info.plist.
  /// - Throws: `CLError.promptDeclined` when no prompt is shown.
  open func requestTemporaryFullAccuracyAuthorization(withPurposeKey purposeKey: String) async throws {
    try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
      engine.requestTemporaryFullAccuracy(purposeKey: purposeKey) { error in
        if let error { done.resume(throwing: error) } else { done.resume() }
      }
    }
  }

  // MARK: Location services

  /// Locations from now, to the delegate, as the app may have them (authorized, in use or with
  /// background updates), through ``distanceFilter`` and ``desiredAccuracy``. Cancels a
  /// ``requestLocation()`` in progress.
  open func startUpdatingLocation() { engine.startUpdating() }
  /// Stops the location updates `startUpdatingLocation()` started.
  open func stopUpdatingLocation() { engine.stopUpdating() }
  /// One location: `didUpdateLocations` with it, or `didFailWithError` — `.locationUnknown`
  /// when none comes within the phone's request timeout (10 s), `.denied` when not authorized.
  /// Does nothing while updates run.
  open func requestLocation() { engine.requestLocation() }
  /// A location when the device has moved about 500 m and 5 minutes have passed since the last
  /// (the first at once).
  open func startMonitoringSignificantLocationChanges() { engine.significantStarted() }
  /// Stops significant-change updates.
  open func stopMonitoringSignificantLocationChanges() { engine.withSettings { $0.significantChanges = false } }
  /// Visits: a stay of 5 minutes within 50 m arrives, leaving 100 m behind departs.
  open func startMonitoringVisits() { engine.withSettings { $0.visits = true } }
  /// Stops visit monitoring.
  open func stopMonitoringVisits() { engine.withSettings { $0.visits = false } }
  /// Nothing: the emulated phone has no magnetometer.
  open func startUpdatingHeading() {}
  /// Nothing: headings are not emulated.
  open func stopUpdatingHeading() {}
  /// Nothing: there is no calibration display here.
  open func dismissHeadingCalibrationDisplay() {}

  // MARK: Regions

  /// Monitors a circular region: entry and exit once the boundary is crossed and a minimum
  /// distance beyond it (100 m, or half the radius for small regions) is held for 20 s. At
  /// most 20 regions per app; none under approximate location; a radius over
  /// ``maximumRegionMonitoringDistance`` fails with `regionMonitoringFailure`.
  open func startMonitoring(for region: CLRegion) { engine.startMonitoring(region) }
  /// Stops monitoring the region with `region`'s identifier, for every manager of the app on this phone.
  ///
  /// - Parameter region: The region to stop monitoring.
  open func stopMonitoring(for region: CLRegion) { engine.stopMonitoring(region) }
  /// The region's state now, to `didDetermineState`.
  open func requestState(for region: CLRegion) { engine.requestState(region) }
  /// Monitors a region, as `startMonitoring(for:)` does; the accuracy is ignored.
  ///
  /// - Parameters:
  ///   - region: The region to monitor.
  ///   - accuracy: The distance past the boundary before an event. Has no effect here.
  @available(*, deprecated, message: "Use startMonitoring(for:)")
  open func startMonitoring(for region: CLRegion, desiredAccuracy accuracy: CLLocationAccuracy) { startMonitoring(for: region) }

  /// Beacons are not emulated: ranging fails.
  open func startRangingBeacons(satisfying constraint: CLBeaconIdentityConstraint) {
    engine.deliver("didFailRangingFor") { manager, delegate in
      delegate.locationManager(manager, didFailRangingFor: constraint, error: CLError(.rangingUnavailable))
    }
  }
  /// Nothing: beacons are not emulated.
  ///
  /// - Parameter constraint: The beacons to stop ranging.
  open func stopRangingBeacons(satisfying constraint: CLBeaconIdentityConstraint) {}
  /// Nothing: deferred updates are not available.
  ///
  /// - Parameters:
  ///   - distance: The distance to travel before updates are delivered. Has no effect here.
  ///   - timeout: The time to wait before updates are delivered. Has no effect here.
  @available(*, deprecated, message: "You can remove calls to this method")
  open func allowDeferredLocationUpdates(untilTraveled distance: CLLocationDistance, timeout: TimeInterval) {}
  /// Nothing: deferred updates are not available.
  @available(*, deprecated, message: "You can remove calls to this method")
  open func disallowDeferredLocationUpdates() {}
}

/// A weak reference to the delegate, kept under a lock.
struct WeakDelegate {
  weak var object: AnyObject?
  var value: (any CLLocationManagerDelegate)? {
    get { object as? any CLLocationManagerDelegate }
    set { object = newValue }
  }
}
