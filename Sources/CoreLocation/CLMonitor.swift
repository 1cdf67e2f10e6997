import Emulator
public import Foundation
import Geo
import LocationModel

/// A condition a ``CLMonitor`` watches: a circle (``CLMonitor/CircularGeographicCondition``) or
/// a beacon (``CLMonitor/BeaconIdentityCondition``, which the emulator does not support).
public protocol CLCondition: Codable, Sendable {}

/// The monitoring state of a condition, with the SDK's raw values.
public enum __CLMonitoringState: UInt, Sendable {
  case unknown = 0
  case satisfied = 1
  case unsatisfied = 2
  /// Not monitored (iOS 17.2): over the app's limit, unsupported, or not authorized.
  case unmonitored = 3
}

/// Conditions and their events (iOS 17): circles decided by iOS's region criteria (a margin
/// past the boundary held for 20 s), at most 20 per app together with the location managers'
/// regions; none while the app may not use location in the background (Always, or when in use
/// in the foreground) or has approximate location only.
///
/// As on iOS the conditions outlive the monitor: a monitor opened again under the same name (on
/// the same phone) finds them, with their last events.
public actor CLMonitor {
  /// The events of every condition, in the phone's order, from when the monitor was opened.
  public nonisolated let events: Events
  private let core: MonitorCore

  /// Opens the monitor `name` on the phone of the code running now.
  public init(_ name: String) async {
    core = MonitorCore(name: name, bound: BoundPhone.current)
    events = Events(core: core)
    core.open()
  }

  deinit { core.close() }

  /// The identifiers of the conditions, in the order they were added.
  public var identifiers: [String] { core.identifiers }

  /// Adds (or replaces) `condition`, assuming it is in `state` until it is decided.
  public func add(_ condition: any CLCondition, identifier: String, assuming state: Event.State = .unknown) {
    core.add(condition, identifier: identifier, assuming: state)
  }

  /// Stops monitoring the condition `identifier` and forgets its record.
  ///
  /// - Parameter identifier: The identifier the condition was added with.
  public func remove(_ identifier: String) { core.remove(identifier) }

  /// The condition and its last event.
  public func record(for identifier: String) -> Record? { core.record(for: identifier) }

  /// The monitor's events, in order; ends when the monitor goes away or its task is cancelled.
  public struct Events: AsyncSequence, Sendable {
    /// The elements: the conditions' events.
    public typealias Element = Event
    let core: MonitorCore

    /// Creates an iterator over the monitor's events.
    ///
    /// - Returns: A new iterator.
    public func makeAsyncIterator() -> Iterator { Iterator(core: core) }

    /// The iterator of the monitor's events.
    public struct Iterator: AsyncIteratorProtocol {
      let core: MonitorCore
      /// The next event, waiting on the phone's clock until there is one.
      ///
      /// - Returns: The next event; nil once the monitor goes away or the task is cancelled.
      /// - Throws: Never, in fact: throwing as iOS declares it.
      public mutating func next() async throws -> Event? { await core.subscription.next() }
    }
  }

  /// A condition's state at one moment, and what stands in the way of monitoring it.
  public struct Event: Sendable {
    /// A condition's monitoring state: unknown, satisfied, unsatisfied or unmonitored.
    public typealias State = __CLMonitoringState
    /// The identifier of the condition the event is about.
    public let identifier: String
    /// The condition that was met more precisely (never, on the emulator).
    public let refinement: (any CLCondition)?
    /// The condition's state: satisfied inside a circle, unsatisfied outside, or unmonitored.
    public let state: State
    /// When the state was decided, on the phone's clock.
    public let date: Date
    let flags: LocationDiagnostics
    let limitExceeded: Bool
    let unsupported: Bool

    init(
      identifier: String, state: State, date: Date, flags: LocationDiagnostics = LocationDiagnostics(), limitExceeded: Bool = false,
      unsupported: Bool = false
    ) {
      self.identifier = identifier
      refinement = nil
      self.state = state
      self.date = date
      self.flags = flags
      self.limitExceeded = limitExceeded
      self.unsupported = unsupported
    }

    /// The app or Location Services (system-wide) are denied.
    public var authorizationDenied: Bool { flags.authorizationDenied }
    /// Location Services are off.
    public var authorizationDeniedGlobally: Bool { flags.authorizationDeniedGlobally }
    /// The app's authorization is restricted (by parental controls or a profile on iOS).
    public var authorizationRestricted: Bool { flags.authorizationRestricted }
    /// The app, authorized when in use, is not in use (in the background, with no session).
    public var insufficientlyInUse: Bool { flags.insufficientlyInUse }
    /// The app has approximate location only.
    public var accuracyLimited: Bool { flags.accuracyLimited }
    /// The condition is of a kind the emulator does not monitor (beacons).
    public var conditionUnsupported: Bool { unsupported }
    /// The app monitors 20 conditions and regions already.
    public var conditionLimitExceeded: Bool { limitExceeded }
    /// Never: the emulator keeps conditions in memory, for the phone's life.
    public var persistenceUnavailable: Bool { false }
    /// The app requires explicit service sessions and holds none (never on the emulator, which reads no Info.plist).
    public var serviceSessionRequired: Bool { flags.serviceSessionRequired }
    /// The permission prompt is on screen.
    public var authorizationRequestInProgress: Bool { flags.authorizationRequestInProgress }
  }

  /// A condition and its last event.
  public struct Record: Sendable {
    /// The condition, as it was added.
    public let condition: any CLCondition
    /// The condition's last event (the assumed state until one is decided).
    public let lastEvent: Event
  }

  /// A circle: satisfied inside, unsatisfied outside.
  public struct CircularGeographicCondition: CLCondition {
    /// The circle's centre.
    public let center: CLLocationCoordinate2D
    /// The circle's radius, metres.
    public let radius: CLLocationDistance

    /// A circle around `center`.
    ///
    /// - Parameters:
    ///   - center: The circle's centre.
    ///   - radius: The circle's radius, metres.
    public init(center: CLLocationCoordinate2D, radius: CLLocationDistance) {
      self.center = center
      self.radius = radius
    }

    private enum CodingKeys: String, CodingKey { case center, radius }
    private enum CenterKeys: String, CodingKey { case latitude, longitude }

    // By hand: CLLocationCoordinate2D is not Codable (as in the SDK).
    /// Decodes a circle: its centre's latitude and longitude, and its radius.
    ///
    /// - Parameter decoder: The decoder to read from.
    /// - Throws: The decoder's error when a value is missing or of the wrong type.
    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      let center = try container.nestedContainer(keyedBy: CenterKeys.self, forKey: .center)
      self.center = CLLocationCoordinate2D(
        latitude: try center.decode(Double.self, forKey: .latitude), longitude: try center.decode(Double.self, forKey: .longitude))
      radius = try container.decode(Double.self, forKey: .radius)
    }

    /// Encodes the circle: its centre's latitude and longitude, and its radius.
    ///
    /// - Parameter encoder: The encoder to write to.
    /// - Throws: The encoder's error.
    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      var center = container.nestedContainer(keyedBy: CenterKeys.self, forKey: .center)
      try center.encode(self.center.latitude, forKey: .latitude)
      try center.encode(self.center.longitude, forKey: .longitude)
      try container.encode(radius, forKey: .radius)
    }
  }

  /// A beacon, by identity. Beacons are not emulated: a monitor reports it unmonitored, with
  /// ``Event/conditionUnsupported``.
  public struct BeaconIdentityCondition: CLCondition {
    /// The beacons' UUID.
    public let uuid: UUID
    /// The beacons' major value; nil for any.
    public let major: CLBeaconMajorValue?
    /// The beacons' minor value; nil for any.
    public let minor: CLBeaconMinorValue?

    /// The beacons with `uuid`, whatever their major and minor values.
    ///
    /// - Parameter uuid: The beacons' UUID.
    public init(uuid: UUID) { self.init(uuid, nil, nil) }
    /// The beacons with `uuid` and `major`, whatever their minor value.
    ///
    /// - Parameters:
    ///   - uuid: The beacons' UUID.
    ///   - major: The beacons' major value.
    public init(uuid: UUID, major: CLBeaconMajorValue) { self.init(uuid, major, nil) }
    /// The beacon with `uuid`, `major` and `minor`.
    ///
    /// - Parameters:
    ///   - uuid: The beacon's UUID.
    ///   - major: The beacon's major value.
    ///   - minor: The beacon's minor value.
    public init(uuid: UUID, major: CLBeaconMajorValue, minor: CLBeaconMinorValue) { self.init(uuid, major, minor) }

    private init(_ uuid: UUID, _ major: CLBeaconMajorValue?, _ minor: CLBeaconMinorValue?) {
      self.uuid = uuid
      self.major = major
      self.minor = minor
    }
  }
}

