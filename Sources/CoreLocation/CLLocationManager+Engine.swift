import Emulator
import Foundation
import Geo
import LocationServices

extension CLLocationManager {
  /// The manager's workings on its phone: it observes the phone synchronously (on the phone's
  /// clock, in order) and decides what the delegate is told, which ``DelegateDelivery`` then
  /// calls where the manager was made. Holds the manager weakly: a manager that goes away stops
  /// being told anything, and leaves no observer behind.
  final class Engine: GeofenceListener, Sendable {
    struct Settings {
      var distanceFilter = kCLDistanceFilterNone
      var desiredAccuracy = kCLLocationAccuracyBest
      var activityType = CLActivityType.other
      var pausesAutomatically = true
      var allowsBackground = false
      var significantChanges = false
      var visits = false
    }

    struct State {
      var updating = false
      var paused = false
      var lastLocation: CLLocation?
      /// The last location delivered by the standard service (the distance filter measures from it).
      var lastUpdate: CLLocation?
      var lastSignificant: (location: CLLocation, at: Duration)?
      /// Where and since when the device has stayed put (pauses, visits).
      var still: (anchor: CLLocation, since: Duration)?
      var visit: (coordinate: CLLocationCoordinate2D, arrival: Date)?
      var reported: (status: CLAuthorizationStatus, accuracy: CLAccuracyAuthorization)?
      var unknownReported = false
      var deniedReported = false
      var oneShot: CancellationHandle?
      var observation: PhoneObservation?
      /// Whether this manager holds the phone's background use (``CLLocationManager/allowsBackgroundLocationUpdates``).
      var backgroundHeld = false
    }

    let bound: BoundPhone
    let delivery: DelegateDelivery
    let settings = Locked(Settings())
    let state = Locked(State())
    private let manager = Locked(WeakManager())

    /// The largest radius a region may have.
    static let maximumRegionRadius: CLLocationDistance = 400_000

    init(bound: BoundPhone, delivery: DelegateDelivery) {
      self.bound = bound
      self.delivery = delivery
    }

    /// Starts observing the phone; the delegate hears of the authorization once.
    func attach(_ manager: CLLocationManager) {
      self.manager.withLock { $0.object = manager }
      let observation = bound.phone.observe([.stateChanged, .location, .sourceFix]) { [weak self] event in
        self?.handle(event)
      }
      state.withLock { $0.observation = observation }
      RegionRegistry.of(bound.phone).attachManager(self)
      reportAuthorization(force: true)
    }

    /// The manager went away: no observer, no region, no call left.
    func detach() {
      let (observation, oneShot) = state.withLock { s in
        defer {
          s.observation = nil
          s.oneShot = nil
        }
        return (s.observation, s.oneShot)
      }
      observation?.cancel()
      oneShot?.cancel()
      if state.withLock({ $0.backgroundHeld }) { BackgroundUse.of(bound.phone).release() }
      delivery.finish()
    }

    /// Calls `body` with the manager and its delegate, where and when the delegate is called.
    func deliver(
      _ name: String, later: Bool = false, _ body: @escaping @Sendable (CLLocationManager, any CLLocationManagerDelegate) -> Void
    ) {
      let manager = self.manager
      let call: @Sendable () -> Void = {
        guard let object = manager.withLock({ $0.object }), let delegate = object.delegate else { return }
        body(object, delegate)
      }
      later ? delivery.deliverLater(name, call) : delivery.deliver(name, call)
    }

    // MARK: Authorization

    static func status(of state: PermissionState) -> CLAuthorizationStatus {
      switch state.status {
      case .notDetermined: .notDetermined
      case .restricted: .restricted
      case .denied: .denied
      case .authorizedWhenInUse: .authorizedWhenInUse
      case .authorizedAlways: .authorizedAlways
      }
    }

