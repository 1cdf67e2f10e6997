/// A satellite navigation system a receiver tracks, with the numbers NMEA 0183 (4.10 and
/// later) and gpsd give its satellites and signals.
public enum GNSSSystem: String, CaseIterable, Hashable, Sendable, Codable, Comparable {
  /// The United States' Global Positioning System.
  case gps
  /// Russia's GLONASS.
  case glonass
  /// The European Union's Galileo.
  case galileo
  /// China's BeiDou.
  case beidou

  /// NMEA 4.10's system ID (GSA field 18, GSV's talker): GPS 1, GLONASS 2, Galileo 3, BeiDou 4.
  public var nmeaSystemID: Int {
    switch self {
    case .gps: 1
    case .glonass: 2
    case .galileo: 3
    case .beidou: 4
    }
  }

  /// The talker of the system's own sentences (GSV): GP, GL, GA, GB.
  public var talker: String {
    switch self {
    case .gps: "GP"
    case .glonass: "GL"
    case .galileo: "GA"
    case .beidou: "GB"
    }
  }

  /// The NMEA 4.10 signal ID of the civil signal a phone tracks: GPS L1 C/A (1), GLONASS L1 OF
  /// (1), Galileo E1 B/C (7), BeiDou B1I (1).
  public var signalID: Int { self == .galileo ? 7 : 1 }

  /// The number NMEA writes for the satellite `number` of this system: GPS's PRN, GLONASS's
  /// slot plus 64 (65–96), Galileo's and BeiDou's PRN (with their talker or system ID).
  public func nmeaNumber(_ number: Int) -> Int { self == .glonass ? 64 + number : number }

  /// The PRN gpsd reports for the satellite (its SKY's `PRN`): GPS 1–32, GLONASS 65–96,
  /// Galileo 301–336, BeiDou 401–463.
  public func gpsdPRN(_ number: Int) -> Int {
    switch self {
    case .gps: number
    case .glonass: 64 + number
    case .galileo: 300 + number
    case .beidou: 400 + number
    }
  }

  /// The system named `name` (`gps`, `glonass`, `galileo`, `beidou`; any case), or nil.
  public init?(name: String) { self.init(rawValue: name.lowercased()) }

  /// Orders systems by their NMEA system ID: GPS, GLONASS, Galileo, BeiDou.
  ///
  /// - Parameters:
  ///   - a: A system.
  ///   - b: Another system.
  /// - Returns: Whether `a` comes before `b`.
  public static func < (a: GNSSSystem, b: GNSSSystem) -> Bool { a.nmeaSystemID < b.nmeaSystemID }
}
