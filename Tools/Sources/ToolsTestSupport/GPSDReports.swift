import Foundation

/// One of gpsd's JSON reports as `gpspipe -w` prints them, a line each: its class, and the
/// members of TPV, SKY and GST reports that the tests read (nil when a report has none).
package struct GPSDReport: Decodable, Sendable {
  /// A satellite of a SKY report.
  package struct Satellite: Decodable, Sendable {
    package var prn: Int?
    package var used: Bool?

    enum CodingKeys: String, CodingKey {
      case prn = "PRN"
      case used
    }
  }

  /// TPV, SKY, GST, VERSION, DEVICES, WATCH, …
  package var `class`: String?
  package var time: String?
  package var mode: Int?
  /// A TPV's latitude, or a GST's standard deviation of it (metres).
  package var lat: Double?
  package var lon: Double?
  package var altMSL: Double?
  package var speed: Double?
  package var track: Double?
  package var epx: Double?
  package var epy: Double?
  package var epv: Double?
  package var hdop: Double?
  package var pdop: Double?
  package var satellites: [Satellite]?

  /// The report on `line`; nil when the line is not one.
  package init?(line: some StringProtocol) {
    guard let report = try? JSONDecoder().decode(Self.self, from: Data(line.utf8)) else { return nil }
    self = report
  }
}
