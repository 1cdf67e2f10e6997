import Foundation
import NMEA
import Testing

/// pynmea2's parsed values for the sentences of its own test suite, against ours.
///
/// Only sentences both decoders interpret are compared: GGA, RMC, GLL, GSA, GSV,
/// VTG, ZDA, GST. pynmea2 parses without checking a checksum unless asked to,
/// so an input whose checksum is wrong is skipped when pynmea2 did not check it.
struct Pynmea2Tests {
  /// A value pynmea2 recorded: a number, a string (pynmea2 keeps some fields as Decimal strings), or
  /// something else (null, a boolean).
  enum Value: Decodable, Sendable {
    case number(Double)
    case string(String)
    case other

    init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      if container.decodeNil() {
        self = .other
      } else if let number = try? container.decode(Double.self) {
        self = .number(number)
      } else if let string = try? container.decode(String.self) {
        self = .string(string)
      } else {
        self = .other
      }
    }

    /// The string, when it is one.
    var string: String? { if case .string(let s) = self { s } else { nil } }
  }

  /// One line of the corpus: a sentence and pynmea2's reading of it.
  struct Record: Decodable, Sendable {
    var input: String?
    var check: Bool?
    var result: String?
    var `class`: String?
    var sentenceType: String?
    var fields: [String: Value]?
    var derived: [String: Value]?

    enum CodingKeys: String, CodingKey {
      case input, check, result, `class`
      case sentenceType = "sentence_type"
      case fields, derived
    }
  }

  static let records: [Record] = {
    let url = Bundle.module.url(forResource: "Fixtures/pynmea2/pynmea2-test-sentences", withExtension: "jsonl")!
    let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    var out: [Record] = []
    for line in text.split(whereSeparator: \.isNewline) {
      if let record = try? JSONDecoder().decode(Record.self, from: Data(line.utf8)) { out.append(record) }
    }
    return out
  }()

  static let compared: Set<String> = ["GGA", "RMC", "GLL", "GSA", "GSV", "VTG", "ZDA", "GST"]

  static var cases: [Int] {
    var indices: [Int] = []
    for (i, r) in records.enumerated() {
      let type = r.sentenceType ?? ""
      // A query ($CCGPQ,GGA) names a sentence type without being one.
      let isQuery = r.class == "QuerySentence"
      if r.result == "ok" && compared.contains(type) && !isQuery { indices.append(i) }
    }
    return indices
  }

  /// A pynmea2 value as a number: JSON numbers and numeric strings (pynmea2 keeps some fields as Decimal strings).
  static func number(_ value: Value?) -> Double? {
    switch value {
    case .number(let n): n
    case .string(let s): Double(s)
    case .other, nil: nil
    }
  }

  /// Whether pynmea2's value and ours agree; an empty pynmea2 value must be nil here.
  static func same(_ theirs: Value?, _ ours: Double?) -> Bool {
    // pynmea2 records its own exceptions as "<ValueError>": nothing to compare with.
    if let marker = theirs?.string, marker.hasPrefix("<") { return true }
    guard let t = number(theirs) else { return ours == nil }
    guard let o = ours else { return false }
    let scale: Double = Swift.max(1.0, Swift.abs(t))
    let difference: Double = Swift.abs(t - o)
    return difference <= 1e-9 * scale
  }

  static func same(_ theirs: Value?, _ ours: Int?) -> Bool {
    var value: Double? = nil
    if let ours { value = Double(ours) }
    return same(theirs, value)
  }

  /// pynmea2 turns empty lat/lon fields into 0.0; we report no position.
  static func samePosition(_ f: [String: Value], _ d: [String: Value], _ lat: Double?, _ lon: Double?) -> Bool {
    if f["lat"]?.string == "" || f["lon"]?.string == "" { return lat == nil && lon == nil }
    return same(d["latitude"], lat) && same(d["longitude"], lon)
  }

  static func twoDigits(_ v: Int) -> String { v < 10 ? "0" + String(v) : String(v) }

  /// pynmea2's ISO time: `18:10:31.576000+00:00`, without a fraction when it is zero.
  static func isoTime(_ t: NMEATimeOfDay?) -> String? {
    guard let t else { return nil }
    let micro = Int(t.nanoseconds / 1000)
    let base: String = twoDigits(t.hours) + ":" + twoDigits(t.minutes) + ":" + twoDigits(t.seconds)
    if micro == 0 { return base + "+00:00" }
    var fraction = String(micro)
    while fraction.count < 6 { fraction = "0" + fraction }
    return base + "." + fraction + "+00:00"
  }

  /// The names of the fields that differ.
  struct Report {
    var problems: [String] = []
    mutating func check(_ ok: Bool, _ name: String) { if !ok { problems.append(name) } }
  }

  /// The differences between pynmea2's reading of `record` and ours, as field names.
  static func differences(_ record: Record) throws -> [String] {
    let input = (record.input ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    let line = input.hasPrefix("$") ? input : "$" + input
    let checked = record.check ?? false
    let message: NMEAMessage
    switch Result(catching: { () throws(NMEAParseError) -> NMEAMessage in try NMEAMessage(line) }) {
    case .success(let m): message = m
    case .failure(.checksumMismatch) where !checked: return []  // pynmea2 did not check it; we do.
    case .failure(let error): throw error
    }
    let f = record.fields ?? [:]
    let d = record.derived ?? [:]
    var report = Report()
    switch message {
    case .gga(let s):
      report.check(isoTime(s.time) == f["timestamp"]?.string, "timestamp")
      report.check(samePosition(f, d, s.latitude, s.longitude), "position")
      report.check(same(f["gps_qual"], s.quality), "gps_qual")
      report.check(same(f["num_sats"], s.satellitesUsed), "num_sats")
      report.check(same(f["horizontal_dil"], s.hdop), "horizontal_dil")
      report.check(same(f["altitude"], s.altitudeMSL), "altitude")
      report.check(same(f["geo_sep"], s.geoidSeparation), "geo_sep")
    case .rmc(let s):
      report.check(isoTime(s.time) == f["timestamp"]?.string, "timestamp")
      let rmcStatus: String? = f["status"]?.string
      report.check(s.isValid == (rmcStatus == "A"), "status")
      if s.latitude != nil || number(d["latitude"]) != nil { report.check(samePosition(f, d, s.latitude, s.longitude), "position") }
      report.check(same(f["spd_over_grnd"], s.speedKnots), "spd_over_grnd")
      report.check(same(f["true_course"], s.track), "true_course")
      if let stamp = f["datestamp"]?.string, let date = s.date {
        let suffix = twoDigits(date.yearOfCentury) + "-" + twoDigits(date.month) + "-" + twoDigits(date.day)
        report.check(stamp.hasSuffix(suffix), "datestamp")
      }
    case .gll(let s):
      report.check(samePosition(f, d, s.latitude, s.longitude), "position")
      report.check(isoTime(s.time) == f["timestamp"]?.string, "timestamp")
      let status: String? = f["status"]?.string
      let valid: Bool? = status == nil ? nil : status == "A"
      report.check(s.isValid == valid, "status")
    case .gsa(let s):
      report.check(same(f["mode_fix_type"], s.fixMode), "mode_fix_type")
      report.check(same(f["pdop"], s.pdop), "pdop")
      report.check(same(f["hdop"], s.hdop), "hdop")
      report.check(same(f["vdop"], s.vdop), "vdop")
      var ids: [Int] = []
      for n in 1...12 {
        if let v = number(f["sv_id" + twoDigits(n)]) { ids.append(Int(v)) }
      }
      report.check(ids == s.satelliteIDs, "sv_ids")
    case .gsv(let s):
      report.check(same(f["num_sv_in_view"], s.satellitesInView), "num_sv_in_view")
      var prns: [Int] = []
      for n in 1...4 {
        if let v = number(f["sv_prn_num_" + String(n)]) { prns.append(Int(v)) }
      }
      report.check(prns == s.satellites.map(\.id), "sv_prn_num")
    case .vtg(let s):
      report.check(same(f["true_track"], s.trackTrue), "true_track")
      report.check(same(f["spd_over_grnd_kts"], s.speedKnots), "spd_over_grnd_kts")
      report.check(same(f["spd_over_grnd_kmph"], s.speedKmh), "spd_over_grnd_kmph")
    case .zda(let s):
      report.check(isoTime(s.time) == f["timestamp"]?.string, "timestamp")
      let stamp: String? = d["datestamp"]?.string
      report.check(s.date?.description == stamp, "datestamp")
    case .gst(let s):
      report.check(same(f["rms"], s.rms), "rms")
      report.check(same(f["std_dev_major"], s.semiMajor), "std_dev_major")
      report.check(same(f["std_dev_latitude"], s.latitudeError), "std_dev_latitude")
      report.check(same(f["std_dev_altitude"], s.altitudeError), "std_dev_altitude")
    default:
      report.check(false, "not interpreted")
    }
    return report.problems
  }

  @Test(arguments: cases)
  func decodesLikePynmea2(index: Int) throws {
    let problems = try Self.differences(Self.records[index])
    #expect(problems.isEmpty, "\(Self.records[index].input ?? ""): \(problems)")
  }

  @Test func comparesEnoughSentences() {
    #expect(Self.cases.count >= 60)
  }
}