/// A monitor's workings: its records (kept per phone and name, as iOS keeps them across
/// launches), its place in the app's circles, and the events it queues for its consumer.
final class MonitorCore: GeofenceListener, Sendable {
  enum Unmonitored: Sendable { case permission, limit, unsupported }

  struct Entry: Sendable {
    let identifier: String
    let condition: any CLCondition
    var lastEvent: CLMonitor.Event
    var unmonitored: Unmonitored?
  }

  let name: String
  let bound: BoundPhone
  let subscription: PhoneSubscription<CLMonitor.Event>
  private let store: MonitorStore
  private let observation = Locked<PhoneObservation?>(nil)

  init(name: String, bound: BoundPhone) {
    self.name = name
    self.bound = bound
    subscription = PhoneSubscription(clock: bound.clock, limit: 1024)
    store = MonitorStore.of(bound.phone)
  }

  private var registry: RegionRegistry { RegionRegistry.of(bound.phone) }

  /// Whether the app may have its circles monitored now.
  private static func mayMonitor(_ state: PermissionState) -> Bool {
    CLLocationManager.Engine.mayUseInBackground(state) && state.accuracy == .full
  }

  func open() {
    registry.attachMonitor(name, self)
    let observation = bound.phone.observe(.stateChanged) { [weak self] event in
      if case .stateChanged(let from, let to) = event { self?.permissionChanged(from: from, to: to) }
    }
    self.observation.withLock { $0 = observation }
    // What was decided while no monitor of this name was open.
    for (identifier, state) in registry.conditions(ofMonitor: name) where state != .unknown {
      decided(identifier, state)
    }
  }

