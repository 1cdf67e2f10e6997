public import Foundation
public import GNSS

/// How a receiver's environment and hardware shape what it reports: signal, errors, their
/// correlation, multipath, outages and the time to a first fix.
///
/// Five environments are built in (``named(_:)``); a user's own is a JSON object naming one as
/// its `base` and changing any member (``decode(json:)``):
///
/// ```json
/// {"base": "urban-canyon", "streetAzimuth": 90, "overconfidence": 0.5}
/// ```
///
/// Range errors are per satellite, 1 σ, in metres; a position's error is the range error scaled
/// by the dilution of precision of the satellites used. Where the numbers come from:
/// - Range errors: the GPS Standard Positioning Service Performance Standard (5th ed., 2020)
///   bounds the signal-in-space range error at 7 m (95 %); single-frequency user equivalent range
///   errors of 4–6 m (1 σ), mostly ionosphere and troposphere, are the textbook budget (Kaplan and
///   Hegarty, *Understanding GPS/GNSS*, 3rd ed., table 7.4; Misra and Enge, *Global Positioning
///   System*, ch. 5). Open-sky phones reach about 5 m at 95 % (van Diggelen and Enge, "The World's
///   first GPS MOOC and Worldwide Laboratory using Smartphones", ION GNSS+ 2015).
/// - Correlation: those errors change over minutes (first-order Gauss–Markov with a time
///   constant of minutes, as in Groves, *Principles of GNSS, Inertial, and Multisensor Integrated
///   Navigation Systems*, 2nd ed., §9.4); receiver noise is white.
/// - Signal: phones see 35–45 dB-Hz from high satellites under open sky and track down to about
///   20 dB-Hz; buildings attenuate by 10–30 dB and block low satellites across a street.
/// - Time to first fix: a standalone receiver needs the 30 s broadcast ephemeris, so 30–60 s
///   from cold (u-blox M8 and MediaTek datasheets give 26–35 s under strong signal); a phone with
///   assistance (A-GNSS, 3GPP TS 25.171) has a fix in a few seconds; a hot start takes 1–2 s.
public struct ReceiverProfile: Hashable, Sendable, Codable {
  /// The profile's name (`open-sky`, …, or a user's own).
  public var name: String
  /// The slowly varying part of each range error, 1 σ, metres (ionosphere, troposphere, orbit and clock).
  public var rangeBias: Double
  /// Its correlation time, seconds.
  public var biasCorrelationTime: Double
  /// The white part of each range error (receiver noise), 1 σ, metres.
  public var rangeNoise: Double
  /// Velocity noise per axis, 1 σ, m/s.
  public var velocityNoise: Double
  /// Below this reported speed, m/s, the receiver holds its last course.
  public var stationarySpeed: Double
  /// Signal from a satellite at the zenith, dB-Hz.
  public var zenithSignal: Double
  /// How much weaker a satellite at the horizon is than one at the zenith, dB.
  public var horizonLoss: Double
  /// Attenuation by the environment on every satellite (foliage, walls), dB.
  public var attenuation: Double
  /// The elevation, degrees, up to which buildings across the street hide the sky; 0 for none.
  public var skyline: Double
  /// The street's direction, degrees from north: satellites along it are not hidden.
  public var streetAzimuth: Double
  /// The extra loss of a satellite behind a building (received by reflection), dB.
  public var blockedLoss: Double
  /// Random change of each satellite's signal, 1 σ, dB.
  public var signalFlicker: Double
  /// A satellite is tracked (GSV gives its SNR) from this signal, dB-Hz.
  public var trackingThreshold: Double
  /// And used in the fix from this one.
  public var usedThreshold: Double
  /// Satellites below this elevation are not used, degrees.
  public var elevationMask: Double
  /// At most this many satellites are used.
  public var channels: Int
  /// Multipath jumps: how many start per minute, on average.
  public var multipathPerMinute: Double
  /// Their size per axis, 1 σ, metres.
  public var multipathSize: Double
  /// Their mean length, seconds.
  public var multipathLength: Double
  /// Outages (no satellite received): how many start per hour, on average.
  public var outagesPerHour: Double
  /// Their mean length, seconds.
  public var outageLength: Double
  /// Time to first fix, seconds, of a standalone receiver from cold, warm and hot starts.
  public var coldStart: Double
  /// Time to first fix, seconds, of a standalone receiver from a warm start.
  public var warmStart: Double
  /// Time to first fix, seconds, from a hot start (with or without assistance); also the time to reacquire after a loss.
  public var hotStart: Double
  /// The same with assistance (A-GNSS), seconds.
  public var assistedColdStart: Double
  /// Time to first fix, seconds, of an assisted receiver from a warm start.
  public var assistedWarmStart: Double
  /// The reported accuracy is the honest one times this: 1 honest, below 1 over-confident (as
  /// phones are in cities, where multipath is not in their error model).
  public var overconfidence: Double
  /// The systems chosen, when not all (``systems``).
  public var selectedSystems: [GNSSSystem]? = nil

