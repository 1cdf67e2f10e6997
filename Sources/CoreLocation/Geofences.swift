import Emulator
import Foundation
import Geo
import LocationModel

/// Whether a device is inside a circle, by iOS's documented criteria: a change of side counts
/// once the device is a margin past the boundary (100 m, or half the radius for a small circle)
/// and has stayed there for 20 s; the first fix decides the initial state at once. A value:
/// its owner keeps the hold's deadline on the phone's clock.
struct GeofenceStateMachine: Sendable {
  let center: CLLocationCoordinate2D
  let radius: CLLocationDistance
  private(set) var state = CLRegionState.unknown
  /// A change of side on hold: the state it would be, since when.
  private(set) var candidate: (state: CLRegionState, since: Duration)?

  /// How long the device must stay past the boundary.
  static let hold: Duration = .seconds(20)

  init(center: CLLocationCoordinate2D, radius: CLLocationDistance) {
    self.center = center
    self.radius = radius
  }

  /// How far past the boundary counts.
  var margin: Double { min(100, radius / 2) }

  /// What a fix at `coordinate` at `now` does: a new state when one is decided (the first, or a
  /// change held long enough), and a deadline to arm when a change begins its hold.
  mutating func observe(_ coordinate: CLLocationCoordinate2D, at now: Duration) -> (decided: CLRegionState?, armAt: Duration?) {
    let d = CLLocation.distance(center, coordinate)
    let side: CLRegionState? = d <= radius - margin ? .inside : d >= radius + margin ? .outside : nil
    // Within the margin (or the first fix there): nothing changes, a hold ends.
    guard let side else {
      candidate = nil
      return (nil, nil)
    }
    if state == .unknown {
      state = side
      candidate = nil
      return (side, nil)
    }
    if side == state {
      candidate = nil
      return (nil, nil)
    }
    if let candidate, candidate.state == side {
      return now - candidate.since >= Self.hold ? (commit(), nil) : (nil, nil)
    }
    candidate = (side, now)
    return (nil, now + Self.hold)
  }

  /// The hold's deadline came: the change is decided if it still holds.
  mutating func holdEnded(at now: Duration) -> CLRegionState? {
    guard let candidate, now - candidate.since >= Self.hold else { return nil }
    return commit()
  }

  private mutating func commit() -> CLRegionState {
    state = candidate!.state
    candidate = nil
    return state
  }
}

/// What is told of a circle's decided states: a location manager (its regions) or a monitor
/// (its conditions).
protocol GeofenceListener: AnyObject, Sendable {
  /// The circle `key` was decided `state` (from `from`, `.unknown` for the first decision).
  func geofence(_ key: GeofenceKey, decided state: CLRegionState, from: CLRegionState)
}

/// Whose a circle is: a region of the app's location managers, or a condition of a monitor.
enum GeofenceKey: Hashable, Sendable {
  case region(String)
  case condition(monitor: String, identifier: String)
}

/// The circles an app monitors on one phone (regions of its location managers and conditions
/// of its monitors, at most 20 together, as on iOS), followed on the phone's receiver while the
/// app may use location (Always, or when in use in the foreground) with precise location.
///
/// As on iOS they outlive whoever started them: a region stays monitored when its manager goes
/// away, and every location manager of the app hears of it (`monitoredRegions` is the app's);
/// a monitor's conditions wait for the next monitor of the same name.
final class RegionRegistry: Sendable {
  struct Entry {
    let key: GeofenceKey
    /// The region, for a location manager's.
    var region: CLRegion?
    var geofence: GeofenceStateMachine
    var timer: EmulatorClock.Timer?
  }

  private struct Weak {
    weak var object: (any GeofenceListener)?
  }

  /// Circles an app may monitor at once.
  static let limit = 20

  private let phone: WeakPhone
  private let entries = Locked<(list: [Entry], observation: PhoneObservation?)>(([], nil))
  /// Who hears of regions (the app's location managers) and of each monitor's conditions.
  private let listeners = Locked<(managers: [Weak], monitors: [String: Weak])>(([], [:]))

  private init(phone: EmulatedPhone) { self.phone = WeakPhone(phone) }

  /// The registry of `phone` (made on first use).
  static func of(_ phone: EmulatedPhone) -> RegionRegistry { phone.attachment { RegionRegistry(phone: phone) } }

  /// A location manager of the app: told of every region.
  func attachManager(_ listener: any GeofenceListener) {
    listeners.withLock { l in
      l.managers.removeAll { $0.object == nil }
      l.managers.append(Weak(object: listener))
    }
  }

  /// The monitor open under `name` now: told of that name's conditions.
  func attachMonitor(_ name: String, _ listener: any GeofenceListener) {
    listeners.withLock { $0.monitors[name] = Weak(object: listener) }
  }

  /// The location managers' regions.
  var regions: [CLRegion] { entries.withLock { $0.list.compactMap(\.region) } }

