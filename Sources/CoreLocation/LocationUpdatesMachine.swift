import Emulator
import Foundation
import Geo
import LocationModel

/// Whether the device has stayed within a radius of one place for a time: what pauses a
/// manager's updates, marks a live update stationary, and makes a visit.
struct StillnessDetector: Sendable {
  /// What a location says about the device.
  enum Reading: Equatable {
    /// It left the place (or there was none): the place is now where it is.
    case moved
    /// Within the radius, not yet for the time.
    case settling
    /// Within the radius for the time or longer.
    case still
  }

  /// A place: where the device came to it, when (its location's timestamp) and at what time of
  /// the phone's clock.
  struct Place {
    let coordinate: Coordinate
    let date: Date
    let since: Duration
  }

  let radius: CLLocationDistance
  let time: Duration
  private(set) var place: Place?

  init(radius: CLLocationDistance, time: Duration) {
    self.radius = radius
    self.time = time
  }

  init(pauseRule rule: (radius: Double, time: Duration)) { self.init(radius: rule.radius, time: rule.time) }

  /// Reads a location at `coordinate`, stamped `date`, seen at `now`.
  mutating func observe(_ coordinate: Coordinate, date: Date, at now: Duration) -> Reading {
    if let place, coordinate.isDistance(to: place.coordinate, atMost: radius) {
      return now - place.since >= time ? .still : .settling
    }
    place = Place(coordinate: coordinate, date: date, since: now)
    return .moved
  }

  /// Forgets the place.
  mutating func reset() { place = nil }
}

/// A location manager's rules, as values: what the delegate is told for each thing the phone
/// or the app does. Pure (no clock, no lock, no phone): the engine feeds it under its lock with
/// what it read before, and performs the actions it returns after releasing it. It reads the
/// phone's fixes and makes a `CLLocation` only for one it delivers.
struct LocationUpdatesMachine {
  struct Settings: Equatable {
    var distanceFilter = kCLDistanceFilterNone
    var desiredAccuracy = kCLLocationAccuracyBest
    var activityType = CLActivityType.other
    var pausesAutomatically = true
    var allowsBackground = false
    var significantChanges = false
    var visits = false
  }

  /// What the delegate is told (in the order returned).
  enum Action {
    /// `locationManagerDidChangeAuthorization` (and the old `didChangeAuthorization`); `later`:
    /// after the code that made the manager has run, as iOS makes the first call.
    case changeAuthorization(CLAuthorizationStatus, later: Bool)
    case updateLocations(CLLocation)
    case pause
    case resume
    case fail(CLError.Code)
    case visit(arrival: Date, departure: Date, coordinate: CLLocationCoordinate2D)
  }

  var settings = Settings()
  /// The permission as the manager last heard of it (in the phone's order of events).
  private(set) var permission = PermissionState()
  private(set) var updating = false
  private(set) var paused = false
  /// The last location the app got (``CLLocationManager/location``).
  private(set) var lastLocation: CLLocation?
  /// Where the device stays put for updates' pauses (radius and time by activity).
  private var pausePlace = StillnessDetector(pauseRule: pauseRule(.other))
  /// Where the last location delivered by the standard service was (the distance filter
  /// measures from it).
  private var lastUpdate: Coordinate?
  private var lastSignificant: (coordinate: Coordinate, at: Duration)?
  /// Where the device stays put for visits: 50 m for five minutes arrives.
  private var visitPlace = StillnessDetector(radius: 50, time: .seconds(300))
  private var visit: (coordinate: Coordinate, arrival: Date)?
  private var reported: (status: CLAuthorizationStatus, accuracy: CLAccuracyAuthorization)?
  private var unknownReported = false
  /// Whether a location was delivered since updates last started.
  private var deliveredSinceStart = false
  private var deniedReported = false

  /// How long updates may go from their start with no location before the delegate hears
  /// `.locationUnknown`. Apple: "If the location service is unable to retrieve a location right
  /// away, it reports a `CLError.Code.locationUnknown` error and keeps trying." The SDK gives no
  /// figure; 10 s is the emulator's one-shot request deadline (`requestLocation()` gives up with
  /// the same error then), so both ways of asking learn at the same moment that no fix is to be
  /// had, and a receiver's cold start (its first fix within seconds) comes first.
  static let noLocationReport: Duration = .seconds(10)

