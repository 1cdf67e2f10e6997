import Foundation

/// One of gpsd's JSON reports as `gpspipe -w` prints them, a line each: its class, and the
/// members of TPV, SKY and GST reports that the tests read (nil when a report has none).
public struct GPSDReport: Decodable, Sendable {
  /// A satellite of a SKY report.
  public struct Satellite: Decodable, Sendable {
    public var prn: Int?
    public var used: Bool?

    enum CodingKeys: String, CodingKey {
      case prn = "PRN"
      case used
    }
  }

  /// TPV, SKY, GST, VERSION, DEVICES, WATCH, …
  public var `class`: String?
  public var time: String?
  public var mode: Int?
  /// A TPV's latitude, or a GST's standard deviation of it (metres).
  public var lat: Double?
  public var lon: Double?
  public var altMSL: Double?
  public var speed: Double?
  public var track: Double?
  public var epx: Double?
  public var epy: Double?
  public var epv: Double?
  public var hdop: Double?
  public var pdop: Double?
  public var satellites: [Satellite]?

  /// The report on `line`; nil when the line is not one.
  public init?(line: some StringProtocol) {
    guard let report = try? JSONDecoder().decode(Self.self, from: Data(line.utf8)) else { return nil }
    self = report
  }
}