  func close() {
    observation.withLock { $0 }?.cancel()
    subscription.finish()
  }

  var identifiers: [String] { store.entries(name).map(\.identifier) }

  func record(for identifier: String) -> CLMonitor.Record? {
    store.entries(name).first { $0.identifier == identifier }.map { CLMonitor.Record(condition: $0.condition, lastEvent: $0.lastEvent) }
  }

  func add(_ condition: any CLCondition, identifier: String, assuming assumed: CLMonitor.Event.State) {
    let phone = bound.phone
    let now = phone.state
    var entry = Entry(
      identifier: identifier, condition: condition, lastEvent: CLMonitor.Event(identifier: identifier, state: assumed, date: phone.date))
    registry.remove(.condition(monitor: name, identifier: identifier))
    var event: CLMonitor.Event?
    if let circle = condition as? CLMonitor.CircularGeographicCondition {
      if !Self.mayMonitor(now) {
        entry.unmonitored = .permission
        event = CLMonitor.Event(identifier: identifier, state: .unmonitored, date: phone.date, flags: LocationDiagnostics(now))
      } else if circle.radius <= 0 || circle.radius > CLLocationManager.Engine.maximumRegionRadius
        || !registry.add(.condition(monitor: name, identifier: identifier), center: circle.center, radius: circle.radius)
      {
        entry.unmonitored = .limit
        event = CLMonitor.Event(identifier: identifier, state: .unmonitored, date: phone.date, limitExceeded: circle.radius > 0)
      }
    } else {
      entry.unmonitored = .unsupported
      event = CLMonitor.Event(identifier: identifier, state: .unmonitored, date: phone.date, unsupported: true)
    }
    if let event { entry.lastEvent = event }
    store.put(name, entry)
    if let event { subscription.deliver(event) }
    // A fix already known decided the circle as it was added.
    let state = registry.state(of: .condition(monitor: name, identifier: identifier))
    if state != .unknown { decided(identifier, state) }
  }