    /// Tells the delegate when the status or the accuracy authorization changed (or at once).
    private func reportAuthorization(force: Bool) {
      let now = bound.phone.state
      let status = Self.status(of: now)
      let accuracy: CLAccuracyAuthorization = now.accuracy == .full ? .fullAccuracy : .reducedAccuracy
      let changed = state.withLock { s -> Bool in
        if !force, let reported = s.reported, reported.status == status, reported.accuracy == accuracy { return false }
        s.reported = (status, accuracy)
        return true
      }
      guard changed else { return }
      deliver("didChangeAuthorization", later: force) { manager, delegate in
        delegate.locationManagerDidChangeAuthorization(manager)
        delegate.locationManager(manager, didChangeAuthorization: status)
      }
    }

    private func handle(_ event: PhoneEvent) {
      switch event {
      case .stateChanged(let from, let to):
        reportAuthorization(force: false)
        stateChanged(from: from, to: to)
      case .location(let fix): delivered(fix)
      case .sourceFix(let fix): received(fix)
      default: break
      }
    }

    private func stateChanged(from: PermissionState, to: PermissionState) {
      // Updates that lose their permission fail with .denied (once), as on iOS.
      let denied = !to.isDelivering && to.unavailableReason != .inBackground && to.unavailableReason != .notDetermined
      let report = state.withLock { s -> Bool in
        guard s.updating, denied, !s.deniedReported else {
          if !denied { s.deniedReported = false }
          return false
        }
        s.deniedReported = true
        return true
      }
      if report { fail(.denied) }
    }

    func fail(_ code: CLError.Code) {
      deliver("didFailWithError") { manager, delegate in delegate.locationManager(manager, didFailWithError: CLError(code)) }
    }

    func requestTemporaryFullAccuracy(purposeKey: String, completion: (@Sendable ((any Error)?) -> Void)?) {
      let now = bound.phone.state
      // iOS declines without the key in Info.plist (here: an empty key), with full accuracy
      // already, or in the background.
      guard !purposeKey.isEmpty, now.accuracy == .reduced, now.app == .foreground else {
        if let completion { delivery.deliver("temporaryFullAccuracy") { completion(CLError(.promptDeclined)) } }
        return
      }
      if let completion { delivery.deliver("temporaryFullAccuracy") { completion(nil) } }
      TemporaryFullAccuracy.request(on: bound)
    }

    /// Background updates for an app authorized when in use: the phone lets locations through
    /// while any manager allows them.
    func updateBackgroundPermission() {
      let allows = settings.withLock { $0.allowsBackground }
      let use = BackgroundUse.of(bound.phone)
      let changed = state.withLock { s -> Bool in
        let was = s.backgroundHeld
        s.backgroundHeld = allows
        return was != allows
      }
      if changed { allows ? use.acquire() : use.release() }
    }

    // MARK: Standard updates

    func startUpdating() {
      let oneShot = state.withLock { s -> CancellationHandle? in
        s.updating = true
        s.paused = false
        s.unknownReported = false
        defer { s.oneShot = nil }
        return s.oneShot
      }
      oneShot?.cancel()
      // An app that may not have locations now hears why (as on iOS).
      let now = bound.phone.state
      if !now.isDelivering, now.unavailableReason != .notDetermined, now.unavailableReason != .inBackground {
        state.withLock { $0.deniedReported = true }
        fail(.denied)
      }
    }

    func stopUpdating() {
      state.withLock { s in
        s.updating = false
        s.paused = false
        s.still = nil
      }
    }

    func requestLocation() {
      // The request is marked as under way before it starts: its answer may come on another
      // thread before `requestLocation` returns, and must find the mark to clear it.
      let handle = CancellationHandle()
      let started = state.withLock { s -> Bool in
        guard !s.updating, s.oneShot == nil else { return false }
        s.oneShot = handle
        return true
      }
      guard started else { return }
      bound.requestLocation(handle) { [weak self] result in
        guard let self else { return }
        state.withLock { s in
          if s.oneShot === handle { s.oneShot = nil }
        }
        if let fix = result.fix, fix.hasFix {
          let location = CLLocation(fix, date: bound.phone.date)
          state.withLock { $0.lastLocation = location }
          deliver("didUpdateLocations") { manager, delegate in delegate.locationManager(manager, didUpdateLocations: [location]) }
        } else {
          fail(result.reason == .locationUnavailable || result.reason == .inBackground ? .locationUnknown : .denied)
        }
      }
    }

