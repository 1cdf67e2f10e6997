import EmulatorTesting
import NMEA
import Testing

/// The framer's word-at-a-time scanning against a byte-at-a-time statement of its rules,
/// over random streams rich in the bytes that matter: line endings, `$`, `!`, the printable
/// bytes below `%` that the word test flags without ending a sentence, DEL, high bytes, NUL.
struct FramerReferenceTests {
  /// The framing rules, one byte at a time (see ``NMEALineFramer``).
  struct ReferenceFramer {
    enum Mode { case lineStart, sentence, comment, junk, skipLine }
    let maximumLength: Int
    var mode = Mode.lineStart
    var pending: [UInt8] = []
    var junkCounted = false
    var out: [String] = []

    mutating func feed(_ b: UInt8) {
      let isEnd = b == 0x0D || b == 0x0A
      let isStart = b == 0x24 || b == 0x21
      switch mode {
      case .sentence:
        if isEnd {
          out.append("S:" + String(decoding: pending, as: UTF8.self))
          mode = .lineStart
          junkCounted = false
        } else if isStart {
          if pending.count > 1 { out.append("R:\(NMEAParseError.truncated)") }
          pending = [b]
        } else if b < 0x20 || b > 0x7E {
          out.append("R:\(NMEAParseError.invalidCharacter(b))")
          mode = .junk
          junkCounted = true
        } else {
          pending.append(b)
          if pending.count > maximumLength {
            out.append("R:\(NMEAParseError.lineTooLong(pending.count))")
            mode = .skipLine
          }
        }
      case .comment:
        if isEnd {
          out.append("C:" + String(decoding: pending, as: UTF8.self))
          mode = .lineStart
          junkCounted = false
        } else if pending.count < maximumLength {
          pending.append(b)
        }
      case .lineStart, .junk, .skipLine:
        if isStart {
          mode = .sentence
          pending = [b]
        } else if isEnd {
          mode = .lineStart
          junkCounted = false
        } else if mode == .lineStart {
          if b == 0x23 {
            mode = .comment
            pending = [b]
          } else if b != 0x20 && b != 0x09 {
            mode = .junk
            if !junkCounted {
              junkCounted = true
              out.append("R:\(NMEAParseError.missingStart)")
            }
          }
        }
      }
    }

    mutating func finish() {
      if mode == .sentence { out.append("S:" + String(decoding: pending, as: UTF8.self)) }
      if mode == .comment { out.append("C:" + String(decoding: pending, as: UTF8.self)) }
    }
  }

  static let alphabet: [UInt8] =
    Array("GPGGA,0123456789.*NE".utf8) + [0x0D, 0x0A, 0x24, 0x24, 0x21, 0x20, 0x22, 0x23, 0x09, 0x7F, 0x80, 0xFF, 0x00, 0x7E]

  @Test(.notUnderThreadSanitizer, arguments: 0..<8)
  func framerFollowsTheByteAtATimeRules(seed: UInt64) {
    var random = SeededRandom(seed: seed)
    for _ in 0..<250 {
      // Mostly sentence bytes, so that runs long enough for the word scan occur.
      let length = Int.random(in: 0...400, using: &random)
      let bytes: [UInt8] = (0..<length).map { _ in
        Int.random(in: 0..<10, using: &random) < 8
          ? Array("GPGGA,123519.00,4807.038".utf8).randomElement(using: &random)!
          : Self.alphabet.randomElement(using: &random)!
      }
      let maximumLength = [11, 40, 82, 200].randomElement(using: &random)!
      var reference = ReferenceFramer(maximumLength: maximumLength)
      bytes.forEach { reference.feed($0) }
      reference.finish()
      let chunkSize = [1, 3, 8, 13, 64, 4096].randomElement(using: &random)!
      let framed = FramerTests.frames(bytes, maximumLength: maximumLength, chunkSize: chunkSize)
      #expect(framed == reference.out, "seed \(seed), bytes \(bytes), limit \(maximumLength), chunks of \(chunkSize)")
      if framed != reference.out { return }
    }
  }

  @Test func spacesAndQuotesInsideASentenceDoNotEndIt() {
    let line = "$GPTXT,01,01,02,u-blox ag - www.u-blox.com \"#1\"*50"
    for chunkSize in [1, 5, 8, 64] {
      #expect(FramerTests.frames(Array((line + "\r\n").utf8), chunkSize: chunkSize) == ["S:" + line])
    }
  }
}