  /// The satellite systems the receiver tracks: GPS, GLONASS, Galileo and BeiDou unless a
  /// profile chooses fewer (GPS alone stays available), as phones sold in the last decade do.
  public var systems: [GNSSSystem] {
    get { selectedSystems ?? GNSSSystem.allCases }
    set { selectedSystems = Set(newValue) == Set(GNSSSystem.allCases) ? nil : Array(Set(newValue)).sorted() }
  }

  /// The open sky: a field, a beach, a road between fields.
  public static let openSky = ReceiverProfile(
    name: "open-sky", rangeBias: 3.0, biasCorrelationTime: 120, rangeNoise: 0.8, velocityNoise: 0.08,
    stationarySpeed: 0.3, zenithSignal: 45, horizonLoss: 10, attenuation: 0, skyline: 0, streetAzimuth: 0,
    blockedLoss: 0, signalFlicker: 1.5, trackingThreshold: 20, usedThreshold: 25, elevationMask: 5, channels: 24,
    multipathPerMinute: 0, multipathSize: 0, multipathLength: 0, outagesPerHour: 0, outageLength: 0, coldStart: 40,
    warmStart: 30, hotStart: 2, assistedColdStart: 5, assistedWarmStart: 3, overconfidence: 1)

  /// Houses, gardens and trees: some attenuation, low satellites hidden now and then.
  public static let suburban = ReceiverProfile(
    name: "suburban", rangeBias: 4.0, biasCorrelationTime: 90, rangeNoise: 1.2, velocityNoise: 0.15,
    stationarySpeed: 0.4, zenithSignal: 45, horizonLoss: 12, attenuation: 3, skyline: 20, streetAzimuth: 30,
    blockedLoss: 12, signalFlicker: 2, trackingThreshold: 20, usedThreshold: 25, elevationMask: 5, channels: 24,
    multipathPerMinute: 0.5, multipathSize: 4, multipathLength: 5, outagesPerHour: 0, outageLength: 0, coldStart: 45,
    warmStart: 32, hotStart: 2, assistedColdStart: 6, assistedWarmStart: 4, overconfidence: 0.9)

  /// A street between tall buildings: most of the sky hidden across the street, reflections,
  /// jumps of tens of metres and short losses of the fix.
  public static let urbanCanyon = ReceiverProfile(
    name: "urban-canyon", rangeBias: 7.0, biasCorrelationTime: 60, rangeNoise: 2.5, velocityNoise: 0.4,
    stationarySpeed: 0.6, zenithSignal: 44, horizonLoss: 12, attenuation: 4, skyline: 55, streetAzimuth: 30,
    blockedLoss: 14, signalFlicker: 3, trackingThreshold: 20, usedThreshold: 25, elevationMask: 10, channels: 24,
    multipathPerMinute: 3, multipathSize: 12, multipathLength: 8, outagesPerHour: 4, outageLength: 8, coldStart: 55,
    warmStart: 40, hotStart: 3, assistedColdStart: 8, assistedWarmStart: 5, overconfidence: 0.6)