  // MARK: Authorization

  /// The permission is `permission` now; `force`: tell the delegate even if nothing changed
  /// (a new manager's first call).
  mutating func authorization(_ permission: PermissionState, force: Bool) -> [Action] {
    self.permission = permission
    let status = Self.status(of: permission)
    let accuracy: CLAccuracyAuthorization = permission.accuracy == .full ? .fullAccuracy : .reducedAccuracy
    if !force, let reported, reported.status == status, reported.accuracy == accuracy { return [] }
    reported = (status, accuracy)
    return [.changeAuthorization(status, later: force)]
  }

  /// The permission changed: besides the authorization call, updates that lose their
  /// permission fail with `.denied` (once), as on iOS.
  mutating func permissionChanged(to permission: PermissionState) -> [Action] {
    var actions = authorization(permission, force: false)
    let denied = !permission.isDelivering && permission.unavailableReason != .inBackground && permission.unavailableReason != .notDetermined
    if updating, denied, !deniedReported {
      deniedReported = true
      actions.append(.fail(.denied))
    } else if !denied {
      deniedReported = false
    }
    return actions
  }

  static func status(of state: PermissionState) -> CLAuthorizationStatus {
    switch state.status {
    case .notDetermined: .notDetermined
    case .restricted: .restricted
    case .denied: .denied
    case .authorizedWhenInUse: .authorizedWhenInUse
    case .authorizedAlways: .authorizedAlways
    }
  }

  // MARK: Standard updates

  /// `startUpdatingLocation()`: an app that may not have locations now hears why (as on iOS).
  mutating func startUpdating(_ permission: PermissionState) -> [Action] {
    self.permission = permission
    updating = true
    paused = false
    unknownReported = false
    deliveredSinceStart = false
    guard !permission.isDelivering, permission.unavailableReason != .notDetermined, permission.unavailableReason != .inBackground
    else { return [] }
    deniedReported = true
    return [.fail(.denied)]
  }

  mutating func stopUpdating() {
    updating = false
    paused = false
    pausePlace.reset()
  }

  /// A one-time request's location.
  mutating func requested(_ location: CLLocation) -> [Action] {
    lastLocation = location
    return [.updateLocations(location)]
  }

  /// A fix the phone delivered to the app (permission allowing), on the phone's `date`, at
  /// `now`; the manager gets it as its desired accuracy does (``coarsened(_:to:)``).
  mutating func delivered(_ fix: LocationFix, date: Date, at now: Duration) -> [Action] {
    let foreground = permission.app == .foreground
    guard let coordinate = fix.coordinate else { return [] }
    enum Outcome { case deliver, pause, resume, nothing }
    var outcome = Outcome.nothing
    if updating {
      outcome = .deliver
      if let lastUpdate, settings.distanceFilter > 0, coordinate.isDistance(to: lastUpdate, lessThan: settings.distanceFilter) {
        outcome = .nothing
      }
      // Pauses: the device stayed within the activity's radius for its time.
      let rule = Self.pauseRule(settings.activityType)
      if pausePlace.radius != rule.radius || pausePlace.time != rule.time { pausePlace = StillnessDetector(pauseRule: rule) }
      switch pausePlace.observe(coordinate, date: fix.timestamp ?? date, at: now) {
      case .still where paused: outcome = .nothing
      case .settling where paused: outcome = .nothing
      case .still where settings.pausesAutomatically:
        paused = true
        outcome = .pause
      case .still, .settling: break
      case .moved where paused && foreground:
        paused = false
        outcome = .resume
      case .moved where paused: outcome = .nothing
      case .moved: break
      }
      if outcome == .deliver || outcome == .resume { lastUpdate = coordinate }
    }
    // Significant changes: ~500 m and ~5 minutes since the last one.
    let farEnough = lastSignificant.map { !coordinate.isDistance(to: $0.coordinate, lessThan: 500) && now - $0.at >= .seconds(300) } ?? true
    let significant = settings.significantChanges && outcome != .deliver && outcome != .resume && farEnough
    if settings.significantChanges, significant || outcome == .deliver || outcome == .resume, farEnough {
      lastSignificant = (coordinate, now)
    }
    guard outcome == .deliver || outcome == .resume || significant else { return outcome == .pause ? [.pause] : [] }
    let location = Self.coarsened(CLLocation(fix, date: date), to: settings.desiredAccuracy)
    lastLocation = location
    unknownReported = false
    deliveredSinceStart = true
    return outcome == .resume ? [.resume, .updateLocations(location)] : [.updateLocations(location)]
  }

