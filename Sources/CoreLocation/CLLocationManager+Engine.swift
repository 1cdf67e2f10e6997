import Emulator
import Foundation
import Geo
import LocationModel

extension CLLocationManager {
  /// The manager's workings on its phone: it observes the phone synchronously (on the phone's
  /// clock, in order), feeds what happens to the manager's rules (``LocationUpdatesMachine``)
  /// under its one lock, and has ``DelegateDelivery`` make the calls those return, where the
  /// manager was made, after releasing it. Holds the manager weakly: a manager that goes away
  /// stops being told anything, and leaves no observer behind.
  final class Engine: GeofenceListener, Sendable {
    typealias Settings = LocationUpdatesMachine.Settings

    private struct Core {
      var machine = LocationUpdatesMachine()
      var oneShot: CancellationHandle?
      var observation: PhoneObservation?
      /// Whether this manager holds the phone's background use (``CLLocationManager/allowsBackgroundLocationUpdates``).
      var backgroundHeld = false
      /// Key-value observers of the manager's properties (`observe(_:options:changeHandler:)`,
      /// Combine's `publisher(for:)`), by registration.
      var changeObservers: [UInt64: @Sendable () -> Void] = [:]
      var nextChangeObserver: UInt64 = 0
      /// The deadline after which updates that got no location report `.locationUnknown`.
      var noLocationTimer: EmulatorClock.Timer?
      /// A one-shot request the app's going to the background suspended: it is asked again when
      /// the app returns to the foreground.
      var suspendedOneShot = false
    }

    let bound: BoundPhone
    let delivery: DelegateDelivery
    private let core = Locked(Core())
    private let manager = Locked(WeakManager())

    /// The largest radius a region may have.
    static let maximumRegionRadius: CLLocationDistance = 400_000

    /// The phone's clock, start and start date, read once: each fix reads the time from them
    /// without going through the phone.
    private let clock: EmulatorClock
    private let startedAt: EmulatorClock.Instant
    private let startDate: Date

    init(bound: BoundPhone, delivery: DelegateDelivery) {
      self.bound = bound
      self.delivery = delivery
      clock = bound.phone.clock
      startedAt = bound.phone.startedAt
      startDate = bound.phone.configuration.startDate
    }

    /// The phone's time since it started, and its date then.
    private var now: (elapsed: Duration, date: Date) {
      let elapsed = startedAt.duration(to: clock.now)
      return (elapsed, startDate.addingTimeInterval(elapsed.seconds))
    }

    /// Starts observing the phone; the delegate hears of the authorization once.
    func attach(_ manager: CLLocationManager) {
      self.manager.withLock { $0.object = manager }
      // Held strongly: the manager's deinit cancels the observation (``detach()``), and none
      // is called once that has returned.
      let observation = bound.phone.observe([.stateChanged, .location, .sourceFix]) { event in self.handle(event) }
      core.withLock { $0.observation = observation }
      RegionRegistry.of(bound.phone).attachManager(self)
      let permission = bound.phone.state
      run { $0.authorization(permission, force: true) }
    }

    /// The manager went away: no observer, no region, no call left.
    func detach() {
      let (observation, oneShot, held, timer) = core.withLock { c in
        defer {
          c.observation = nil
          c.oneShot = nil
          c.noLocationTimer = nil
          c.suspendedOneShot = false
        }
        return (c.observation, c.oneShot, c.backgroundHeld, c.noLocationTimer)
      }
      observation?.cancel()
      oneShot?.cancel()
      if let timer { clock.cancel(timer) }
      if held { BackgroundUse.of(bound.phone).release() }
    }

    /// The manager's settings (its properties), read or changed.
    func withSettings<T>(_ body: (inout Settings) -> T) -> T { core.withLock { body(&$0.machine.settings) } }

    /// The last location the app got.
    var lastLocation: CLLocation? { core.withLock { $0.machine.lastLocation } }

    /// Feeds the machine under the lock, then makes the calls it returns.
    private func run(_ change: (inout LocationUpdatesMachine) -> [LocationUpdatesMachine.Action]) {
      // Whether anyone observes the manager's properties, read under the same lock.
      let (actions, observed) = core.withLock { (change(&$0.machine), !$0.changeObservers.isEmpty) }
      for action in actions { perform(action, observed: observed) }
    }

    private func perform(_ action: LocationUpdatesMachine.Action, observed: Bool) {
      switch action {
      case .changeAuthorization(let status, let later):
        if observed { propertiesChanged(later: later) }
        deliver("didChangeAuthorization", later: later) { manager, delegate in
          delegate.locationManagerDidChangeAuthorization(manager)
          delegate.locationManager(manager, didChangeAuthorization: status)
        }
      case .updateLocations(let location):
        if observed { propertiesChanged(later: false) }
        deliver("didUpdateLocations") { manager, delegate in delegate.locationManager(manager, didUpdateLocations: [location]) }
      case .pause: deliver("didPause") { manager, delegate in delegate.locationManagerDidPauseLocationUpdates(manager) }
      case .resume: deliver("didResume") { manager, delegate in delegate.locationManagerDidResumeLocationUpdates(manager) }
      case .fail(let code): fail(code)
      case .visit(let arrival, let departure, let coordinate):
        // The CLVisit (not Sendable, as in the SDK) is made where it is delivered.
        deliver("didVisit") { manager, delegate in
          let visit = CLVisit(arrivalDate: arrival, departureDate: departure, coordinate: coordinate, horizontalAccuracy: 50)
          delegate.locationManager(manager, didVisit: visit)
        }
      }
    }

