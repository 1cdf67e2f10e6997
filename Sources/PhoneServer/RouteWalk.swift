import Emulator
import Foundation
public import Geo

/// A route of waypoints walked at a constant speed, one fix every `interval` (what
/// `xcrun simctl location start --speed --interval` does): positions along the great-circle
/// legs, the course of the leg, and the last waypoint once more, standing still.
public struct RouteWalk: Sendable, Hashable {
  public var waypoints: [Coordinate]
  /// Metres per second.
  public var speed: Double
  public var interval: Duration

  /// The most fixes a route may make (a day at 1 Hz).
  public static let maxFixes = 86_400

  public init(waypoints: [Coordinate], speed: Double, interval: Duration) {
    self.waypoints = waypoints
    self.speed = speed
    self.interval = interval
  }

  /// The fixes, the first at offset zero and one every `interval` after it; nil when the
  /// route would make more than ``maxFixes``.
  public func fixes() -> [LocationFix]? {
    guard let first = waypoints.first else { return [] }
    let step = speed * interval.seconds
    var out: [LocationFix] = []
    var leg = 0
    var along = 0.0
    while leg < waypoints.count - 1 {
      let a = waypoints[leg], b = waypoints[leg + 1]
      let length = a.distance(to: b)
      if along > length || length == 0 {
        along -= length
        leg += 1
        continue
      }
      let position = a.interpolated(to: b, fraction: along / length)
      out.append(
        LocationFix(mode: .twoD, coordinate: position, speed: speed, course: a.bearing(to: b), horizontalAccuracy: 5))
      if out.count > Self.maxFixes { return nil }
      along += step
    }
    let last = waypoints[waypoints.count - 1]
    let course = waypoints.count > 1 ? waypoints[waypoints.count - 2].bearing(to: last) : nil
    out.append(LocationFix(mode: .twoD, coordinate: waypoints.count > 1 ? last : first, speed: 0, course: course, horizontalAccuracy: 5))
    return out
  }
}

extension ServedPhone {
  /// Walks `route` on the phone's clock, stamping each fix with the phone's date; a route
  /// already walking stops first. The fixes arrive as a receiver's would (`receiveNow`), so the
  /// permission gate, the reduced-accuracy throttle and the transcript see them as any other.
  public func start(_ route: RouteWalk, fixes: [LocationFix]) {
    stopRoute()
    let clock = phone.clock
    let start = clock.now
    let generation = routeState.withLock { state -> Int in
      state.generation += 1
      return state.generation
    }
    schedule(index: 0, of: fixes, from: start, interval: route.interval, generation: generation)
  }

  private func schedule(index: Int, of fixes: [LocationFix], from start: EmulatorClock.Instant, interval: Duration, generation: Int) {
    guard index < fixes.count else {
      // The walk is over: the last waypoint has been reported.
      routeState.withLock { state in if state.generation == generation { state.timer = nil } }
      return
    }
    let clock = phone.clock
    let at = start.advanced(by: interval * index)
    let timer = clock.schedule(at: at) { [weak self] in
      guard let self, self.routeState.withLock({ $0.generation == generation }) else { return }
      var fix = fixes[index]
      fix.timestamp = self.phone.configuration.startDate.addingTimeInterval(self.phone.elapsed.seconds)
      self.phone.receiveNow(fix)
      self.schedule(index: index + 1, of: fixes, from: start, interval: interval, generation: generation)
    }
    routeState.withLock { state in
      if state.generation == generation { state.timer = timer } else { clock.cancel(timer) }
    }
  }

  /// Stops a route being walked (no effect when none is).
  public func stopRoute() {
    let timer = routeState.withLock { state -> EmulatorClock.Timer? in
      state.generation += 1
      defer { state.timer = nil }
      return state.timer
    }
    if let timer { phone.clock.cancel(timer) }
  }

  /// Whether a route is being walked.
  public var isWalkingRoute: Bool { routeState.withLock { $0.timer != nil } }
}