  func remove(_ identifier: String) {
    registry.remove(.condition(monitor: name, identifier: identifier))
    store.remove(name, identifier)
  }

  func geofence(_ key: GeofenceKey, decided state: CLRegionState, from: CLRegionState) {
    guard case .condition(name, let identifier) = key else { return }
    decided(identifier, state)
  }

  private func decided(_ identifier: String, _ region: CLRegionState) {
    let state: CLMonitor.Event.State = region == .inside ? .satisfied : .unsatisfied
    let event = CLMonitor.Event(identifier: identifier, state: state, date: bound.phone.date)
    let changed = store.update(name, identifier) { entry -> Bool in
      guard entry.lastEvent.state != state else { return false }
      entry.lastEvent = event
      entry.unmonitored = nil
      return true
    }
    if changed { subscription.deliver(event) }
  }

  /// Monitoring stops while the app may not have it (an event each), and starts again after.
  private func permissionChanged(from: PermissionState, to: PermissionState) {
    let was = Self.mayMonitor(from), now = Self.mayMonitor(to)
    guard was != now else { return }
    let date = bound.phone.date
    if !now {
      var events: [CLMonitor.Event] = []
      for entry in store.entries(name) where entry.unmonitored == nil {
        let event = CLMonitor.Event(identifier: entry.identifier, state: .unmonitored, date: date, flags: LocationDiagnostics(to))
        store.update(name, entry.identifier) { e -> Bool in
          e.lastEvent = event
          e.unmonitored = .permission
          return true
        }
        registry.remove(.condition(monitor: name, identifier: entry.identifier))
        events.append(event)
      }
      for event in events { subscription.deliver(event) }
    } else {
      for entry in store.entries(name) where entry.unmonitored == .permission {
        guard let circle = entry.condition as? CLMonitor.CircularGeographicCondition else { continue }
        if registry.add(.condition(monitor: name, identifier: entry.identifier), center: circle.center, radius: circle.radius) {
          let state = registry.state(of: .condition(monitor: name, identifier: entry.identifier))
          if state != .unknown { decided(entry.identifier, state) }
        }
      }
    }
  }
}

/// The monitors' records of one phone, by monitor name (made on first use, kept for the phone's life).
final class MonitorStore: Sendable {
  private let table = Locked<[String: [MonitorCore.Entry]]>([:])

  static func of(_ phone: EmulatedPhone) -> MonitorStore { phone.attachment { MonitorStore() } }

  func entries(_ name: String) -> [MonitorCore.Entry] { table.withLock { $0[name] ?? [] } }

  func put(_ name: String, _ entry: MonitorCore.Entry) {
    table.withLock { t in
      var list = t[name] ?? []
      if let i = list.firstIndex(where: { $0.identifier == entry.identifier }) { list[i] = entry } else { list.append(entry) }
      t[name] = list
    }
  }

  func remove(_ name: String, _ identifier: String) { table.withLock { $0[name]?.removeAll { $0.identifier == identifier } } }

  @discardableResult
  func update(_ name: String, _ identifier: String, _ change: (inout MonitorCore.Entry) -> Bool) -> Bool {
    table.withLock { t in
      guard let i = t[name]?.firstIndex(where: { $0.identifier == identifier }) else { return false }
      return change(&t[name]![i])
    }
  }
}