  /// Indoors near a window: everything attenuated, half the sky behind walls, large errors.
  public static let indoor = ReceiverProfile(
    name: "indoor", rangeBias: 10.0, biasCorrelationTime: 60, rangeNoise: 4, velocityNoise: 0.6,
    stationarySpeed: 0.8, zenithSignal: 44, horizonLoss: 10, attenuation: 12, skyline: 60, streetAzimuth: 90,
    blockedLoss: 10, signalFlicker: 3, trackingThreshold: 18, usedThreshold: 22, elevationMask: 10, channels: 24,
    multipathPerMinute: 2, multipathSize: 15, multipathLength: 15, outagesPerHour: 6, outageLength: 30, coldStart: 90,
    warmStart: 60, hotStart: 5, assistedColdStart: 15, assistedWarmStart: 10, overconfidence: 0.5)

  /// A road with tunnels: open sky between them, and every few minutes a tunnel of tens of
  /// seconds without any satellite.
  public static let tunnel = ReceiverProfile(
    name: "tunnel", rangeBias: 3.0, biasCorrelationTime: 120, rangeNoise: 0.8, velocityNoise: 0.1,
    stationarySpeed: 0.3, zenithSignal: 45, horizonLoss: 10, attenuation: 0, skyline: 0, streetAzimuth: 0,
    blockedLoss: 0, signalFlicker: 1.5, trackingThreshold: 20, usedThreshold: 25, elevationMask: 5, channels: 24,
    multipathPerMinute: 0.2, multipathSize: 5, multipathLength: 3, outagesPerHour: 20, outageLength: 40, coldStart: 40,
    warmStart: 30, hotStart: 2, assistedColdStart: 5, assistedWarmStart: 3, overconfidence: 0.9)

  /// The built-in profiles, by name.
  public static let builtIn: [ReceiverProfile] = [openSky, suburban, urbanCanyon, indoor, tunnel]

  /// The built-in profile called `name`, or nil.
  public static func named(_ name: String) -> ReceiverProfile? { builtIn.first { $0.name == name } }

  /// The total range error, 1 σ, metres: bias and noise together.
  public var rangeError: Double { (rangeBias * rangeBias + rangeNoise * rangeNoise).squareRoot() }

