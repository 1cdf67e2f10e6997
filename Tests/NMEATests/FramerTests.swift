import NMEA
import Testing

struct FramerTests {
  static let input: [UInt8] = Array(
    ("# Date: 2020-01-02\r\n"
      + "$GPGGA,120000,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*40\r\n"
      + "$GPRMC,120000,A,4807.038,N,01131.000,E,022.4,084.4,020120,003.1,W*61\n"
      + "garbage line\n"
      + "$$GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1*39\r"
      + "$GPVTG,054.7,T,034.4,M,005.5,N,010.2,K$GPZDA,120000,02,01,2020,00,00*4D\n"
      + "$GPGLL,4916.45,N,12311.12,W,225444,A\u{0}\u{1}junk\n"
      + "\n\n$GPGSV,1,1,01,01,40,083,46*4F").utf8)

  static func frames(chunkSize: Int, includeEmptyChunks: Bool = false) -> [String] {
    frames(input, chunkSize: chunkSize, includeEmptyChunks: includeEmptyChunks)
  }

  /// Frames `bytes` fed in chunks of `chunkSize`; each line as `S:`/`C:` and its text, or `R:` and the error.
  static func frames(
    _ bytes: [UInt8], maximumLength: Int = 200, chunkSize: Int, includeEmptyChunks: Bool = false
  ) -> [String] {
    var framer = NMEALineFramer(maximumLength: maximumLength)
    var out: [String] = []
    let collect: (NMEALineFramer.Frame) -> Void = { frame in
      switch frame {
      case .sentence(let s): out.append("S:" + String(decoding: s, as: UTF8.self))
      case .comment(let c): out.append("C:" + String(decoding: c, as: UTF8.self))
      case .rejected(let e): out.append("R:\(e)")
      }
    }
    var i = 0
    while i < bytes.count {
      let end = min(i + chunkSize, bytes.count)
      Array(bytes[i..<end]).withUnsafeBytes { framer.append($0, collect) }
      if includeEmptyChunks { [UInt8]().withUnsafeBytes { framer.append($0, collect) } }
      i = end
    }
    framer.finish(collect)
    return out
  }

  @Test(arguments: [1, 2, 3, 7, 64, 4096])
  func framerIsChunkSizeIndependent(chunkSize: Int) {
    #expect(Self.frames(chunkSize: chunkSize) == Self.frames(chunkSize: Self.input.count))
    #expect(Self.frames(chunkSize: chunkSize, includeEmptyChunks: true) == Self.frames(chunkSize: Self.input.count))
  }

  @Test func framesEveryKindOfLine() {
    let frames = Self.frames(chunkSize: 5)
    #expect(
      frames == [
        "C:# Date: 2020-01-02",
        "S:$GPGGA,120000,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*40",
        "S:$GPRMC,120000,A,4807.038,N,01131.000,E,022.4,084.4,020120,003.1,W*61",
        "R:missingStart",
        "S:$GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1*39",
        "R:truncated",
        "S:$GPZDA,120000,02,01,2020,00,00*4D",
        "R:invalidCharacter(0)",
        "S:$GPGSV,1,1,01,01,40,083,46*4F",
      ])
  }

  @Test func capsLineLength() {
    var framer = NMEALineFramer(maximumLength: 82)
    let long = "$GPTXT," + String(repeating: "A", count: 100) + "\n$GPZDA,120000,02,01,2020,00,00*4D\n"
    let lines = framer.lines(Array(long.utf8))
    #expect(lines.count == 2)
    #expect(lines[0] == .failure(.lineTooLong(83)))
    #expect((try? lines[1].get()).map { String(decoding: $0, as: UTF8.self) } == "$GPZDA,120000,02,01,2020,00,00*4D")
  }

  @Test func survivesBinaryJunkAndNulBytes() {
    var framer = NMEALineFramer()
    var bytes: [UInt8] = (0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) }
    bytes += Array("\n$GPZDA,120000,02,01,2020,00,00*4D\n".utf8)
    let lines = framer.lines(bytes)
    let sentences = lines.compactMap { try? $0.get() }.map { String(decoding: $0, as: UTF8.self) }
    #expect(sentences.last == "$GPZDA,120000,02,01,2020,00,00*4D")
  }

  @Test func acceptsEveryLineEnding() {
    for ending in ["\r\n", "\n", "\r"] {
      var framer = NMEALineFramer()
      let text = "$GPZDA,120000,02,01,2020,00,00*4D" + ending + "$GPZDA,120001,02,01,2020,00,00*4C" + ending
      let lines = framer.lines(Array(text.utf8), final: false)
      #expect(lines.count == 2, "ending \(Array(ending.utf8))")
    }
  }
}
