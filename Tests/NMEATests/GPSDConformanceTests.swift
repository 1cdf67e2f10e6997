import Foundation
import LocationModel
import NMEA
import EmulatorTesting
import Testing
import Traces

/// The decoder's fix epochs against gpsd's own output for 116 real receiver logs and one of ours.
///
/// For every log in `Fixtures/gpsd-nmea`, the reference is what
/// `expected.py --epochs --min-mode 2` selects from the `.chk` file: the last
/// TPV with mode ≥ 2 of each run of TPVs with the same time. An epoch is
/// reproduced when we report a 2D/3D fix with the same time and lat/lon
/// within 1e-6 degrees.
///
/// The decoder runs as gpsd ran: reporting as gpsd reports (the default), and with
/// week rollovers of logs without a `# Date:` header resolved against the day gpsd
/// ran. gpsd 3.27.6~dev made the `.chk` files; any day from December 2023 on gives
/// the same result for this corpus (rst39.log, from 2014, is the one log without a header).
struct GPSDConformanceTests {
  struct Reference {
    var time: String
    var latitude: Double
    var longitude: Double
    var mode: Int
    /// The other members gpsd reported, by their TPV names (mode, altMSL, altHAE, speed, track).
    var members: [String: Double]
  }

  /// The fix members compared beyond the position, by gpsd's TPV names.
  static let memberNames = [
    "mode", "altMSL", "altHAE", "speed", "track", "magtrack", "status", "climb", "geoidSep", "magvar", "eph", "epv", "epx",
    "epy", "eps", "epd", "epc", "ept", "sep", "velN", "velE", "velD", "dgpsAge", "dgpsSta",
  ]

  static func member(_ name: String, of fix: NMEAFix) -> Double? {
    switch name {
    case "mode": Double(fix.mode.rawValue)
    case "altMSL": fix.altitudeMSL
    case "altHAE": fix.altitudeHAE
    case "speed": fix.speed
    case "track": fix.track
    case "magtrack": fix.magneticTrack
    // gpsd prints the status from 2 (DGPS) up.
    case "status": fix.status.flatMap { $0.rawValue >= 2 ? Double($0.rawValue) : nil }
    case "climb": fix.climb
    case "geoidSep": fix.geoidSeparation
    case "magvar": fix.magneticVariation
    case "eph": fix.horizontalError
    case "epv": fix.verticalError
    case "epx": fix.errors.epx
    case "epy": fix.errors.epy
    case "eps": fix.errors.eps
    case "epd": fix.errors.epd
    case "epc": fix.errors.epc
    case "ept": fix.errors.ept
    case "sep": fix.errors.sep
    case "velN": fix.velocityNorth
    case "velE": fix.velocityEast
    case "velD": fix.velocityDown
    case "dgpsAge": fix.dgpsAge
    case "dgpsSta": fix.dgpsStation.map(Double.init)
    default: nil
    }
  }

  /// How far ours may be from what gpsd printed: half its last digit (`magvar` has 1 decimal,
  /// `eps` and `epc` 2), and at least 0.0015 (what the members of 3 and 4 decimals were held to).
  static func tolerance(_ name: String) -> Double {
    switch name {
    case "magvar": 0.05 + 1e-9
    case "eps", "epc": 0.005 + 1e-9
    default: 0.0015
    }
  }

  struct Outcome {
    var reference = 0
    var reproduced = 0
    var missing: [String] = []
    var mismatched: [String] = []
    var extra: [String] = []
    var modeDiffers = 0
    /// Per member: the reproduced epochs where gpsd or we have it, and those where both have it
    /// and agree within ``tolerance(_:)`` (half the last digit gpsd prints).
    var memberCompared: [String: Int] = [:]
    var memberAgreed: [String: Int] = [:]
    /// Per member: the times where we differ, with gpsd's value and ours.
    var memberMisses: [String: [String]] = [:]
  }

  struct Exception: Decodable {
    var missing: Int
    var mismatched: Int
    var extra: Int
    var reason: String
  }

  /// A TPV line of a `.chk` file: its time and mode, and every member that is a number, by its name.
  struct TPV: Decodable {
    struct Name: CodingKey {
      var stringValue: String
      var intValue: Int? { nil }
      init(stringValue: String) { self.stringValue = stringValue }
      init?(intValue: Int) { nil }
    }

    var time: String?
    var mode: Int?
    var numbers: [String: Double] = [:]

