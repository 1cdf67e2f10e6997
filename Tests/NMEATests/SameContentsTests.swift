import Testing

@testable import NMEA

/// `sameContents`, the comparison the parallel decoder trusts to keep a chunk: it must never
/// say "same" for values that differ, and should say it for values that do not.
struct SameContentsTests {
  struct Point: Sendable {
    var x: Double
    var label: String?
    var tags: [Int]
  }

  enum Step: Sendable {
    case start
    case move(Double)
    case turn(Double)
  }

  final class Box: @unchecked Sendable { var value = 1 }

  struct Holder: Sendable {
    var box: Box
  }

  @Test("NaN is the same as NaN, 0.0 and -0.0 differ, as do two NaNs with different payloads")
  func floatingPoint() {
    #expect(sameContents(Double.nan, Double.nan))
    #expect(!sameContents(0.0, -0.0))
    #expect(!sameContents(Double.nan, Double(nan: 1, signaling: false)))
    #expect(sameContents(Point(x: .nan, label: nil, tags: []), Point(x: .nan, label: nil, tags: [])))
  }

  @Test("a different member, element, count, optional or enum case is a difference")
  func differences() {
    let p = Point(x: 1, label: "a", tags: [1, 2])
    #expect(sameContents(p, Point(x: 1, label: "a", tags: [1, 2])))
    #expect(!sameContents(p, Point(x: 2, label: "a", tags: [1, 2])))
    #expect(!sameContents(p, Point(x: 1, label: nil, tags: [1, 2])))
    #expect(!sameContents(p, Point(x: 1, label: "b", tags: [1, 2])))
    #expect(!sameContents(p, Point(x: 1, label: "a", tags: [1, 2, 3])))
    #expect(!sameContents(p, Point(x: 1, label: "a", tags: [2, 1])))
    #expect(!sameContents(Step.move(1), Step.turn(1)))
    #expect(!sameContents(Step.start, Step.move(0)))
    #expect(sameContents(Step.move(1), Step.move(1)))
    #expect(!sameContents(1, 1.0))
    #expect(!sameContents(Int32(1), Int64(1)))
  }

  @Test("a class instance is never the same, not even as itself: its contents can change behind the comparison")
  func classes() {
    let box = Box()
    #expect(!sameContents(Holder(box: box), Holder(box: box)))
  }

  @Test("an inline list is its elements: what is left in its unused places is not compared")
  func inlineList() {
    var a = InlineList<4, Int>(filler: 0)
    var b = InlineList<4, Int>(filler: 9)
    a.append(1)
    b.append(1)
    #expect(sameContents(a, b))
    b.append(2)
    #expect(!sameContents(a, b))
    var c = InlineList<1, Int>(filler: 0)
    c.append(1)
    c.append(2)  // beyond the inline place
    var d = InlineList<1, Int>(filler: 0)
    d.append(1)
    d.append(3)
    #expect(!sameContents(c, d))
  }

  /// Nine bytes of data in a sixteen-byte stride: seven bytes of padding after each element.
  struct Padded: Sendable {
    var value: Int
    var flag: Bool
  }

  @Test(
    "values without references are compared by their bytes first: what lies in the padding between array elements is not compared, a different byte is a difference with its path"
  )
  func bitwiseShortcut() {
    let clean = (0..<5).map { Padded(value: $0, flag: $0 % 2 == 0) }
    var dirty = clean
    dirty.withUnsafeMutableBytes { bytes in
      for i in 0..<5 {
        for pad in MemoryLayout<Padded>.size..<MemoryLayout<Padded>.stride { bytes[i * MemoryLayout<Padded>.stride + pad] = 0xA5 }
      }
    }
    #expect(sameContents(clean, dirty))
    var changed = dirty
    changed[3].flag.toggle()
    #expect(!sameContents(clean, changed))
    #expect(contentsDifference(clean, changed) == "[3].flag")
    #expect(!sameContents(clean, Array(clean.dropLast())))
    #expect(sameContents([Padded](), [Padded]()))
    #expect(!sameContents(Padded(value: 1, flag: true), Padded(value: 1, flag: false)))
    #expect(sameContents(Padded(value: 1, flag: true), Padded(value: 1, flag: true)))
    #expect(!sameContents([Double.nan], [Double(nan: 1, signaling: false)]))
    #expect(!sameContents([0.0], [-0.0]))
  }

  /// Seven bytes of padding after the optional's tag, and a tuple with some after its Boolean.
  struct Gappy: Sendable {
    var value: Double?
    var count: Int
    var pair: (flag: Bool, amount: Double)
  }

