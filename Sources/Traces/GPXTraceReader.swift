import Foundation
import Geo
import LocationModel
import NMEA

/// How fast a device moves along a trace whose points have no times.
public enum TracePace: Sendable, Hashable, CustomStringConvertible {
  /// 1.4 m/s, a brisk city walk.
  case walk
  /// 13.9 m/s (50 km/h), urban driving.
  case drive
  /// Any constant speed, metres per second.
  case metresPerSecond(Double)

  /// The pace's speed, metres per second.
  public var metresPerSecond: Double {
    switch self {
    case .walk: 1.4
    case .drive: 13.9
    case .metresPerSecond(let v): v
    }
  }

  /// The speed, such as `1.4 m/s`.
  public var description: String { "\(metresPerSecond) m/s" }
}

/// Turns a GPX file's path (see ``GPXDocument/path``) into epochs, reading it as a stream:
/// memory holds a few points whatever the file's size.
///
/// When the first point has a `<time>`, each point is one epoch at its time, with speed and
/// course from the step to it (or GPX 1.0's own values); later points without a time are
/// counted and skipped. Otherwise the device moves along the path at a constant
/// ``TracePace`` and reports every `interval` seconds, as Xcode's location simulation does;
/// those epochs have trace times from 0 and no timestamps (replay can give them one).
///
/// The path is the tracks if there are any, else the routes, else the waypoints: routes and
/// waypoints (small in practice) are held until the document shows it has no track.
public final class GPXTraceReader: TraceReader {
  private var stream: any TracePointSource
  /// What the points are, for the summary: GPX, KML or GeoJSON.
  private let documentFormat: String
  private let path: String
  private let pace: TracePace
  private let interval: Double
  // The path's points, pulled one at a time.
  private var sawTrack = false
  private var held: (routes: [GPXPoint], waypoints: [GPXPoint]) = ([], [])
  private var fallback: [GPXPoint]?
  private var fallbackIndex = 0
  private var lookahead: GPXPoint?
  private var pointsRead = 0
  private var untimedSkipped = 0
  private var timed: Bool?
  private var previous: GPXPoint?
  // Timeless walk: the segment a → b and the position along it.
  private var a: GPXPoint?
  private var b: GPXPoint?
  private var distanceIntoSegment = 0.0
  private var elapsed = 0.0
  private var done = false

  /// Opens `path` (`-` for standard input) as a stream.
  /// - Throws: ``TraceFileError`` when it cannot be opened.
  public convenience init(path: String, pace: TracePace = .walk, interval: Double = 1) throws {
    try self.init(input: ByteInput(path: path), pace: pace, interval: interval)
  }

  init(input: ByteInput, pace: TracePace = .walk, interval: Double = 1) throws {
    stream = try GPXPointStream(input: input)
    documentFormat = "GPX"
    self.path = input.path
    self.pace = pace
    self.interval = interval
  }

  /// The points of a KML or GeoJSON document, read whole (see ``TracePointList``).
  init(points: TracePointList, format: String, path: String, pace: TracePace, interval: Double = 1) {
    stream = points
    documentFormat = format
    self.path = path
    self.pace = pace
    self.interval = interval
  }

  /// The points read (and, without times, the pace they were walked at) and the points skipped.
  public var summary: String {
    var text = "\(pointsRead) \(documentFormat) points\(timed == false ? " without times, moving at \(pace)" : "")"
    if stream.invalidPoints > 0 { text += ", \(stream.invalidPoints) invalid skipped" }
    if untimedSkipped > 0 { text += ", \(untimedSkipped) without a time in a timed track skipped" }
    return text
  }

  /// Ends the read: ``next()`` returns nil from now on.
  public func close() {
    done = true
    timed = timed ?? true
    lookahead = nil
    fallback = []
  }

  /// The next epoch: the next timed point, or the next position along an untimed path; nil at the end.
  /// - Returns: the next epoch, or nil.
  /// - Throws: ``TraceFileError`` when the input cannot be read or is not a valid document.
  public func next() throws -> TraceEpoch? {
    do {
      if timed == nil {
        guard let first = try peek() else { return nil }
        timed = first.time != nil
      }
      return timed == true ? try nextTimed() : try nextInterpolated()
    } catch let error as GPXError {
      throw TraceFileError(path: path, message: error.description)
    }
  }

  // MARK: The path, a point at a time

  /// The path's next point without taking it.
  private func peek() throws -> GPXPoint? {
    if lookahead == nil { lookahead = try pull() }
    return lookahead
  }

