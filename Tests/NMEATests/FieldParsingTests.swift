import Foundation
@testable import NMEA
import Testing

/// The field scanners' word-at-a-time paths against plain statements of what they compute.
struct FieldParsingTests {
  /// Runs `body` with a reader over `text` (a sentence body, fields from offset 0).
  func withReader<R>(_ text: String, _ body: (inout FieldReader) -> R) -> R {
    Array(text.utf8).withUnsafeBytes { raw in
      var reader = FieldReader(raw, from: 0)
      return body(&reader)
    }
  }

  static let bodies = [
    "", ",", ",,,,,,,,,,,,,,,,", "A", "A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1",
    "123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,",
    "a-very-long-field-without-any-comma-at-all,b", "12345678,12345678,1234567,123456789",
  ]

  @Test(arguments: bodies)
  func nextSplitsAtEveryComma(body: String) {
    let expected = body.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    let fields: [String] = withReader(body) { reader in
      var out: [String] = []
      while !reader.isAtEnd { out.append(reader.next().string) }
      return out
    }
    #expect(fields == (body.isEmpty ? [""] : expected))
  }

  /// Fields for the one-pass number readers: their fast paths (two or three digits and a comma,
  /// digits and a point) and everything that must fall back to ``Field``'s readers.
  static let numberFields = [
    "", "0", "07", "45", "123", "1234", "00000", "-5", "+5", "-", "+", "12a", "a12", "1 2", "1.5", ".", "5.",
    ".5", "1.2.3", "0.900", "105.0", "-12.345", "123456789012345678", "1234567890123456789",
    "12345678901234567890123", "0.000000000000000001", "99999999999999999.9", "1e5", "*", "\u{7F}",
  ]

  /// `nextInt()` and `nextDouble()` give what `next().int` and `next().double` give, and leave
  /// the reader where they leave it, for every field in every place of a sentence (first,
  /// middle, last; after short and long fields).
  @Test(arguments: numberFields)
  func onePassReadersAgreeWithTheFieldReaders(field: String) {
    for body in ["\(field)", "\(field),", "\(field),7", "12,\(field),x", "abcdefghij,\(field)", "1,2,\(field),\(field)"] {
      let fieldCount = body.isEmpty ? 1 : body.split(separator: ",", omittingEmptySubsequences: false).count
      /// Every field of `body` (and one past the end) read by `onePass` and, from a copy, by
      /// `byField`: each value and whether the reader is at its end.
      func read(
        _ onePass: (inout FieldReader) -> String, _ byField: (inout FieldReader) -> String
      ) -> (got: [String], expected: [String]) {
        withReader(body) { reader in
          var copy = reader
          var got: [String] = [], expected: [String] = []
          for _ in 0...fieldCount {
            got.append("\(onePass(&reader))|\(reader.isAtEnd)")
            expected.append("\(byField(&copy))|\(copy.isAtEnd)")
          }
          return (got, expected)
        }
      }
      let ints = read({ "\($0.nextInt().map(String.init) ?? "nil")" }, { "\($0.next().int.map(String.init) ?? "nil")" })
      #expect(ints.got == ints.expected, "ints of \(body)")
      let doubles = read(
        { "\($0.nextDouble().map { String($0.bitPattern) } ?? "nil")" },
        { "\($0.next().double.map { String($0.bitPattern) } ?? "nil")" })
      #expect(doubles.got == doubles.expected, "doubles of \(body)")
    }
  }

  @Test(arguments: bodies)
  func skipAgreesWithReadingFieldByField(body: String) {
    for n in 0...20 {
      let (skipped, stepped): (String, String) = withReader(body) { reader in
        var copy = reader
        reader.skip(n)
        for _ in 0..<n { _ = copy.next() }
        return (reader.next().string + "|\(reader.isAtEnd)", copy.next().string + "|\(copy.isAtEnd)")
      }
      #expect(skipped == stepped, "skip(\(n)) of \(body)")
    }
  }

  @Test(arguments: [
    "0", "5", "-0.5", "+12.25", "545.4", ".5", "5.", "0000001.2500", "123456789012345678",
    "1234567890.12345678", "1234567890123456789.5", "",
    "-", "+", ".", "1.2.3", "1e5", "12a", " 1", "--1", "1-",
  ])
  func doubleAgreesWithTheStandardLibrary(text: String) {
    let parsed = withReader(text) { $0.next().double }
    // Foundation's parser also takes exponents, spaces and more; NMEA numbers do not have them.
    let plain =
      text.allSatisfy { "0123456789.+-".contains($0) } && text.filter { $0 == "." }.count <= 1
      && !text.dropFirst().contains { $0 == "+" || $0 == "-" }
    let expected = plain ? Double(text) ?? (text.hasSuffix(".") ? Double(text.dropLast()) : nil) : nil
    #expect(parsed == expected, "\(text)")
  }

  @Test func timeOfDayTakesUpToNanoseconds() {
    #expect(withReader("123519") { $0.next().timeOfDay } == NMEATimeOfDay(hours: 12, minutes: 35, seconds: 19))
    #expect(
      withReader("235960.25") { $0.next().timeOfDay }
        == NMEATimeOfDay(hours: 23, minutes: 59, seconds: 60, nanoseconds: 250_000_000))
    #expect(
      withReader("000000.123456789987") { $0.next().timeOfDay }
        == NMEATimeOfDay(hours: 0, minutes: 0, seconds: 0, nanoseconds: 123_456_789))
    #expect(withReader("123519.") { $0.next().timeOfDay } == NMEATimeOfDay(hours: 12, minutes: 35, seconds: 19))
    for bad in ["12351", "1235x9", "240000", "126000", "123519.5x", "123519:5"] {
      #expect(withReader(bad) { $0.next().timeOfDay } == nil, "\(bad)")
    }
  }

  @Test func checksumOfEveryLengthAndOffset() {
    let bytes = Array("$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47".utf8)
    bytes.withUnsafeBytes { raw in
      for from in 0..<20 {
        for to in from...bytes.count {
          let expected = bytes[from..<to].reduce(UInt8(0), ^)
          #expect(xorChecksum(raw, from: from, to: to) == expected, "\(from)..<\(to)")
        }
      }
    }
  }

  /// Every kind in the table of sentence kinds comes back from its code (the one list there the
  /// compiler cannot check), and that code is the one a frame reads from the sentence's address.
  @Test func everySentenceKindComesBackFromItsCode() throws {
    for kind in NMEASentenceKind.allCases {
      #expect(NMEASentenceKind(code: kind.code) == kind, "\(kind.type)")
      let line = Array("$GP\(kind.type),".utf8)
      let code = try line.withUnsafeBytes { raw in try SentenceFrame(raw).typeCode }
      #expect(code == kind.code, "\(kind.type)")
      let message = try NMEAMessage("$GP\(kind.type),")
      #expect(message.kind == kind && message.type == kind.type, "\(kind.type)")
    }
    #expect(NMEASentenceKind(code: 0) == nil)
  }

  @Test func satellitesInViewSumsTheLatestCountOfEachTalker() {
    var inView = SatellitesInView()
    #expect(inView.total == nil)
    inView.record(.gps, 11)
    inView.record(.glonass, 7)
    inView.record(.gps, 12)
    #expect(inView.total == 19)
    // Talkers beyond the capacity in one epoch are ignored, not a crash.
    for code in 0..<20 { inView.record(NMEATalker(0x41, UInt8(0x41 + code)), 1) }
    #expect(inView.total == 19 + SatellitesInView.capacity - 2)
    inView.record(.init(0x41, 0x41), Int.max)
    _ = inView.total
  }
}