    /// A fix the phone delivered to the app.
    private func delivered(_ fix: LocationFix) {
      guard fix.hasFix else { return }
      let settings = self.settings.withLock { $0 }
      let location = coarsened(CLLocation(fix, date: bound.phone.date), to: settings.desiredAccuracy)
      let now = bound.phone.elapsed
      enum Outcome { case deliver, pause, resume, nothing }
      let (outcome, significant) = state.withLock { s -> (Outcome, Bool) in
        var outcome = Outcome.nothing
        if s.updating {
          outcome = .deliver
          if let last = s.lastUpdate, settings.distanceFilter > 0, location.distance(from: last) < settings.distanceFilter {
            outcome = .nothing
          }
          // Pauses: the device stayed within the activity's radius for its time.
          let (radius, time) = Self.pauseRule(settings.activityType)
          if let still = s.still, location.distance(from: still.anchor) <= radius {
            if s.paused {
              outcome = .nothing
            } else if settings.pausesAutomatically, now - still.since >= time {
              s.paused = true
              outcome = .pause
            }
          } else {
            if s.paused, bound.phone.state.app == .foreground {
              s.paused = false
              outcome = .resume
            } else if s.paused {
              outcome = .nothing
            }
            s.still = (location, now)
          }
          if outcome == .deliver || outcome == .resume { s.lastUpdate = location }
        }
        // Significant changes: ~500 m and ~5 minutes since the last one.
        var significant = false
        if settings.significantChanges, outcome != .deliver, outcome != .resume {
          if let last = s.lastSignificant {
            significant = location.distance(from: last.location) >= 500 && now - last.at >= .seconds(300)
          } else {
            significant = true
          }
        }
        if settings.significantChanges, significant || outcome == .deliver || outcome == .resume,
          s.lastSignificant.map({ location.distance(from: $0.location) >= 500 && now - $0.at >= .seconds(300) }) ?? true
        {
          s.lastSignificant = (location, now)
        }
        if outcome == .deliver || outcome == .resume || significant {
          s.lastLocation = location
          s.unknownReported = false
        }
        return (outcome, significant)
      }
      switch outcome {
      case .pause:
        deliver("didPause") { manager, delegate in delegate.locationManagerDidPauseLocationUpdates(manager) }
      case .resume:
        deliver("didResume") { manager, delegate in delegate.locationManagerDidResumeLocationUpdates(manager) }
        deliverLocation(location)
      case .deliver: deliverLocation(location)
      case .nothing: if significant { deliverLocation(location) }
      }
    }

    private func deliverLocation(_ location: CLLocation) {
      deliver("didUpdateLocations") { manager, delegate in delegate.locationManager(manager, didUpdateLocations: [location]) }
    }

    /// The first significant-change location comes at once, when there is one.
    func significantStarted() {
      guard let fix = bound.phone.latestFix, fix.hasFix, bound.phone.state.isDelivering else { return }
      let location = CLLocation(fix, date: bound.phone.date)
      let now = bound.phone.elapsed
      let first = state.withLock { s -> Bool in
        guard s.lastSignificant == nil else { return false }
        s.lastSignificant = (location, now)
        s.lastLocation = location
        return true
      }
      if first { deliverLocation(location) }
    }

    /// How long and how still the device must be before updates pause, by activity (the SDK
    /// does not say; these are the emulator's, documented in the article).
    static func pauseRule(_ activity: CLActivityType) -> (radius: Double, time: Duration) {
      switch activity {
      case .airborne: (0, .seconds(Int64.max / 2))
      case .automotiveNavigation, .otherNavigation: (50, .seconds(600))
      case .fitness: (25, .seconds(900))
      case .other: (25, .seconds(300))
      }
    }