  @Test("bytes compared as stored: padding is not compared, every member's own bytes are, nested tuples too")
  func paddingIsNotCompared() {
    let clean = Gappy(value: 1.5, count: 7, pair: (true, 2.5))
    var dirty = clean
    withUnsafeMutableBytes(of: &dirty) { bytes in
      for i in 9..<16 { bytes[i] = 0xA5 }  // after `value`'s tag
      for i in 25..<32 { bytes[i] = 0x5A }  // after `pair.flag`
    }
    #expect(sameInlineBytes(clean, dirty))
    #expect(sameContents(clean, dirty))
    for changed in [
      Gappy(value: nil, count: 7, pair: (true, 2.5)), Gappy(value: 1.5, count: 8, pair: (true, 2.5)),
      Gappy(value: 1.5, count: 7, pair: (false, 2.5)), Gappy(value: 1.5, count: 7, pair: (true, -2.5)),
    ] {
      #expect(!sameInlineBytes(changed, dirty))
      #expect(!sameContents(changed, dirty))
    }
  }

  @Test("the quick comparison of decoder states sets a sky's arrays aside only when their elements are the same")
  func quickComparisonCoversTheState() throws {
    var a = GPSDSky(), b = GPSDSky(), c = GPSDSky()
    func gsv(_ body: String) throws -> GSV {
      guard case .gsv(let s) = try NMEAMessage(String(EpochAssemblerTests.sentence(body).dropLast())) else {
        throw NMEAParseError.invalidAddress
      }
      return s
    }
    _ = a.gsv(try gsv("GPGSV,1,1,02,01,45,123,42,02,30,067,38"))
    _ = b.gsv(try gsv("GPGSV,1,1,02,01,45,123,42,02,30,067,38"))
    _ = c.gsv(try gsv("GPGSV,1,1,02,01,45,123,42,02,30,067,39"))
    var a2 = a
    let differentKept = a2.setAsideArrays(ifSameAs: &c)
    #expect(!differentKept)
    #expect(a2.satellites.count == 2 && c.satellites.count == 2, "left as they were")
    let sameKept = a2.setAsideArrays(ifSameAs: &b)
    #expect(sameKept)
    #expect(a2.satellites.isEmpty && b.satellites.isEmpty)
  }

  @Test("two decoders that read the same sentences are the same; one more sentence makes them differ; counts are not compared")
  func decoders() {
    let lines = [
      "GPGGA,120000.00,5013.0000,N,01955.8000,E,1,08,0.9,220.0,M,39.0,M,,",
      "GPRMC,120000.00,A,5013.0000,N,01955.8000,E,0.0,0.0,270526,,,A",
      "GPGSA,A,3,01,02,03,04,,,,,,,,,1.8,0.9,1.5",
      "GPGSV,1,1,04,01,45,123,42,02,30,067,38,03,12,310,30,04,60,201,45",
      "GPGGA,120001.00,5013.0001,N,01955.8000,E,1,08,0.9,220.0,M,39.0,M,,",
    ].map { Array(EpochAssemblerTests.sentence($0).utf8) }
    var a = NMEADecoder()
    var b = NMEADecoder()
    a.decode(Array("junk line\r\n".utf8)) { _ in }  // counted, but leaves the same state
    for line in lines { a.decode(line) { _ in } }
    for line in lines { b.decode(line) { _ in } }
    #expect(a.counts != b.counts)
    #expect(a.decodesLike(b))
    #expect(a.hasSameBits(as: b), "the quick comparison should find them the same")
    // The walk alone agrees, and finds no class instance in the state (equal references to one
    // would make the quick comparison wrong).
    #expect(contentsDifference(a, a) == nil)
    // A line in progress is the framer's state: the same one is the same, another is not.
    var (partial, same, other) = (b, b, b)
    partial.decode(Array("$GPGGA,1200".utf8)) { _ in }
    same.decode(Array("$GPGGA,1200".utf8)) { _ in }
    other.decode(Array("$GPGGA,1201".utf8)) { _ in }
    #expect(partial.hasSameBits(as: same))
    #expect(!partial.hasSameBits(as: other))
    #expect(!partial.decodesLike(other))
    // One satellite's signal apart: the skies differ, and the quick comparison says so.
    var c = NMEADecoder()
    for line in lines {
      let text = String(decoding: line, as: UTF8.self)
      c.decode(
        text.contains("GSV")
          ? Array(EpochAssemblerTests.sentence("GPGSV,1,1,04,01,45,123,42,02,30,067,38,03,12,310,31,04,60,201,45").utf8) : line
      ) { _ in }
    }
    #expect(!a.decodesLike(c))
    #expect(a.stateDifference(from: c)?.contains("sky.satellites") == true)
    b.decode(Array(EpochAssemblerTests.sentence("GPGSA,A,3,01,02,03,04,,,,,,,,,1.8,0.9,1.5").utf8)) { _ in }
    #expect(!a.decodesLike(b))
    #expect(a.stateDifference(from: b) != nil)
  }
}
