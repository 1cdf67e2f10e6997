public import Foundation

/// The GPS Standard Positioning Service performance standard's nominal 24-slot constellation:
/// six planes (A–F) 60° apart, inclined 55°, four slots each, circular orbits of 26,559.7 km,
/// placed as the standard's reference orbit slot table gives them at its epoch, 1993-07-01
/// 00:00 UTC (Greenwich hour angle 18 h 36 min 14.4 s). Needs no data file; the sky it gives is
/// the one the constellation is designed for, not today's satellites (use an almanac for those).
public enum NominalConstellation {
  /// The slots: plane, number, right ascension of the ascending node and argument of latitude at
  /// the epoch, degrees.
  public static let slots: [(plane: Character, slot: Int, rightAscension: Double, argumentOfLatitude: Double)] = [
    ("A", 1, 272.847, 268.126), ("A", 2, 272.847, 161.786), ("A", 3, 272.847, 11.676), ("A", 4, 272.847, 41.806),
    ("B", 1, 332.847, 80.956), ("B", 2, 332.847, 173.336), ("B", 3, 332.847, 309.976), ("B", 4, 332.847, 204.376),
    ("C", 1, 32.847, 111.876), ("C", 2, 32.847, 11.796), ("C", 3, 32.847, 339.666), ("C", 4, 32.847, 241.556),
    ("D", 1, 92.847, 135.226), ("D", 2, 92.847, 265.446), ("D", 3, 92.847, 35.156), ("D", 4, 92.847, 167.356),
    ("E", 1, 152.847, 197.046), ("E", 2, 152.847, 302.596), ("E", 3, 152.847, 66.066), ("E", 4, 152.847, 333.686),
    ("F", 1, 212.847, 238.886), ("F", 2, 212.847, 345.226), ("F", 3, 212.847, 105.206), ("F", 4, 212.847, 135.346),
  ]

  /// The epoch of the slot table, 1993-07-01T00:00:00Z.
  public static let epoch = Date(timeIntervalSince1970: 741_484_800)
  /// Greenwich hour angle at the epoch, degrees (18 h 36 min 14.4 s).
  public static let greenwichHourAngle = (18 + 36.0 / 60 + 14.4 / 3600) * 15
  /// The orbits' semi-major axis (their radius), metres.
  public static let semiMajorAxis = 26_559_700.0
  /// The planes' inclination to the equator, degrees.
  public static let inclinationDegrees = 55.0
  /// The planes' nodal regression, degrees per second (the standard's almanac, −4.4874e-7 °/s).
  public static let nodeRateDegrees = -4.4874e-7

  /// The 24 slots as almanac entries, PRN 1–24 in table order (A1 is PRN 1, F4 PRN 24).
  public static let almanac: [AlmanacEntry] = {
    let radians = Double.pi / 180
    // The UTC epoch as a GPS time (GPS − UTC was 9 s in July 1993).
    let reference = GPSTime(epoch, leapSeconds: 9)
    return slots.enumerated().map { index, slot in
      // IS-GPS-200's Ω₀ is the node's longitude at the start of the reference week: the right
      // ascension less Greenwich's hour angle, wound back over the Earth's turn since then.
      let omega0 =
        (slot.rightAscension - greenwichHourAngle) * radians + AlmanacEntry.earthRotationRate * reference.secondsOfWeek
      return AlmanacEntry(
        prn: index + 1, eccentricity: 0, reference: reference, inclination: inclinationDegrees * radians,
        rateOfRightAscension: nodeRateDegrees * radians, sqrtSemiMajorAxis: semiMajorAxis.squareRoot(),
        longitudeOfAscendingNode: omega0, argumentOfPerigee: 0, meanAnomaly: slot.argumentOfLatitude * radians)
    }
  }()
}