    /// A location as a coarse desired accuracy gets it on iOS.
    ///
    /// Apple (`desiredAccuracy`): "Setting the desired accuracy to a greater value (less
    /// accurate) lets the system use less power … the actual accuracy is not guaranteed"; with a
    /// kilometre or more the system may leave the GPS off and position the device from Wi-Fi and
    /// cell towers (`kCLLocationAccuracyThreeKilometers`: "accurate to the nearest three
    /// kilometers"). Such a network fix is where the device is, within its stated accuracy, with
    /// no altitude, speed or course: the location keeps the fix's position (no grid: that is
    /// what reduced-accuracy authorization does on purpose, see `LocationGateStateMachine`),
    /// reports the desired accuracy as its horizontal accuracy, and has altitude, speed and
    /// course invalid. Finer desired accuracies get the receiver's fix as it is.
    private func coarsened(_ location: CLLocation, to desired: CLLocationAccuracy) -> CLLocation {
      guard desired >= kCLLocationAccuracyKilometer, location.horizontalAccuracy < desired else { return location }
      return CLLocation(
        coordinate: location.coordinate, altitude: 0, horizontalAccuracy: desired, verticalAccuracy: -1, course: -1,
        courseAccuracy: -1, speed: -1, speedAccuracy: -1, timestamp: location.timestamp,
        sourceInfo: location.sourceInformation ?? .simulated)
    }

    // MARK: The receiver (regions, visits, a lost fix)

    /// An epoch of the phone's receiver, whatever the app may have.
    private func received(_ fix: LocationFix) {
      let permission = bound.phone.state
      // A lost fix while updating: "still trying" (.locationUnknown), once until the next fix.
      if !fix.hasFix {
        let report = state.withLock { s -> Bool in
          guard s.updating, !s.paused, !s.unknownReported, permission.isDelivering else { return false }
          s.unknownReported = true
          return true
        }
        if report { fail(.locationUnknown) }
        return
      }
      let location = CLLocation(fix, date: bound.phone.date)
      if settings.withLock({ $0.visits }), Self.mayUseInBackground(permission) { visits(location) }
    }

    /// Whether the app may have location events now: Always, or when in use in the foreground.
    static func mayUseInBackground(_ permission: PermissionState) -> Bool {
      guard permission.servicesEnabled else { return false }
      return permission.appStatus == .authorizedAlways || (permission.appStatus == .authorizedWhenInUse && permission.app == .foreground)
    }

    /// Visits: five minutes within 50 m arrive; leaving 100 m behind departs.
    private func visits(_ location: CLLocation) {
      let now = bound.phone.elapsed
      let date = location.timestamp
      // The visit's values; the CLVisit (not Sendable, as in the SDK) is made where it is delivered.
      struct VisitEvent: Sendable {
        var arrival: Date, departure: Date, coordinate: CLLocationCoordinate2D
      }
      let event = state.withLock { s -> VisitEvent? in
        if let visit = s.visit {
          let here = CLLocation(latitude: visit.coordinate.latitude, longitude: visit.coordinate.longitude)
          guard location.distance(from: here) > 100 else { return nil }
          s.visit = nil
          s.still = (location, now)
          return VisitEvent(arrival: visit.arrival, departure: date, coordinate: visit.coordinate)
        }
        guard let still = s.still, location.distance(from: still.anchor) <= 50 else {
          if !s.updating { s.still = (location, now) }
          return nil
        }
        guard now - still.since >= .seconds(300) else { return nil }
        let arrival = still.anchor.timestamp
        s.visit = (still.anchor.coordinate, arrival)
        return VisitEvent(arrival: arrival, departure: .distantFuture, coordinate: still.anchor.coordinate)
      }
      guard let event else { return }
      deliver("didVisit") { manager, delegate in
        let visit = CLVisit(
          arrivalDate: event.arrival, departureDate: event.departure, coordinate: event.coordinate, horizontalAccuracy: 50)
        delegate.locationManager(manager, didVisit: visit)
      }
    }

    // MARK: Regions