  /// Adds (or replaces, by key) a circle; false when the app's limit is reached. A fix already
  /// known decides its first state at once.
  func add(_ key: GeofenceKey, center: CLLocationCoordinate2D, radius: CLLocationDistance, region: CLRegion? = nil) -> Bool {
    guard let phone = phone.object else { return false }
    let start = entries.withLock { e -> Bool? in
      if let index = e.list.firstIndex(where: { $0.key == key }) {
        if let timer = e.list[index].timer { phone.clock.cancel(timer) }
        e.list.remove(at: index)
      }
      guard e.list.count < Self.limit else { return nil }
      e.list.append(Entry(key: key, region: region, geofence: GeofenceStateMachine(center: center, radius: radius)))
      return e.observation == nil
    }
    guard let start else { return false }
    if start {
      let observation = phone.observe(.sourceFix) { [weak self] event in
        if case .sourceFix(let fix) = event { self?.received(fix) }
      }
      entries.withLock { $0.observation = observation }
    }
    if let fix = phone.latestFix, !phone.isFixLost { received(fix, only: key) }
    return true
  }

  func remove(_ key: GeofenceKey) { remove { $0.key == key } }

  /// The conditions of the monitor `name`.
  func removeAll(ofMonitor name: String) {
    remove {
      if case .condition(name, _) = $0.key { true } else { false }
    }
  }

  func conditions(ofMonitor name: String) -> [(identifier: String, state: CLRegionState)] {
    entries.withLock { e in
      e.list.compactMap { entry in
        guard case .condition(name, let identifier) = entry.key else { return nil }
        return (identifier, entry.geofence.state)
      }
    }
  }

  /// Tells the listeners of `key` what was decided.
  private func tell(_ key: GeofenceKey, _ state: CLRegionState, from: CLRegionState) {
    let targets: [any GeofenceListener] = listeners.withLock { l in
      switch key {
      case .region: l.managers.compactMap(\.object)
      case .condition(let monitor, _): l.monitors[monitor]?.object.map { [$0] } ?? []
      }
    }
    for target in targets { target.geofence(key, decided: state, from: from) }
  }

  private func remove(where match: (Entry) -> Bool) {
    let (timers, observation) = entries.withLock { e -> ([EmulatorClock.Timer], PhoneObservation?) in
      let timers = e.list.filter(match).compactMap(\.timer)
      e.list.removeAll(where: match)
      guard e.list.isEmpty else { return (timers, nil) }
      defer { e.observation = nil }
      return (timers, e.observation)
    }
    if let clock = phone.object?.clock { for timer in timers { clock.cancel(timer) } }
    observation?.cancel()
  }

  func state(of key: GeofenceKey) -> CLRegionState {
    entries.withLock { $0.list.first { $0.key == key }?.geofence.state } ?? .unknown
  }

  var count: Int { entries.withLock { $0.list.count } }

  private func received(_ fix: LocationFix, only: GeofenceKey? = nil) {
    guard let phone = phone.object, let c = fix.coordinate, fix.hasFix else { return }
    let permission = phone.state
    guard CLLocationManager.Engine.mayUseInBackground(permission), permission.accuracy == .full else { return }
    let coordinate = CLLocationCoordinate2D(latitude: c.latitude, longitude: c.longitude)
    let now = phone.elapsed
    var events: [(Entry, CLRegionState, from: CLRegionState)] = []
    entries.withLock { e in
      for i in e.list.indices where only == nil || e.list[i].key == only {
        let before = e.list[i].geofence.state
        let (decided, armAt) = e.list[i].geofence.observe(coordinate, at: now)
        if let decided { events.append((e.list[i], decided, before)) }
        if let armAt {
          if let timer = e.list[i].timer { phone.clock.cancel(timer) }
          let key = e.list[i].key
          e.list[i].timer = phone.clock.schedule(at: phone.startedAt.advanced(by: armAt)) { [weak self] in
            self?.holdEnded(key)
          }
        }
      }
    }
    for (entry, state, from) in events { tell(entry.key, state, from: from) }
  }

  private func holdEnded(_ key: GeofenceKey) {
    guard let phone = phone.object else { return }
    let now = phone.elapsed
    let event = entries.withLock { e -> (Entry, CLRegionState, CLRegionState)? in
      guard let i = e.list.firstIndex(where: { $0.key == key }) else { return nil }
      e.list[i].timer = nil
      let before = e.list[i].geofence.state
      guard CLLocationManager.Engine.mayUseInBackground(phone.state), let decided = e.list[i].geofence.holdEnded(at: now) else {
        return nil
      }
      return (e.list[i], decided, before)
    }
    if let (entry, state, from) = event { tell(entry.key, state, from: from) }
  }
}

/// How many of an app's location users want its locations in the background (managers that
/// allow background updates, background activity sessions): while any does, the phone lets
/// them through for an app authorized when in use.
final class BackgroundUse: Sendable {
  private let phone: WeakPhone
  private let count = Locked(0)

  private init(phone: EmulatedPhone) { self.phone = WeakPhone(phone) }

  static func of(_ phone: EmulatedPhone) -> BackgroundUse { phone.attachment { BackgroundUse(phone: phone) } }

  func acquire() {
    let first = count.withLock { c -> Bool in
      c += 1
      return c == 1
    }
    if first { phone.object?.setBackgroundLocationUpdates(true) }
  }

  func release() {
    let last = count.withLock { c -> Bool in
      c = max(0, c - 1)
      return c == 0
    }
    if last { phone.object?.setBackgroundLocationUpdates(false) }
  }
}

/// A phone held weakly (registries must not keep phones alive).
struct WeakPhone: @unchecked Sendable {
  weak var object: EmulatedPhone?
  init(_ phone: EmulatedPhone) { object = phone }
}