    /// Registers a key-value observer: called where the delegate is, after each change of the
    /// manager's location or authorization, whether or not it has a delegate (on iOS the
    /// properties change, and KVO reports it, before the delegate hears of it).
    func addChangeObserver(_ observer: @escaping @Sendable () -> Void) -> UInt64 {
      core.withLock { c in
        c.nextChangeObserver += 1
        c.changeObservers[c.nextChangeObserver] = observer
        return c.nextChangeObserver
      }
    }

    func removeChangeObserver(_ id: UInt64) {
      _ = core.withLock { $0.changeObservers.removeValue(forKey: id) }
    }

    /// The observers registered when the call runs, in the order they were registered.
    private func propertiesChanged(later: Bool) {
      let core = self.core
      let call: @Sendable () -> Void = {
        let observers = core.withLock { $0.changeObservers.sorted { $0.key < $1.key }.map(\.value) }
        for observer in observers { observer() }
      }
      later ? delivery.deliverLater("keyValueObservers", call) : delivery.deliver("keyValueObservers", call)
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

    func fail(_ code: CLError.Code) {
      deliver("didFailWithError") { manager, delegate in delegate.locationManager(manager, didFailWithError: CLError(code)) }
    }

    private func handle(_ event: PhoneEvent) {
      switch event {
      case .stateChanged(let from, let to):
        run { $0.permissionChanged(to: to) }
        if from.app == .background, to.app == .foreground { resumeSuspendedRequest() }
      case .location(let fix): delivered(fix)
      case .sourceFix(let fix): received(fix)
      default: break
      }
    }

    // MARK: Authorization

    static func status(of state: PermissionState) -> CLAuthorizationStatus { LocationUpdatesMachine.status(of: state) }

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
      let (allows, changed) = core.withLock { c -> (Bool, Bool) in
        let allows = c.machine.settings.allowsBackground
        defer { c.backgroundHeld = allows }
        return (allows, c.backgroundHeld != allows)
      }
      guard changed else { return }
      let use = BackgroundUse.of(bound.phone)
      allows ? use.acquire() : use.release()
    }

    // MARK: Standard updates

    func startUpdating() {
      let permission = bound.phone.state
      // Its own deadline: no location by then is reported once (``LocationUpdatesMachine/noLocationReport``).
      let timer = clock.schedule(after: LocationUpdatesMachine.noLocationReport) { [weak self] in self?.run { $0.noLocationYet() } }
      let (oneShot, actions, observed, previous) = core.withLock { c in
        defer {
          c.oneShot = nil
          c.suspendedOneShot = false
          c.noLocationTimer = timer
        }
        return (c.oneShot, c.machine.startUpdating(permission), !c.changeObservers.isEmpty, c.noLocationTimer)
      }
      oneShot?.cancel()
      if let previous { clock.cancel(previous) }
      for action in actions { perform(action, observed: observed) }
    }

    func stopUpdating() {
      let timer = core.withLock { c in
        defer { c.noLocationTimer = nil }
        c.machine.stopUpdating()
        return c.noLocationTimer
      }
      if let timer { clock.cancel(timer) }
    }

    func requestLocation() {
      // The request is marked as under way before it starts: its answer may come on another
      // thread before `requestLocation` returns, and must find the mark to clear it.
      let handle = CancellationHandle()
      let started = core.withLock { c -> Bool in
        guard !c.machine.updating, c.oneShot == nil else { return false }
        c.oneShot = handle
        return true
      }
      guard started else { return }
      bound.requestLocation(handle) { [weak self] result in
        guard let self else { return }
        core.withLock { c in
          if c.oneShot === handle { c.oneShot = nil }
        }
        if let fix = result.fix, fix.hasFix {
          let location = CLLocation(fix, date: bound.phone.date)
          run { $0.requested(location) }
        } else if result.reason == .inBackground, bound.phone.state.app == .background {
          // Apple: "If the user stops using your app, any outstanding requests suspend until the
          // user resumes using your app." No answer now; asked again on the return.
          core.withLock { $0.suspendedOneShot = true }
        } else {
          fail(result.reason == .locationUnavailable || result.reason == .inBackground ? .locationUnknown : .denied)
        }
      }
    }

    /// The app is back in the foreground: a one-shot request its leaving suspended goes on, with
    /// a deadline of its own from now.
    private func resumeSuspendedRequest() {
      let suspended = core.withLock { c in
        defer { c.suspendedOneShot = false }
        return c.suspendedOneShot
      }
      if suspended { requestLocation() }
    }

    /// A fix the phone delivered to the app.
    private func delivered(_ fix: LocationFix) {
      guard fix.hasFix else { return }
      let (now, date) = self.now
      run { $0.delivered(fix, date: date, at: now) }
    }

    /// The phone's latest fix as the app may have it now (nil when permission withholds it).
    var latestPhoneLocation: CLLocation? {
      let phone = bound.phone
      return phone.latestFix.flatMap { fix in fix.hasFix && phone.state.isDelivering ? CLLocation(fix, date: phone.date) : nil }
    }

    /// The first significant-change location comes at once, when there is one.
    func significantStarted() {
      let phone = bound.phone
      let location = latestPhoneLocation
      let now = phone.elapsed
      run { $0.significantStarted(with: location, at: now) }
    }

    // MARK: The receiver (visits, a lost fix)

    /// An epoch of the phone's receiver, whatever the app may have.
    private func received(_ fix: LocationFix) {
      guard fix.hasFix else { return run { $0.fixLost() } }
      guard withSettings({ $0.visits }) else { return }
      let (now, date) = self.now
      run { $0.received(fix, date: date, at: now) }
    }

    /// Whether the app may have location events now: Always, or when in use in the foreground.
    static func mayUseInBackground(_ permission: PermissionState) -> Bool { LocationUpdatesMachine.mayUseInBackground(permission) }

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