    func startMonitoring(_ region: CLRegion) {
      let permission = bound.phone.state
      let failure: CLError.Code? =
        if region.circle == nil {
          .regionMonitoringFailure  // beacons are not emulated
        } else if region.circle!.radius > Self.maximumRegionRadius || region.circle!.radius <= 0 {
          .regionMonitoringFailure
        } else if permission.accuracy == .reduced || !permission.servicesEnabled
          || ![.authorizedAlways, .authorizedWhenInUse].contains(permission.appStatus)
        {
          .regionMonitoringDenied
        } else if !RegionRegistry.of(bound.phone).add(
          .region(region.identifier), center: region.circle!.center, radius: region.circle!.radius, region: region)
        {
          .regionMonitoringFailure  // the app's 20 regions are taken
        } else {
          nil
        }
      if let failure {
        deliver("monitoringDidFail") { manager, delegate in
          delegate.locationManager(manager, monitoringDidFailFor: region, withError: CLError(failure))
        }
        return
      }
      deliver("didStartMonitoring") { manager, delegate in delegate.locationManager(manager, didStartMonitoringFor: region) }
    }

    func stopMonitoring(_ region: CLRegion) { RegionRegistry.of(bound.phone).remove(.region(region.identifier)) }

    func requestState(_ region: CLRegion) {
      let state = RegionRegistry.of(bound.phone).state(of: .region(region.identifier))
      deliver("didDetermineState") { manager, delegate in delegate.locationManager(manager, didDetermineState: state, for: region) }
    }

    /// A boundary transition, to every manager of the app: `didDetermineState` on every one
    /// (Apple: "whenever there is a boundary transition for a region … in addition to calling
    /// the locationManager(_:didEnterRegion:) and locationManager(_:didExitRegion:) methods"),
    /// then entry or exit when the region asks for it (`notifyOnEntry`, `notifyOnExit`). The
    /// first decision after monitoring starts is no transition (an app asks for it with
    /// `requestState(for:)`).
    func geofence(_ key: GeofenceKey, decided state: CLRegionState, from: CLRegionState) {
      guard from != .unknown, state != from, case .region(let identifier) = key,
        let region = RegionRegistry.of(bound.phone).regions.first(where: { $0.identifier == identifier })
      else { return }
      deliver("didDetermineState") { manager, delegate in delegate.locationManager(manager, didDetermineState: state, for: region) }
      if state == .inside, region.notifyOnEntry {
        deliver("didEnterRegion") { manager, delegate in delegate.locationManager(manager, didEnterRegion: region) }
      } else if state == .outside, region.notifyOnExit {
        deliver("didExitRegion") { manager, delegate in delegate.locationManager(manager, didExitRegion: region) }
      }
    }
  }

  struct WeakManager {
    weak var object: CLLocationManager?
  }
}

extension CLLocationSourceInformation {
  /// What the emulator's locations carry.
  static var simulated: CLLocationSourceInformation {
    CLLocationSourceInformation(softwareSimulationState: true, andExternalAccessoryState: false)
  }
}

extension Double {
  func clamped(_ low: Double, _ high: Double) -> Double { Swift.min(high, Swift.max(low, self)) }
}

/// Full accuracy for a while, for an app with approximate location: the prompt is answered as
/// the phone's scripted user answers (any "allow" grants it, after the prompt's delay), and the
/// grant ends when the app leaves the foreground, as on iOS.
enum TemporaryFullAccuracy {
  static func request(on bound: BoundPhone) {
    let phone = bound.phone
    let script = phone.promptScript
    guard script.answer != .deny, script.answer != .none else { return }
    _ = phone.clock.schedule(after: script.delay) {
      guard phone.state.app == .foreground, phone.state.accuracy == .reduced else { return }
      let ended = Locked<PhoneObservation?>(nil)
      let observation = phone.observe(.stateChanged) { event in
        guard case .stateChanged(let from, let to) = event else { return }
        if to.app == .background, from.app == .foreground {
          ended.withLock { $0 }?.cancel()
          if to.accuracy == .full { _ = phone.apply(.accuracy(.reduced)) }
        } else if to.accuracy == .reduced {
          ended.withLock { $0 }?.cancel()  // the user turned it off: nothing to end
        }
      }
      ended.withLock { $0 = observation }
      _ = phone.apply(.accuracy(.full))
    }
  }
}
