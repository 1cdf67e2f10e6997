public import Foundation

/// One position report, whatever its source (gpsd, a trace, a fixed point): what a phone's location API delivers.
///
/// Members that the source did not report are nil.
public struct LocationFix: Hashable, Sendable {
  /// The fix mode, with gpsd's numbering.
  public enum Mode: Int, Hashable, Sendable, Comparable, Codable {
    case noFix = 1
    case twoD = 2
    case threeD = 3
    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
  }

  /// UTC time of the fix; nil when the source does not know the date.
  public var timestamp: Date?
  public var mode: Mode
  /// The position; nil for a no-fix report.
  public var coordinate: Coordinate?
  /// Metres above mean sea level.
  public var altitudeMSL: Double?
  /// Metres above the WGS 84 ellipsoid.
  public var altitudeHAE: Double?
  /// Speed over ground, m/s.
  public var speed: Double?
  /// Course over ground, degrees true.
  public var course: Double?
  /// Estimated horizontal error, metres (radius, about 1 sigma).
  public var horizontalAccuracy: Double?
  /// Estimated vertical error, metres.
  public var verticalAccuracy: Double?

  public init(
    timestamp: Date? = nil, mode: Mode, coordinate: Coordinate? = nil, altitudeMSL: Double? = nil,
    altitudeHAE: Double? = nil, speed: Double? = nil, course: Double? = nil,
    horizontalAccuracy: Double? = nil, verticalAccuracy: Double? = nil
  ) {
    self.timestamp = timestamp
    self.mode = mode
    self.coordinate = coordinate
    self.altitudeMSL = altitudeMSL
    self.altitudeHAE = altitudeHAE
    self.speed = speed
    self.course = course
    self.horizontalAccuracy = horizontalAccuracy
    self.verticalAccuracy = verticalAccuracy
  }

  /// Whether the fix has a 2D or 3D position.
  public var hasFix: Bool { mode >= .twoD && coordinate != nil }
}
