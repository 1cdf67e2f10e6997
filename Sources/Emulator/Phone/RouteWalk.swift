import Foundation
import Geo
public import LocationModel

/// A route of waypoints walked at a constant speed, one fix every `interval` (what
/// `xcrun simctl location start --speed --interval` does): positions along the great-circle
/// legs, the course of the leg, and the last waypoint once more, standing still.
public struct RouteWalk: Sendable, Hashable {
  /// The points the route passes, in order.
  public var waypoints: [Coordinate]
  /// Metres per second.
  public var speed: Double
  /// The time between fixes.
  public var interval: Duration

  /// The most fixes a route may make (a day at 1 Hz).
  public static let maxFixes = 86_400

  /// A route along `waypoints`.
  /// - Parameters:
  ///   - waypoints: the points the route passes, in order.
  ///   - speed: the walking speed, in metres per second.
  ///   - interval: the time between fixes.
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

extension RouteWalk {
  /// The route as the phone's timeline: fix `i` at `i × interval`, stamped by the phone.
  public func script(_ fixes: [LocationFix]) -> [ScriptedFix] {
    fixes.enumerated().map { ScriptedFix(at: interval * $0.offset, fix: $0.element) }
  }
}

extension PhoneSource {
  /// A walk (or a drive) along `waypoints` at `speed` metres per second, one fix every
  /// `interval`, each stamped by the phone, then the last waypoint standing still: what
  /// `xcrun simctl location start --speed --interval` does to a simulator. Nil when the route
  /// would make more than ``RouteWalk/maxFixes`` fixes.
  ///
  /// ```swift
  /// let phone = EmulatedPhone(.init(source: .route([home, park], speed: 1.4)!))
  /// ```
  public static func route(_ waypoints: [Coordinate], speed: Double, interval: Duration = .seconds(1)) -> PhoneSource? {
    let walk = RouteWalk(waypoints: waypoints, speed: speed, interval: interval)
    return walk.fixes().map { .script(walk.script($0)) }
  }
}
