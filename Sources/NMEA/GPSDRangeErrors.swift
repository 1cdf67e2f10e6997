/// The range errors gpsd's error model multiplies DOPs by to estimate a fix's errors, where the
/// receiver sends no estimate of its own.
///
/// gpsd (`gpsd_error_model` in `gpsd/libgpsd_core.c`) calls them user equivalent range errors at
/// 95 % confidence, and uses the differential ones when the fix's status is exactly DGPS:
///
/// | member | DOP | standalone | differential |
/// |---|---|---|---|
/// | `epx`, `epy` | XDOP, YDOP | 15 m | 3.75 m |
/// | `epv` (3D) | VDOP | 23 m | 5.75 m |
/// | `eph` | HDOP | 19 m | 4.75 m |
/// | `sep` | PDOP | 19 m | 4.75 m |
///
/// From these gpsd derives, between two time stamps `dt` seconds apart: `eps` (the larger of
/// `epx`, `epy` at both, summed, over `dt`), `epc` (both `epv`, summed, over `dt`) and `epd` (the
/// angle the horizontal error subtends over the distance moved). `ept` is 0.005 s for every
/// fix with a time.
///
/// Writers of NMEA divide by the same numbers (an accuracy of 19 m is written as HDOP 1.0), so
/// that gpsd reading what they write reports the accuracy they were given.
public struct GPSDRangeErrors: Hashable, Sendable {
  /// Metres per XDOP or YDOP: `epx`, `epy`.
  public var horizontal: Double
  /// Metres per VDOP: `epv`.
  public var vertical: Double
  /// Metres per HDOP and PDOP: `eph`, `sep`.
  public var position: Double

  /// Creates range errors from metres per unit of DOP.
  /// - Parameters:
  ///   - horizontal: metres per XDOP or YDOP.
  ///   - vertical: metres per VDOP.
  ///   - position: metres per HDOP and PDOP.
  public init(horizontal: Double, vertical: Double, position: Double) {
    self.horizontal = horizontal
    self.vertical = vertical
    self.position = position
  }

  /// Without differential corrections.
  public static let standalone = GPSDRangeErrors(horizontal: 15, vertical: 23, position: 19)
  /// With differential corrections (gpsd's status 2, DGPS).
  public static let differential = GPSDRangeErrors(horizontal: 3.75, vertical: 5.75, position: 4.75)

  /// gpsd's time error for a fix with a time and no receiver estimate, seconds.
  public static let timeError = 0.005
}