  /// A profile from JSON: a `base` (a built-in name; `open-sky` when missing) and any members to
  /// change. Checked: every number finite and in its range.
  /// - Throws: ``ReceiverProfileError`` with what is wrong.
  public static func decode(json: Data) throws(ReceiverProfileError) -> ReceiverProfile {
    let object: [String: Member]
    do {
      object = try JSONDecoder().decode([String: Member].self, from: json)
    } catch DecodingError.typeMismatch {
      throw ReceiverProfileError(message: "a profile is a JSON object")
    } catch {
      throw ReceiverProfileError(message: "not JSON: \(error.localizedDescription)")
    }
    var baseName = "open-sky"
    if let base = object["base"] {
      guard case .text(let name) = base else { throw ReceiverProfileError(message: "base must be a profile's name") }
      baseName = name
    }
    guard var profile = named(baseName) else {
      throw ReceiverProfileError(message: "no built-in profile '\(baseName)' (\(builtIn.map(\.name).joined(separator: ", ")))")
    }
    if case .text(let name)? = object["name"] { profile.name = name } else if object["base"] != nil { profile.name = "\(baseName)+" }
    let numbers: [(String, WritableKeyPath<ReceiverProfile, Double>, ClosedRange<Double>)] = [
      ("rangeBias", \.rangeBias, 0...1000), ("biasCorrelationTime", \.biasCorrelationTime, 0.001...1e6),
      ("rangeNoise", \.rangeNoise, 0...1000), ("velocityNoise", \.velocityNoise, 0...100),
      ("stationarySpeed", \.stationarySpeed, 0...100), ("zenithSignal", \.zenithSignal, 0...60),
      ("horizonLoss", \.horizonLoss, 0...60), ("attenuation", \.attenuation, 0...60), ("skyline", \.skyline, 0...90),
      ("streetAzimuth", \.streetAzimuth, -360...360), ("blockedLoss", \.blockedLoss, 0...60),
      ("signalFlicker", \.signalFlicker, 0...20), ("trackingThreshold", \.trackingThreshold, 0...60),
      ("usedThreshold", \.usedThreshold, 0...60), ("elevationMask", \.elevationMask, -5...90),
      ("multipathPerMinute", \.multipathPerMinute, 0...60), ("multipathSize", \.multipathSize, 0...1000),
      ("multipathLength", \.multipathLength, 0...3600), ("outagesPerHour", \.outagesPerHour, 0...3600),
      ("outageLength", \.outageLength, 0...86400), ("coldStart", \.coldStart, 0...3600), ("warmStart", \.warmStart, 0...3600),
      ("hotStart", \.hotStart, 0...3600), ("assistedColdStart", \.assistedColdStart, 0...3600),
      ("assistedWarmStart", \.assistedWarmStart, 0...3600), ("overconfidence", \.overconfidence, 0.01...100),
    ]
    let known = Set(numbers.map(\.0) + ["base", "name", "channels", "systems"])
    if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
      throw ReceiverProfileError(message: "unknown member '\(unknown)'")
    }
    for (key, path, range) in numbers {
      guard let value = object[key] else { continue }
      guard case .number(let number) = value, number.isFinite, range.contains(number) else {
        throw ReceiverProfileError(message: "\(key) must be a number from \(range.lowerBound) to \(range.upperBound)")
      }
      profile[keyPath: path] = number
    }
    if let value = object["channels"] {
      guard case .number(let number) = value, let n = Int(exactly: number), (4...64).contains(n) else {
        throw ReceiverProfileError(message: "channels must be a whole number from 4 to 64")
      }
      profile.channels = n
    }
    if let value = object["systems"] {
      let names = ["gps", "glonass", "galileo", "beidou"]
      guard case .list(let list) = value, !list.isEmpty else {
        throw ReceiverProfileError(message: "systems must be a list of \(names.joined(separator: ", "))")
      }
      var systems: [GNSSSystem] = []
      for name in list {
        guard let system = GNSSSystem(name: name) else {
          throw ReceiverProfileError(message: "no system '\(name)' (\(names.joined(separator: ", ")))")
        }
        systems.append(system)
      }
      profile.systems = systems
    }
    return profile
  }

  /// A member's value in a profile's JSON: a number, a string, or anything else (refused where
  /// a number or a name is due).
  private enum Member: Decodable {
    case number(Double), text(String), list([String]), other

    init(from decoder: any Decoder) throws {
      let value = try decoder.singleValueContainer()
      // A Bool first: JSON's true is no number here.
      if (try? value.decode(Bool.self)) != nil {
        self = .other
      } else if let number = try? value.decode(Double.self) {
        self = .number(number)
      } else if let text = try? value.decode(String.self) {
        self = .text(text)
      } else if let list = try? value.decode([String].self) {
        self = .list(list)
      } else {
        self = .other
      }
    }
  }

  /// A built-in name, or a JSON file's path (see ``decode(json:)``).
  /// - Throws: ``ReceiverProfileError`` naming the profiles there are, or what is wrong with the file.
  public static func resolve(_ nameOrPath: String) throws(ReceiverProfileError) -> ReceiverProfile {
    if let profile = named(nameOrPath) { return profile }
    guard nameOrPath.hasSuffix(".json") else {
      throw ReceiverProfileError(
        message: "no profile '\(nameOrPath)': one of \(builtIn.map(\.name).joined(separator: ", ")), or a .json file")
    }
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: nameOrPath))
    } catch {
      throw ReceiverProfileError(message: "cannot read \(nameOrPath): \((error as NSError).localizedFailureReason ?? "\(error)")")
    }
    do {
      return try decode(json: data)
    } catch {
      throw ReceiverProfileError(message: "\(nameOrPath): \(error.message)")
    }
  }
}

/// Why a profile was refused.
public struct ReceiverProfileError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What is wrong, in words.
  public var message: String
  /// An error saying `message`.
  /// - Parameter message: what is wrong, in words.
  public init(message: String) { self.message = message }
  /// The error's message.
  public var description: String { message }
}
