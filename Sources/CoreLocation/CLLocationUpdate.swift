import Emulator
import Foundation
import Geo
import LocationModel

/// One element of ``liveUpdates(_:)`` (iOS 17): a location, or none with the reason why
/// (iOS 18's diagnostics), as iOS yields them.
public struct CLLocationUpdate: Sendable {
  /// The location; nil for an update that only says why there is none.
  public var location: CLLocation? { storage.location }
  /// The device has stopped moving: updates pause until it moves again (iOS 17).
  public var isStationary: Bool { storage.stationary }
  /// The device has stopped moving (iOS 18's name).
  public var stationary: Bool { storage.stationary }
  /// The app or Location Services (system-wide) are denied.
  public var authorizationDenied: Bool { storage.diagnostics.authorizationDenied }
  /// Location Services are off.
  public var authorizationDeniedGlobally: Bool { storage.diagnostics.authorizationDeniedGlobally }
  /// The app's authorization is restricted (parental controls or a device policy).
  public var authorizationRestricted: Bool { storage.diagnostics.authorizationRestricted }
  /// The permission prompt is on screen.
  public var authorizationRequestInProgress: Bool { storage.diagnostics.authorizationRequestInProgress }
  /// The app, authorized when in use, is not in use (in the background, with no session).
  public var insufficientlyInUse: Bool { storage.diagnostics.insufficientlyInUse }
  /// The receiver has no fix.
  public var locationUnavailable: Bool { storage.diagnostics.locationUnavailable }
  /// The app has approximate location only.
  public var accuracyLimited: Bool { storage.diagnostics.accuracyLimited }
  /// The app requires explicit service sessions and holds none (never on the emulator, which
  /// reads no Info.plist).
  public var serviceSessionRequired: Bool { storage.diagnostics.serviceSessionRequired }

  struct Storage: Sendable {
    var location: CLLocation?
    var stationary = false
    var diagnostics = LocationDiagnostics()
  }

  let storage: Storage

  init(_ storage: Storage) { self.storage = storage }

  /// Locations from now on, from the phone of the code that calls this (see the article
  /// "Running your CoreLocation code on Linux"), as long as the iteration goes on. As on iOS 18:
  /// an app whose authorization is not determined is asked (when in use) once iterating starts
  /// in the foreground; while it may not have locations, updates without one say why, once per
  /// change; a device that stops moving gets one stationary update, then none until it moves.
  public static func liveUpdates(_ configuration: LiveConfiguration = .default) -> Updates {
    Updates(bound: BoundPhone.current, configuration: configuration)
  }

  /// The kind of activity the updates are for: decides when the device counts as stationary.
  public enum LiveConfiguration: Equatable, Hashable, Sendable {
    /// Everyday use: the defaults of `CLActivityType.other`.
    case `default`
    /// Driving directions.
    case automotiveNavigation
    /// Directions other than by car, such as by boat or train.
    case otherNavigation
    /// Walking, running or cycling.
    case fitness
    /// Flying.
    case airborne

    var activityType: CLActivityType {
      switch self {
      case .default: .other
      case .automotiveNavigation: .automotiveNavigation
      case .otherNavigation: .otherNavigation
      case .fitness: .fitness
      case .airborne: .airborne
      }
    }
  }

  /// The sequence of updates. Each iteration follows the phone from when it starts; it ends
  /// when its task is cancelled or the phone shuts down.
  public struct Updates: AsyncSequence, Sendable {
    /// The elements: location updates.
    public typealias Element = CLLocationUpdate
    let bound: BoundPhone
    let configuration: LiveConfiguration

    /// Starts an iteration: it follows the phone from now.
    ///
    /// - Returns: A new iterator.
    public func makeAsyncIterator() -> Iterator { Iterator(feed: LiveUpdateFeed(bound: bound, configuration: configuration)) }

    /// The iterator of the updates; it stops following the phone when it goes away.
    public struct Iterator: AsyncIteratorProtocol {
      let feed: LiveUpdateFeed

      /// The next update, waiting on the phone's clock until there is one.
      ///
      /// - Returns: The next update; nil once the task is cancelled or the phone shuts down.
      /// - Throws: Never, in fact: throwing as iOS declares it.
      public mutating func next() async throws -> CLLocationUpdate? { await feed.subscription.next() }
    }
  }
}

/// One iteration of live updates: observes the phone synchronously (in the phone's order) and
/// queues updates for the iterating task, which waits on the phone's clock. Ends (no observer
/// left) when the iterator goes away, its task is cancelled, or the phone shuts down.
final class LiveUpdateFeed: Sendable {
  private struct State {
    var observation: PhoneObservation?
    var diagnostics: LocationDiagnostics?
    var place: StillnessDetector
    var stationary = false
  }

  let subscription: PhoneSubscription<CLLocationUpdate>
  private let bound: BoundPhone
  private let state: Locked<State>

  init(bound: BoundPhone, configuration: CLLocationUpdate.LiveConfiguration) {
    self.bound = bound
    state = Locked(State(place: StillnessDetector(pauseRule: LocationUpdatesMachine.pauseRule(configuration.activityType))))
    subscription = PhoneSubscription(clock: bound.clock, limit: 256)
    let phone = bound.phone
    let observation = phone.observe([.stateChanged, .location, .sourceFix]) { [weak self] event in self?.handle(event) }
    state.withLock { $0.observation = observation }
    subscription.whenEnded { [weak self] in self?.stop() }
    // iOS 18: iterating asks for authorization (an implicit service session) when none is decided.
    let now = phone.state
    if now.appStatus == .notDetermined, now.servicesEnabled, now.app == .foreground, !now.promptShown {
      bound.requestAuthorization(always: false)
    }
    report(phone.state)
  }

  deinit { stop() }

  private func stop() {
    let observation = state.withLock { s in
      defer { s.observation = nil }
      return s.observation
    }
    observation?.cancel()
  }

  private func handle(_ event: PhoneEvent) {
    switch event {
    case .stateChanged(_, let to): report(to)
    case .location(let fix): delivered(fix)
    case .sourceFix(let fix) where !fix.hasFix: report(bound.phone.state, fixLost: true)
    case .sourceFix: report(bound.phone.state)
    default: break
    }
  }

  /// An update without location when the reasons for none changed (once per change).
  private func report(_ permission: PermissionState, fixLost: Bool? = nil) {
    let lost = fixLost ?? bound.phone.isFixLost
    let diagnostics = LocationDiagnostics(permission, fixLost: lost)
    let send = state.withLock { s -> Bool in
      guard s.diagnostics != diagnostics else { return false }
      s.diagnostics = diagnostics
      return diagnostics.withholdsLocations
    }
    if send { subscription.deliver(CLLocationUpdate(.init(location: nil, diagnostics: diagnostics))) }
  }

  private func delivered(_ fix: LocationFix) {
    guard fix.hasFix, let coordinate = fix.coordinate else { return }
    let phone = bound.phone
    let location = CLLocation(fix, date: phone.date)
    let now = phone.elapsed
    let diagnostics = LocationDiagnostics(phone.state)
    let update = state.withLock { s -> CLLocationUpdate.Storage? in
      s.diagnostics = diagnostics
      switch s.place.observe(coordinate, date: location.timestamp, at: now) {
      case .still where s.stationary, .settling where s.stationary: return nil
      case .still:
        s.stationary = true
        return .init(location: location, stationary: true, diagnostics: diagnostics)
      case .settling: break
      case .moved: s.stationary = false
      }
      return .init(location: location, diagnostics: diagnostics)
    }
    if let update { subscription.deliver(CLLocationUpdate(update)) }
  }
}