    init(from decoder: any Decoder) throws {
      let members = try decoder.container(keyedBy: Name.self)
      time = try? members.decode(String.self, forKey: Name(stringValue: "time"))
      mode = try? members.decode(Int.self, forKey: Name(stringValue: "mode"))
      for key in members.allKeys {
        if let number = try? members.decode(Double.self, forKey: key) { numbers[key.stringValue] = number }
      }
    }
  }

  struct MemberException: Decodable {
    var misses: [String: Int]
    var reason: String
  }

  struct Exceptions: Decodable {
    var logs: [String: Exception]
    var members: [String: MemberException]
  }

  /// The options gpsd effectively ran with.
  static let asGPSDRan = NMEAEpochAssembler.Options(rolloverReference: NMEADate(year: 2025, month: 6, day: 1))

  static let directory: URL =
    ProcessInfo.processInfo.environment["LOCEMU_GPSD_LOGS"].map { URL(fileURLWithPath: $0) }
    ?? Bundle.module.url(forResource: "Fixtures/gpsd-nmea", withExtension: nil)!

  static var logs: [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return names.filter { $0.hasSuffix(".log") }.sorted()
  }

  static let exceptions: Exceptions = {
    let url = Bundle.module.url(forResource: "Fixtures/conformance-exceptions", withExtension: "json")!
    return try! JSONDecoder().decode(Exceptions.self, from: Data(contentsOf: url))
  }()

  /// gpsd's fix epochs, as `expected.py --epochs --min-mode 2` selects them.
  static func reference(_ log: String) throws -> [Reference] {
    let text = try String(contentsOf: directory.appendingPathComponent(log + ".chk"), encoding: .utf8)
    var records: [Reference] = []
    for line in text.split(whereSeparator: \.isNewline) where line.hasPrefix("{\"class\":\"TPV\"") {
      let tpv = try JSONDecoder().decode(TPV.self, from: Data(line.utf8))
      guard let mode = tpv.mode, mode >= 2, let time = tpv.time else { continue }
      var members: [String: Double] = [:]
      for name in memberNames { members[name] = tpv.numbers[name] }
      records.append(
        Reference(
          time: time, latitude: tpv.numbers["lat"] ?? .nan, longitude: tpv.numbers["lon"] ?? .nan, mode: mode,
          members: members))
    }
    // expected.py --epochs: the last record of each run with the same time; then one per time stamp
    // (a time that comes back later, as in humminbird-M37, is compared once, with its last record).
    var epochs: [Reference] = []
    for record in records {
      if let last = epochs.last, last.time == record.time { epochs[epochs.count - 1] = record } else { epochs.append(record) }
    }
    var seen: [String: Int] = [:]
    var unique: [Reference] = []
    for epoch in epochs {
      if let i = seen[epoch.time] {
        unique[i] = epoch
      } else {
        seen[epoch.time] = unique.count
        unique.append(epoch)
      }
    }
    return unique
  }

  /// Each log compared once with the options gpsd ran with, for the tests that read the same
  /// comparison (the epochs, the members, the figures): decoding gpsd's reference output is most
  /// of the suite's time.
  static let outcomes: [String: Result<Outcome, any Error>] = Dictionary(
    uniqueKeysWithValues: logs.map { log in (log, Result { try compare(log) }) })

