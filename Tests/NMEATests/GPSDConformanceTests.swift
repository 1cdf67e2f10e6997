import Foundation
import NMEA
import Testing
import Traces

/// The decoder's fix epochs against gpsd's own output for 92 real receiver logs.
///
/// For every log in `Fixtures/gpsd-nmea`, the reference is what
/// `expected.py --epochs --min-mode 2` selects from the `.chk` file: the last
/// TPV with mode ≥ 2 of each run of TPVs with the same time. An epoch is
/// reproduced when we report a 2D/3D fix with the same time and lat/lon
/// within 1e-6 degrees.
struct GPSDConformanceTests {
  struct Reference {
    var time: String
    var latitude: Double
    var longitude: Double
    var mode: Int
  }

  struct Outcome {
    var reference = 0
    var reproduced = 0
    var missing: [String] = []
    var mismatched: [String] = []
    var extra: [String] = []
    var modeDiffers = 0
  }

  struct Exception: Decodable {
    var missing: Int
    var mismatched: Int
    var extra: Int
    var documentedShiftSeconds: Int64?
    var reason: String
  }

  struct Exceptions: Decodable {
    var logs: [String: Exception]
  }

  static let directory = Bundle.module.url(forResource: "Fixtures/gpsd-nmea", withExtension: nil)!

  static var logs: [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return names.filter { $0.hasSuffix(".log") }.sorted()
  }

  static let exceptions: Exceptions = {
    let url = Bundle.module.url(forResource: "Fixtures/conformance-exceptions", withExtension: "json")!
    return try! JSONDecoder().decode(Exceptions.self, from: Data(contentsOf: url))
  }()

  /// gpsd's fix epochs, as `expected.py --epochs --min-mode 2` selects them.
  static func reference(_ log: String, shiftSeconds: Int64 = 0) throws -> [Reference] {
    let text = try String(contentsOf: directory.appendingPathComponent(log + ".chk"), encoding: .utf8)
    var records: [Reference] = []
    for line in text.split(whereSeparator: \.isNewline) where line.hasPrefix("{\"class\":\"TPV\"") {
      guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
        let mode = object["mode"] as? Int, mode >= 2, var time = object["time"] as? String
      else { continue }
      if shiftSeconds != 0 { time = shift(time, by: -shiftSeconds) }
      records.append(
        Reference(
          time: time, latitude: object["lat"] as? Double ?? .nan, longitude: object["lon"] as? Double ?? .nan,
          mode: mode))
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
      if let i = seen[epoch.time] { unique[i] = epoch } else {
        seen[epoch.time] = unique.count
        unique.append(epoch)
      }
    }
    return unique
  }

  static func shift(_ iso: String, by seconds: Int64) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    guard let date = formatter.date(from: iso) else { return iso }
    return NMEATimestamp(
      nanosecondsSinceUnixEpoch: Int64((date.timeIntervalSince1970 * 1000).rounded()) * 1_000_000 + seconds * 1_000_000_000
    ).iso8601
  }

  static func compare(_ log: String) throws -> Outcome {
    let reference = try reference(log)
    var ours: [(time: String, fix: NMEAFix)] = []
    var firstDatedEpochIndex: Int?
    var index = 0
    try NMEAFileDecoder.decode(path: directory.appendingPathComponent(log).path) { fix in
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

  @Test(arguments: logs)
  func reproducesGPSDFixEpochs(log: String) throws {
    let outcome = try Self.compare(log)
    let expected = Self.exceptions.logs[log]
    #expect(outcome.missing.count == expected?.missing ?? 0, "missing: \(outcome.missing.prefix(5))")
    #expect(outcome.mismatched.count == expected?.mismatched ?? 0, "mismatched: \(outcome.mismatched.prefix(5))")
    #expect(outcome.extra.count == expected?.extra ?? 0, "extra: \(outcome.extra.prefix(5))")
    if let shift = expected?.documentedShiftSeconds {
      // The documented artefact explains every difference once taken back.
      let shifted = try Self.reference(log, shiftSeconds: shift)
      var times: Set<String> = []
      try NMEAFileDecoder.decode(path: Self.directory.appendingPathComponent(log).path) { fix in
        if let t = fix.time, fix.mode >= .twoD { times.insert(t.iso8601) }
      }
      #expect(shifted.allSatisfy { times.contains($0.time) })
    }
  }

  @Test func overallFigure() throws {
    var total = Outcome()
    var shiftedBack = 0
    for log in Self.logs {
      let o = try Self.compare(log)
      total.reference += o.reference
      total.reproduced += o.reproduced
      total.modeDiffers += o.modeDiffers
      total.extra += o.extra
      if Self.exceptions.logs[log]?.documentedShiftSeconds != nil { shiftedBack += o.missing.count }
    }
    let strict = Double(total.reproduced) / Double(total.reference)
    let adjusted = Double(total.reproduced + shiftedBack) / Double(total.reference)
    print(
      "gpsd conformance: \(total.reproduced)/\(total.reference) fix epochs reproduced (\(String(format: "%.2f", strict * 100))%), "
        + "\(total.reproduced + shiftedBack) (\(String(format: "%.2f", adjusted * 100))%) with rst39's documented 1024-week shift taken back; "
        + "mode differs in \(total.modeDiffers) of the reproduced; extra fixes in listed logs \(total.extra.count)")
    #expect(strict >= 0.95)
    #expect(adjusted >= 0.97)
  }
}