  /// `startMonitoringSignificantLocationChanges()`: the first location comes at once, when
  /// there is one the app may have.
  mutating func significantStarted(with location: CLLocation?, at now: Duration) -> [Action] {
    settings.significantChanges = true
    guard let location, lastSignificant == nil,
      let coordinate = Coordinate(latitude: location.coordinate.latitude, longitude: location.coordinate.longitude)
    else { return [] }
    lastSignificant = (coordinate, now)
    lastLocation = location
    return [.updateLocations(location)]
  }

  // MARK: The receiver

  /// The receiver lost its fix: while updating, "still trying" (`.locationUnknown`), once until
  /// the next location.
  mutating func fixLost() -> [Action] {
    guard updating, !paused, !unknownReported, permission.isDelivering else { return [] }
    unknownReported = true
    return [.fail(.locationUnknown)]
  }

  /// Updates started ``noLocationReport`` ago and no location came: "still trying"
  /// (`.locationUnknown`), once; the updates go on, and the first fix is delivered as usual.
  mutating func noLocationYet() -> [Action] {
    guard updating, !paused, !unknownReported, !deliveredSinceStart, permission.isDelivering else { return [] }
    unknownReported = true
    return [.fail(.locationUnknown)]
  }

  /// Visits, from every epoch of the receiver while the app may use location in the
  /// background (a fix on the phone's `date`, at `now`): five minutes within 50 m arrive;
  /// leaving 100 m behind departs.
  mutating func received(_ fix: LocationFix, date: Date, at now: Duration) -> [Action] {
    guard settings.visits, Self.mayUseInBackground(permission), let coordinate = fix.coordinate else { return [] }
    let stamp = fix.timestamp ?? date
    if let visit {
      guard !coordinate.isDistance(to: visit.coordinate, atMost: 100) else { return [] }
      self.visit = nil
      visitPlace.reset()
      _ = visitPlace.observe(coordinate, date: stamp, at: now)
      return [.visit(arrival: visit.arrival, departure: stamp, coordinate: visit.coordinate.clCoordinate)]
    }
    guard visitPlace.observe(coordinate, date: stamp, at: now) == .still, let place = visitPlace.place else { return [] }
    visit = (place.coordinate, place.date)
    return [.visit(arrival: place.date, departure: .distantFuture, coordinate: place.coordinate.clCoordinate)]
  }

  // MARK: Rules

  /// Whether the app may have location events now: Always, or when in use in the foreground.
  static func mayUseInBackground(_ permission: PermissionState) -> Bool {
    guard permission.servicesEnabled else { return false }
    return permission.appStatus == .authorizedAlways || (permission.appStatus == .authorizedWhenInUse && permission.app == .foreground)
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
  static func coarsened(_ location: CLLocation, to desired: CLLocationAccuracy) -> CLLocation {
    guard desired >= kCLLocationAccuracyKilometer, location.horizontalAccuracy < desired else { return location }
    return CLLocation(
      coordinate: location.coordinate, altitude: 0, horizontalAccuracy: desired, verticalAccuracy: -1, course: -1,
      courseAccuracy: -1, speed: -1, speedAccuracy: -1, timestamp: location.timestamp,
      sourceInfo: location.sourceInformation ?? .simulated)
  }
}

extension Coordinate {
  var clCoordinate: CLLocationCoordinate2D { CLLocationCoordinate2D(latitude: latitude, longitude: longitude) }
}
