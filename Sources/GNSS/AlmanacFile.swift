public import Foundation

/// A YUMA or SEM almanac file that cannot be read: what is wrong, and where.
public struct AlmanacFileError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The number of the line at fault, from 1.
  public var line: Int
  /// What is wrong.
  public var message: String

  /// An error at a line.
  ///
  /// - Parameters:
  ///   - line: The number of the line at fault, from 1.
  ///   - message: What is wrong.
  public init(line: Int, message: String) {
    self.line = line
    self.message = message
  }

  /// The error as `line N: message`.
  public var description: String { "line \(line): \(message)" }
}

/// Reads the two public almanac formats of the US Coast Guard's Navigation Center.
///
/// Both give the week modulo 1024 (YUMA sometimes in full); a week below 1024 is placed in the
/// 1024-week era nearest to `near`, by default the era that began on 2019-04-07 (weeks 2048–3071).
public enum AlmanacFile {
  /// The era a week modulo 1024 is placed in when no date is given: 2019-04-07 to 2038-11-20.
  public static let defaultEraStart = 2048

  /// A YUMA almanac: blocks of `Name: value` lines, one block per satellite.
  public static func parseYUMA(_ text: String, near: Date? = nil) throws(AlmanacFileError) -> [AlmanacEntry] {
    var entries: [AlmanacEntry] = []
    var fields: [String: Double] = [:]
    var blockLine = 0
    func finish() throws(AlmanacFileError) {
      guard !fields.isEmpty else { return }
      func value(_ key: String) throws(AlmanacFileError) -> Double {
        guard let v = fields[key] else { throw AlmanacFileError(line: blockLine, message: "no \"\(key)\" in this block") }
        return v
      }
      let week = resolve(week: Int(try value("week")), near: near)
      entries.append(
        AlmanacEntry(
          prn: Int(try value("id")), health: Int(try value("health")), eccentricity: try value("eccentricity"),
          reference: GPSTime(week: week, secondsOfWeek: try value("time of applicability")),
          inclination: try value("orbital inclination"), rateOfRightAscension: try value("rate of right ascen"),
          sqrtSemiMajorAxis: try value("sqrt(a)"), longitudeOfAscendingNode: try value("right ascen at week"),
          argumentOfPerigee: try value("argument of perigee"), meanAnomaly: try value("mean anom"),
          clockBias: fields["af0"] ?? 0, clockDrift: fields["af1"] ?? 0))
      fields = [:]
    }
    for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
      if line.hasPrefix("****") {
        try finish()
        blockLine = index + 1
        continue
      }
      guard !line.isEmpty else { continue }
      guard let colon = line.firstIndex(of: ":") else {
        throw AlmanacFileError(line: index + 1, message: "not a \"Name: value\" line: \(line.prefix(60))")
      }
      // "Time of Applicability(s)", "SQRT(A)  (m 1/2)": the name up to its unit in brackets.
      var name = line[..<colon].lowercased()
      for unit in ["(s)", "(rad)", "(r/s)", "(s/s)", "(m 1/2)"] where name.hasSuffix(unit) {
        name = String(name.dropLast(unit.count))
      }
      name = name.trimmingCharacters(in: .whitespaces)
      let text = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      guard let value = Double(text), value.isFinite else {
        throw AlmanacFileError(line: index + 1, message: "\"\(name)\" is not a number: \(text.prefix(40))")
      }
      if fields.isEmpty { blockLine = index + 1 }
      fields[name] = value
    }
    try finish()
    guard !entries.isEmpty else { throw AlmanacFileError(line: 1, message: "no satellite in this YUMA file") }
    return entries
  }

  /// A SEM almanac: a header (count and title, then week and time of applicability) and nine
  /// numbered records per satellite, angles in semicircles.
  public static func parseSEM(_ text: String, near: Date? = nil) throws(AlmanacFileError) -> [AlmanacEntry] {
    // Every whitespace-separated token with its line, after the title on the first line.
    var tokens: [(text: Substring, line: Int)] = []
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
      tokens += (index == 0 ? Array(words.prefix(1)) : words).map { ($0, index + 1) }
    }
    var position = 0
    func number() throws(AlmanacFileError) -> Double {
      guard position < tokens.count else {
        throw AlmanacFileError(line: tokens.last?.line ?? 1, message: "the file ends inside a record")
      }
      let token = tokens[position]
      position += 1
      guard let value = Double(token.text), value.isFinite else {
        throw AlmanacFileError(line: token.line, message: "not a number: \(token.text.prefix(40))")
      }
      return value
    }
    let count = Int(try number())
    let week = resolve(week: Int(try number()), near: near)
    let toa = try number()
    guard (1...63).contains(count) else { throw AlmanacFileError(line: 1, message: "\(count) satellites is not a SEM count") }
    var entries: [AlmanacEntry] = []
    for _ in 0..<count {
      let prn = Int(try number())
      _ = try number()  // SVN
      _ = try number()  // URA
      let e = try number(), deltaI = try number(), omegaDot = try number()
      let sqrtA = try number(), omega0 = try number(), perigee = try number()
      let m0 = try number(), af0 = try number(), af1 = try number()
      let health = Int(try number())
      _ = try number()  // configuration
      entries.append(
        AlmanacEntry(
          prn: prn, health: health, eccentricity: e, reference: GPSTime(week: week, secondsOfWeek: toa),
          inclination: (0.3 + deltaI) * .pi, rateOfRightAscension: omegaDot * .pi, sqrtSemiMajorAxis: sqrtA,
          longitudeOfAscendingNode: omega0 * .pi, argumentOfPerigee: perigee * .pi, meanAnomaly: m0 * .pi,
          clockBias: af0, clockDrift: af1))
    }
    return entries
  }

  /// A week as the file gives it, in full.
  static func resolve(week: Int, near: Date?) -> Int {
    guard week < 1024 else { return week }
    guard let near else { return defaultEraStart + week }
    let reference = GPSTime(near).week
    let base = reference - reference % 1024 + week
    return [base - 1024, base, base + 1024].min { abs($0 - reference) < abs($1 - reference) }!
  }
}
