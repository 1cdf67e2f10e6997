import Foundation

/// The nominal constellations of GLONASS, Galileo and BeiDou, beside GPS's 24 slots, as their
/// designs give them (interface control documents and the systems' published constellation
/// descriptions): the geometry a receiver sees, not today's satellites. All on GPS time, from
/// the GPS table's epoch, with the same Keplerian elements (circular orbits).
///
/// | system | satellites | orbits |
/// |---|---|---|
/// | GLONASS | 24, slots 1–24 | three planes 120° apart, 8 slots 45° apart (Walker 24/3/1), 64.8°, 25,510 km (ICD GLONASS 5.1) |
/// | Galileo | 24, PRNs 1–24 | Walker 24/3/1, 56°, 29,600 km (Galileo OS SIS ICD) |
/// | BeiDou | 30: GEO 1–3, IGSO 6–8, MEO 9–32 | GEO over 80°, 110.5°, 140° E; IGSO 55° with their node at 118° E; MEO Walker 24/3/1, 55°, 27,906 km (BDS-3 open service description) |
///
/// GLONASS satellites are numbered by slot (NMEA writes slot + 64); GLONASS's frequency channel
/// of each slot is ``glonassFrequencyChannel(slot:)``. BeiDou's numbers stay within 1–32 (real
/// ones go to 63): gpsd 3.22, Debian 12's, files a BeiDou GSV satellite above 32 under another
/// system's number, and then cannot mark it used.
extension NominalConstellation {
  /// The nominal almanac of `system`.
  public static func almanac(for system: GNSSSystem) -> [AlmanacEntry] {
    switch system {
    case .gps: almanac
    case .glonass: glonass
    case .galileo: galileo
    case .beidou: beidou
    }
  }

  /// The nominal almanacs of `systems`, in system order.
  public static func almanac(for systems: some Sequence<GNSSSystem>) -> [AlmanacEntry] {
    Set(systems).sorted().flatMap { almanac(for: $0) }
  }

  /// GLONASS's nominal almanac: 24 slots in three planes (Walker 24/3/1), 64.8°, 25,510 km.
  public static let glonass = walker(
    .glonass, numbers: Array(1...24), planes: 3, phasing: 1, semiMajorAxis: 25_510_000, inclination: 64.8, firstNode: 10)

  /// Galileo's nominal almanac: 24 satellites, PRNs 1–24 (Walker 24/3/1), 56°, 29,600 km.
  public static let galileo = walker(
    .galileo, numbers: Array(1...24), planes: 3, phasing: 1, semiMajorAxis: 29_600_318, inclination: 56, firstNode: 25)

  /// BeiDou's nominal almanac: 3 geostationary, 3 inclined geosynchronous and 24 medium orbits (Walker 24/3/1).
  public static let beidou: [AlmanacEntry] = {
    let geo = geosynchronousAxis
    let stationary = zip([1, 2, 3], [80.0, 110.5, 140.0]).map { number, longitude in
      entry(.beidou, number, rightAscension: longitude + greenwichHourAngle, argumentOfLatitude: 0, semiMajorAxis: geo, inclination: 0)
    }
    // One ground track (a figure eight over 118° E): planes 120° apart, each satellite 120° of
    // its orbit behind the one before, so each crosses the equator over 118° E eight hours later.
    let inclined = [6, 7, 8].enumerated().map { k, number in
      entry(
        .beidou, number, rightAscension: 118 + greenwichHourAngle + 120 * Double(k),
        argumentOfLatitude: (360 - 120 * Double(k)).truncatingRemainder(dividingBy: 360), semiMajorAxis: geo, inclination: 55)
    }
    let medium = walker(
      .beidou, numbers: Array(9...32), planes: 3, phasing: 1, semiMajorAxis: 27_906_100, inclination: 55,
      firstNode: 40)
    return stationary + inclined + medium
  }()

  /// The semi-major axis of an orbit of one sidereal day, metres.
  static let geosynchronousAxis: Double = {
    let w = AlmanacEntry.earthRotationRate
    return cbrt(AlmanacEntry.gravitationalConstant / (w * w))
  }()

  /// GLONASS's frequency channel of a slot (ICD GLONASS: antipodal slots share a channel,
  /// −7…6): the channel plan the system has used since 2005.
  public static func glonassFrequencyChannel(slot: Int) -> Int {
    let plan = [1, -4, 5, 6, 1, -4, 5, 6, -2, -7, 0, -1, -2, -7, 0, -1, 4, -3, 3, 2, 4, -3, 3, 2]
    return (1...24).contains(slot) ? plan[slot - 1] : 0
  }

  /// A Walker delta constellation: `numbers.count` satellites in `planes` planes (nodes 360°/P
  /// apart from `firstNode`), evenly spaced in each, plane p shifted by `phasing` × 360°/T.
  static func walker(
    _ system: GNSSSystem, numbers: [Int], planes: Int, phasing: Int, semiMajorAxis: Double, inclination: Double, firstNode: Double
  ) -> [AlmanacEntry] {
    let total = numbers.count, perPlane = total / planes
    return numbers.enumerated().map { index, number in
      let plane = index / perPlane, slot = index % perPlane
      let node = firstNode + 360 / Double(planes) * Double(plane)
      let argument = 360 / Double(perPlane) * Double(slot) + Double(phasing) * 360 / Double(total) * Double(plane)
      return entry(
        system, number, rightAscension: node, argumentOfLatitude: argument.truncatingRemainder(dividingBy: 360),
        semiMajorAxis: semiMajorAxis, inclination: inclination)
    }
  }

  /// A circular orbit's almanac entry at the GPS table's epoch (right ascension of the node and
  /// argument of latitude in degrees), as ``almanac`` makes GPS's.
  static func entry(
    _ system: GNSSSystem, _ number: Int, rightAscension: Double, argumentOfLatitude: Double, semiMajorAxis: Double, inclination: Double
  ) -> AlmanacEntry {
    let radians = Double.pi / 180
    let reference = GPSTime(epoch, leapSeconds: 9)
    let omega0 = (rightAscension - greenwichHourAngle) * radians + AlmanacEntry.earthRotationRate * reference.secondsOfWeek
    return AlmanacEntry(
      prn: number, eccentricity: 0, reference: reference, inclination: inclination * radians,
      rateOfRightAscension: inclination == 0 ? 0 : nodeRateDegrees * radians, sqrtSemiMajorAxis: semiMajorAxis.squareRoot(),
      longitudeOfAscendingNode: omega0, argumentOfPerigee: 0, meanAnomaly: argumentOfLatitude * radians, system: system)
  }
}
