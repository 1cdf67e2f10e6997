import Foundation
import Geo

/// How fast a device moves along a trace whose points have no times.
public enum TracePace: Sendable, Hashable, CustomStringConvertible {
  /// 1.4 m/s, a brisk city walk.
  case walk
  /// 13.9 m/s (50 km/h), urban driving.
  case drive
  /// Any constant speed, metres per second.
  case metresPerSecond(Double)

  public var metresPerSecond: Double {
    switch self {
    case .walk: 1.4
    case .drive: 13.9
    case .metresPerSecond(let v): v
    }
  }

  public var description: String { "\(metresPerSecond) m/s" }
}

/// Turns a GPX document's path (see ``GPXDocument/path``) into epochs.
///
/// When every point has a `<time>`, each point is one epoch at its time, with
/// speed and course from the step to it (or GPX 1.0's own values). Otherwise
/// the device moves along the path at a constant ``TracePace`` and reports
/// every `interval` seconds, as Xcode's location simulation does; those epochs
/// have trace times from 0 and no timestamps (replay can give them one).
public final class GPXTraceReader: TraceReader {
  public let document: GPXDocument
  private let points: [GPXPoint]
  private let timed: Bool
  private let pace: TracePace
  private let interval: Double
  private var index = 0
  // Timeless walk: position along the path.
  private var segment = 0
  private var distanceIntoSegment = 0.0
  private var elapsed = 0.0
  private var done = false

  public init(document: GPXDocument, pace: TracePace = .walk, interval: Double = 1) {
    self.document = document
    points = document.path
    timed = !points.isEmpty && points.allSatisfy { $0.time != nil }
    self.pace = pace
    self.interval = interval
  }

  public var summary: String {
    "\(points.count) GPX points\(timed ? "" : " without times, moving at \(pace)")"
      + (document.invalidPoints > 0 ? ", \(document.invalidPoints) invalid skipped" : "")
  }

  public func next() throws -> TraceEpoch? { timed ? nextTimed() : nextInterpolated() }

  private func nextTimed() -> TraceEpoch? {
    guard index < points.count else { return nil }
    defer { index += 1 }
    let p = points[index]
    var fix = LocationFix(
      timestamp: p.time, mode: p.fix ?? (p.elevation == nil ? .twoD : .threeD), coordinate: p.coordinate,
      altitudeMSL: p.elevation, speed: p.speed, course: p.course,
      horizontalAccuracy: p.hdop.map { $0 * LocationFix.userEquivalentRangeError },
      verticalAccuracy: p.vdop.map { $0 * LocationFix.userEquivalentRangeError })
    // Speed and course from the step into this point (out of it, for the first point).
    let (a, b) = index > 0 ? (points[index - 1], p) : (p, points.count > 1 ? points[1] : p)
    if let ta = a.time, let tb = b.time, tb > ta {
      let distance = a.coordinate.distance(to: b.coordinate)
      if fix.speed == nil { fix.speed = distance / tb.timeIntervalSince(ta) }
      if fix.course == nil, distance > 0 { fix.course = a.coordinate.bearing(to: b.coordinate) }
    }
    if fix.mode == .noFix { fix = LocationFix(timestamp: p.time, mode: .noFix) }
    return TraceEpoch(fix: fix, traceTime: p.time!.timeIntervalSince1970)
  }

  private func nextInterpolated() -> TraceEpoch? {
    guard !done, !points.isEmpty else { return nil }
    let speed = pace.metresPerSecond
    // Walk forward until the position lies within a segment (or the path ends).
    while segment < points.count - 1 {
      let length = points[segment].coordinate.distance(to: points[segment + 1].coordinate)
      if distanceIntoSegment <= length, length > 0 { break }
      distanceIntoSegment -= length
      segment += 1
    }
    let epoch: TraceEpoch
    if segment >= points.count - 1 {
      // The last point, reported once, standing still.
      done = true
      let p = points[points.count - 1]
      let course = points.count > 1 ? points[points.count - 2].coordinate.bearing(to: p.coordinate) : nil
      epoch = TraceEpoch(fix: fix(at: p.coordinate, elevation: p.elevation, speed: 0, course: course), traceTime: elapsed)
    } else {
      let a = points[segment], b = points[segment + 1]
      let length = a.coordinate.distance(to: b.coordinate)
      let f = min(1, distanceIntoSegment / length)
      let elevation: Double? =
        if let ea = a.elevation, let eb = b.elevation { ea + (eb - ea) * f } else { nil }
      epoch = TraceEpoch(
        fix: fix(
          at: a.coordinate.interpolated(to: b.coordinate, fraction: f), elevation: elevation, speed: speed,
          course: a.coordinate.bearing(to: b.coordinate)),
        traceTime: elapsed)
    }
    elapsed += interval
    distanceIntoSegment += speed * interval
    return epoch
  }

  private func fix(at coordinate: Coordinate, elevation: Double?, speed: Double, course: Double?) -> LocationFix {
    LocationFix(
      mode: elevation == nil ? .twoD : .threeD, coordinate: coordinate, altitudeMSL: elevation, speed: speed,
      course: course)
  }
}
