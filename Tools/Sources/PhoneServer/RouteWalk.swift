import Emulator
import Foundation
import Geo
package import LocationServices

/// A route of waypoints walked at a constant speed, one fix every `interval` (what
/// `xcrun simctl location start --speed --interval` does): positions along the great-circle
/// legs, the course of the leg, and the last waypoint once more, standing still.
package struct RouteWalk: Sendable, Hashable {
  package var waypoints: [Coordinate]
  /// Metres per second.
  package var speed: Double
  package var interval: Duration

  /// The most fixes a route may make (a day at 1 Hz).
  package static let maxFixes = 86_400

  package init(waypoints: [Coordinate], speed: Double, interval: Duration) {
    self.waypoints = waypoints
    self.speed = speed
    self.interval = interval
  }

  /// The fixes, the first at offset zero and one every `interval` after it; nil when the
  /// route would make more than ``maxFixes``.
  package func fixes() -> [LocationFix]? {
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
  func script(_ fixes: [LocationFix]) -> [ScriptedFix] {
    fixes.enumerated().map { ScriptedFix(at: interval * $0.offset, fix: $0.element) }
  }
}