  static func outcome(_ log: String) throws -> Outcome {
    guard let outcome = outcomes[log] else { throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: log]) }
    return try outcome.get()
  }

  static func compare(_ log: String, options: NMEAEpochAssembler.Options = asGPSDRan) throws -> Outcome {
    let reference = try reference(log)
    var ours: [(time: String, fix: NMEAFix)] = []
    var firstDatedEpochIndex: Int?
    var index = 0
    try NMEAFileDecoder.decode(path: directory.appendingPathComponent(log).path, options: options) { fix in
      if fix.time != nil && firstDatedEpochIndex == nil { firstDatedEpochIndex = index }
      index += 1
      if let time = fix.time, fix.mode >= .twoD { ours.append((time.iso8601, fix)) }
    }
    var outcome = Outcome()
    outcome.reference = reference.count
    let oursByTime = Dictionary(ours.map { ($0.time, $0.fix) }, uniquingKeysWith: { _, last in last })
    let referenceTimes = Set(reference.map(\.time))
    for r in reference {
      guard let fix = oursByTime[r.time] else {
        outcome.missing.append(r.time)
        continue
      }
      if abs(fix.latitude! - r.latitude) > 1e-6 || abs(fix.longitude! - r.longitude) > 1e-6 {
        outcome.mismatched.append(r.time)
        continue
      }
      outcome.reproduced += 1
      if fix.mode.rawValue != r.mode { outcome.modeDiffers += 1 }
      for name in memberNames {
        let theirs = r.members[name], ours = member(name, of: fix)
        guard theirs != nil || ours != nil else { continue }
        outcome.memberCompared[name, default: 0] += 1
        if let theirs, let ours, abs(theirs - ours) <= Self.tolerance(name) {
          outcome.memberAgreed[name, default: 0] += 1
        } else {
          let text = { (v: Double?) in v.map { String(format: "%.4f", $0) } ?? "-" }
          outcome.memberMisses[name, default: []].append("\(r.time) gpsd \(text(theirs)) ours \(text(ours))")
        }
      }
    }
    // Extras, less the two artefacts of how gpsd's regression output was made.
    let lastReferenceTime = reference.last?.time ?? ""
    for (i, entry) in ours.enumerated() where !referenceTimes.contains(entry.time) {
      let isFinalEpoch = i == ours.count - 1 && entry.time > lastReferenceTime
      let isFirstDated = i == 0 && firstDatedEpochIndex != nil && (reference.first.map { entry.time < $0.time } ?? true)
      if isFinalEpoch || isFirstDated { continue }
      outcome.extra.append(entry.time)
    }
    return outcome
  }

  @Test(.notUnderThreadSanitizer, arguments: logs)
  func reproducesGPSDFixEpochs(log: String) throws {
    let outcome = try Self.outcome(log)
    let expected = Self.exceptions.logs[log]
    #expect(outcome.missing.count == expected?.missing ?? 0, "missing: \(outcome.missing.prefix(5))")
    #expect(outcome.mismatched.count == expected?.mismatched ?? 0, "mismatched: \(outcome.mismatched.prefix(5))")
    #expect(outcome.extra.count == expected?.extra ?? 0, "extra: \(outcome.extra.prefix(5))")
  }

  /// Mode, altitudes, speed, track, status, climb, geoid separation, magnetic variation and the
  /// error members on the reproduced epochs, as gpsd reported them; the
  /// differences left are listed per log in the fixture's `members`, with their reason.
  @Test(.notUnderThreadSanitizer, arguments: logs)
  func reproducesGPSDFixMembers(log: String) throws {
    let outcome = try Self.outcome(log)
    let expected = Self.exceptions.members[log]?.misses ?? [:]
    for name in Self.memberNames {
      let misses = outcome.memberMisses[name] ?? []
      #expect(misses.count == expected[name] ?? 0, "\(name) differs at \(misses.prefix(5))")
    }
  }

  @Test(.notUnderThreadSanitizer) func memberFigures() throws {
    var compared: [String: Int] = [:]
    var agreed: [String: Int] = [:]
    for log in Self.logs {
      let o = try Self.outcome(log)
      compared.merge(o.memberCompared, uniquingKeysWith: +)
      agreed.merge(o.memberAgreed, uniquingKeysWith: +)
    }
    var line = "gpsd conformance, members of the reproduced epochs:"
    for name in Self.memberNames {
      let figure = Double(agreed[name] ?? 0) / Double(max(compared[name] ?? 0, 1))
      line += " \(name) \(agreed[name] ?? 0)/\(compared[name] ?? 0) (\(String(format: "%.2f", figure * 100))%)"
      #expect(figure >= 0.995, "\(name): \(figure)")
    }
    print(line)
  }

  @Test(.notUnderThreadSanitizer) func overallFigure() throws {
    var total = Outcome()
    var everyTimeStamp = Outcome()
    var timeStampOptions = Self.asGPSDRan
    timeStampOptions.reporting = .everyTimeStamp
    for log in Self.logs {
      let o = try Self.outcome(log)
      total.reference += o.reference
      total.reproduced += o.reproduced
      total.modeDiffers += o.modeDiffers
      total.extra += o.extra
      let t = try Self.compare(log, options: timeStampOptions)
      everyTimeStamp.reference += t.reference
      everyTimeStamp.reproduced += t.reproduced
    }
    let figure = Double(total.reproduced) / Double(total.reference)
    let timeStampFigure = Double(everyTimeStamp.reproduced) / Double(everyTimeStamp.reference)
    print(
      "gpsd conformance: \(total.reproduced)/\(total.reference) fix epochs reproduced (\(String(format: "%.2f", figure * 100))%); "
        + "mode differs in \(total.modeDiffers) of the reproduced; extra fixes in listed logs \(total.extra.count); "
        + "with --reporting every-time-stamp \(everyTimeStamp.reproduced) (\(String(format: "%.2f", timeStampFigure * 100))%)")
    #expect(figure >= 0.99)
  }
}