  private func take() throws -> GPXPoint? {
    if let point = lookahead {
      lookahead = nil
      return point
    }
    return try pull()
  }

  private func pull() throws -> GPXPoint? {
    if done { return nil }
    if let fallback {
      defer { fallbackIndex += 1 }
      return fallbackIndex < fallback.count ? counted(fallback[fallbackIndex]) : nil
    }
    while let item = try stream.next() {
      switch item {
      case .point(let point, .track):
        if !sawTrack { held = ([], []) }
        sawTrack = true
        return counted(point)
      case .point(let point, .route) where !sawTrack: held.routes.append(point)
      case .point(let point, .waypoint) where !sawTrack: held.waypoints.append(point)
      default: break
      }
    }
    if sawTrack { fallback = [] } else { fallback = held.routes.isEmpty ? held.waypoints : held.routes }
    held = ([], [])
    return try pull()
  }

  private func counted(_ point: GPXPoint) -> GPXPoint {
    pointsRead += 1
    return point
  }

  // MARK: Epochs

  private func nextTimed() throws -> TraceEpoch? {
    var point: GPXPoint?
    while let candidate = try take() {
      if candidate.time != nil {
        point = candidate
        break
      }
      untimedSkipped += 1
    }
    guard let p = point, let time = p.time else { return nil }
    var fix = LocationFix(
      timestamp: time, mode: p.fix ?? (p.elevation == nil ? .twoD : .threeD), coordinate: p.coordinate,
      altitudeMSL: p.elevation, altitudeHAE: p.elevation.flatMap { e in p.geoidHeight.map { e + $0 } },
      speed: p.speed, course: p.course,
      horizontalAccuracy: p.hdop.map { $0 * GPSDRangeErrors.standalone.position },
      verticalAccuracy: p.vdop.map { $0 * GPSDRangeErrors.standalone.vertical })
    // Speed and course from the step into this point (out of it, for the first point).
    let next = previous == nil ? try peek() : nil
    let (from, to) = previous.map { ($0, p) } ?? (p, next ?? p)
    if let ta = from.time, let tb = to.time, tb > ta {
      let distance = from.coordinate.distance(to: to.coordinate)
      if fix.speed == nil { fix.speed = distance / tb.timeIntervalSince(ta) }
      if fix.course == nil, distance > 0 { fix.course = from.coordinate.bearing(to: to.coordinate) }
    }
    previous = p
    if fix.mode == .noFix { fix = LocationFix(timestamp: time, mode: .noFix) }
    return TraceEpoch(fix: fix, traceTime: time.timeIntervalSince1970, receiver: receiver(p))
  }

  private func receiver(_ point: GPXPoint) -> ReceiverDetails {
    let quality: Int? =
      switch point.fixType {
      case nil: nil
      case .some(.none): 0
      case .twoD, .threeD: 1
      case .dgps: 2
      case .pps: 3
      }
    return ReceiverDetails(satellitesUsed: point.satellites, quality: quality)
  }

  private func nextInterpolated() throws -> TraceEpoch? {
    guard !done else { return nil }
    if a == nil {
      a = try take()
      b = try take()
      guard a != nil else { return nil }
    }
    let speed = pace.metresPerSecond
    // Walk forward until the position lies within a segment (or the path ends).
    while let from = a, let to = b {
      let length = from.coordinate.distance(to: to.coordinate)
      if distanceIntoSegment <= length, length > 0 { break }
      distanceIntoSegment -= length
      previous = from
      a = to
      b = try take()
    }
    let epoch: TraceEpoch
    if let from = a, let to = b {
      let length = from.coordinate.distance(to: to.coordinate)
      let f = min(1, distanceIntoSegment / length)
      let elevation: Double? =
        if let ea = from.elevation, let eb = to.elevation { ea + (eb - ea) * f } else { nil }
      epoch = TraceEpoch(
        fix: fix(
          at: from.coordinate.interpolated(to: to.coordinate, fraction: f), elevation: elevation, speed: speed,
          course: from.coordinate.bearing(to: to.coordinate)),
        traceTime: elapsed)
    } else {
      // The last point, reported once, standing still.
      done = true
      let p = a!
      let course = previous.map { $0.coordinate.bearing(to: p.coordinate) }
      epoch = TraceEpoch(fix: fix(at: p.coordinate, elevation: p.elevation, speed: 0, course: course), traceTime: elapsed)
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
