import Foundation

/// A fix record as `locemu decode`, `replay` and `watch` print it, one JSON object a line
/// (gpsd's TPV names): the members the tests read, each nil when the record leaves it out.
struct FixLine: Decodable, Sendable, Equatable {
  var time: String?
  var mode: Int?
  var lat: Double?
  var lon: Double?
  var altMSL: Double?
  var speed: Double?
  var track: Double?
  var eph: Double?
  /// `replay`'s: seconds on its clock.
  var elapsed: Double?
}

/// A line of a scenario's transcript (`locemu permissions`, `locemu preview --json`): its time and
/// event, and the members of the events the tests read (nil in the other events).
struct TranscriptRecord: Decodable, Sendable {
  var t: Double
  var event: String
  /// `statusChange`'s, `locateResult`'s, `tapIgnored`'s.
  var reason: String?
  /// A call's fix (`requestResult`, `locateResult`): nil when null.
  var result: FixLine?
  // A `fix` line's members.
  var mode: Int?
  var lat: Double?
  var lon: Double?
  var altMSL: Double?
  var eph: Double?
  // `preview`'s.
  var preview: String?
  var center: [Double]?
  var radiusMeters: Double?
  var pins: Int?
  var pinIds: [String]?
  // `navigation`'s.
  var screen: String?
  var trigger: String?
  // `fullscreenMap`'s.
  var title: String?
  var zoom: Double?
  // `log`'s (and `preview`'s).
  var message: String?
}

extension DecodeCommandTests.Run {
  /// Every line of standard output decoded as `type` (one JSON object a line); a line that is
  /// not one fails the test.
  func decoded<T: Decodable>(_ type: T.Type) throws -> [T] {
    try lines.map { try JSONDecoder().decode(type, from: Data($0.utf8)) }
  }
}
