/// Splits a byte stream into NMEA 0183 sentences and `#` comment lines.
///
/// The framer is a synchronous state machine: feed it bytes in chunks of any
/// size (including empty chunks) and it reports the same lines whatever the
/// chunking. It follows gpsd's packet lexer where that matters for real
/// receivers:
///
/// - A sentence starts at `$` or `!` and ends at CR, LF, or both (CR LF, LF
///   and lone CR line endings are all accepted; empty lines are skipped).
/// - A `$` or `!` inside a sentence starts a new sentence; the interrupted one
///   is reported as ``NMEAParseError/truncated`` unless it was a lone `$`
///   (so `$$GPGGA…` decodes as `$GPGGA…`).
/// - A byte that is not printable ASCII inside a sentence (NUL, binary junk)
///   abandons it (``NMEAParseError/invalidCharacter(_:)``); the framer resyncs
///   on the next `$`.
/// - A sentence longer than ``maximumLength`` bytes (default 200, above the
///   82 of the standard, because real receivers exceed it) is abandoned with
///   ``NMEAParseError/lineTooLong(_:)``.
/// - A line that starts with `#` is a comment (log headers such as
///   `# Date: 2019-03-14`); other bytes outside a sentence are junk and
///   counted once per line.
///
/// Memory is bounded by ``maximumLength``: only a sentence that straddles two
/// chunks is copied; all others are handed out as views into the caller's
/// buffer, valid only during the callback.
public struct NMEALineFramer: Sendable {
  /// One framed line.
  public enum Frame {
    /// A complete sentence from `$`/`!` up to (not including) the line ending.
    case sentence(UnsafeRawBufferPointer)
    /// A `#` comment line, without the line ending.
    case comment(UnsafeRawBufferPointer)
    /// A line or fragment that is not a sentence.
    case rejected(NMEAParseError)
  }

  /// The longest sentence accepted, in bytes, from `$` to the end of the checksum.
  public let maximumLength: Int

  private enum Mode: UInt8, Sendable {
    case lineStart, sentence, comment, junk, skipLine
  }

  private var mode: Mode = .lineStart
  private var pending: [UInt8] = []
  /// Whether the current junk line has been counted already.
  private var junkCounted = false
  /// Lines seen so far (sentences, comments and junk lines; empty lines are not counted).
  public private(set) var lineCount = 0

  /// This framer as if its input began here: at a line start, nothing pending (its count kept).
  var atLineStart: NMEALineFramer {
    var fresh = NMEALineFramer(maximumLength: maximumLength)
    fresh.lineCount = lineCount
    return fresh
  }

  /// Empties both framers' partial lines when they hold the same bytes (see
  /// `NMEADecoder.sameBits`); false, and both left as they were, otherwise.
  mutating func setAsideBuffer(ifSameAs other: inout NMEALineFramer) -> Bool {
    guard pending == other.pending else { return false }
    (pending, other.pending) = ([], [])
    return true
  }

  /// This framer's state without what it counted (its line count at zero).
  var comparable: NMEALineFramer {
    var copy = self
    copy.lineCount = 0
    return copy
  }

  /// Creates a framer.
  /// - Parameter maximumLength: the longest sentence accepted (default 200 bytes).
  public init(maximumLength: Int = 200) {
    precondition(maximumLength >= 11, "maximumLength must fit at least an address")
    self.maximumLength = maximumLength
    pending.reserveCapacity(maximumLength)
  }

  /// Flags the bytes of a little-endian word that may end a sentence: those below 0x25 (controls,
  /// line endings, space, `!`, `"`, `#`, `$`) and those above 0x7E. The lowest flag is exact
  /// (flags above it may be false, from a borrow or carry), so zero means none does.
  @inline(__always)
  static func mayEndSentence(_ x: UInt64) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    let below25 = (x &- ones &* 0x25) & ~x & highs
    let above7E = ((x &+ ones) | x) & highs
    return below25 | above7E
  }

  /// Whether `b` ends a sentence: outside printable ASCII, or `$` or `!`.
  @inline(__always)
  static func endsSentence(_ b: UInt8) -> Bool { b &- 0x20 >= 0x5F || b == 0x24 || b == 0x21 }

  /// Frames `bytes`, calling `body` for every line completed within them.
  ///
  /// A line that is still open at the end of `bytes` is kept and completed by
  /// a later call or by ``finish(_:)``.
  public mutating func append(
    _ bytes: UnsafeRawBufferPointer, _ body: (Frame) throws -> Void
  ) rethrows {
    guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
    let count = bytes.count
    var i = 0
    // Start of the current sentence inside `bytes`, or -1 when it lives in `pending`.
    var start = mode == .sentence ? -1 : 0
    while i < count {
      switch mode {
      case .sentence:
        // Hot loop: scan for the end of the sentence, at most one byte past the length limit.
        var length = start >= 0 ? i - start : pending.count
        let limit = Swift.min(count, i + Swift.max(0, maximumLength - length) + 1)
        var j = i
        while j < limit {
          if j &+ 8 <= limit {
            // Eight bytes at a time; from a flagged word, on to its first flagged byte.
            let word = UInt64(littleEndian: UnsafeRawPointer(base + j).loadUnaligned(as: UInt64.self))
            let flags = NMEALineFramer.mayEndSentence(word)
            if flags == 0 {
              j &+= 8
              continue
            }
            j &+= flags.trailingZeroBitCount &>> 3
          }
          // One byte: the flagged one, or one of the last seven before the limit. Printable
          // ASCII other than '$' and '!' (a space, say) continues the sentence.
          if NMEALineFramer.endsSentence(base[j]) { break }
          j &+= 1
        }
        length += j - i
        if start < 0 && j > i {
          pending.append(contentsOf: UnsafeBufferPointer(start: base + i, count: j - i))
        }
        if j == count && length <= maximumLength {
          // The sentence continues in the next chunk: keep what we have.
          if start >= 0 {
            pending.removeAll(keepingCapacity: true)
            pending.append(contentsOf: UnsafeBufferPointer(start: base + start, count: count - start))
          }
          mode = .sentence
          return
        }
        if length > maximumLength {
          lineCount += 1
          try body(.rejected(.lineTooLong(length)))
          mode = .skipLine
          i = j
          continue
        }
        let b = base[j]
        if b == 0x0D || b == 0x0A {
          lineCount += 1
          try emitSentence(base: base, start: start, end: j, body)
          mode = .lineStart
          // The line ends here: junk on the next one is counted again.
          junkCounted = false
          i = j + 1
        } else if b == 0x24 || b == 0x21 {
          // A new sentence begins inside this one.
          let fragmentLength = start >= 0 ? j - start : pending.count
          if fragmentLength > 1 {
            lineCount += 1
            try body(.rejected(.truncated))
          }
          start = j
          pending.removeAll(keepingCapacity: true)
          i = j + 1
        } else {
          lineCount += 1
          try body(.rejected(.invalidCharacter(b)))
          mode = .junk
          junkCounted = true
          i = j + 1
        }
      case .lineStart, .junk, .skipLine, .comment:
        let b = base[i]
        i += 1
        if mode == .comment && b != 0x0D && b != 0x0A {
          // A comment runs to the end of its line, whatever it holds.
          if pending.count < maximumLength { pending.append(b) }
          continue
        }
        if b == 0x24 || b == 0x21 {
          mode = .sentence
          start = i - 1
          if !pending.isEmpty { pending.removeAll(keepingCapacity: true) }
          continue
        }
        if b == 0x0D || b == 0x0A {
          if mode == .comment { try finishComment(body) }
          mode = .lineStart
          junkCounted = false
          continue
        }
        switch mode {
        case .lineStart:
          if b == 0x23 {  // '#'
            mode = .comment
            pending.removeAll(keepingCapacity: true)
            pending.append(b)
          } else if b == 0x20 || b == 0x09 {
            // Leading white space: still at the start of the line.
          } else {
            mode = .junk
            if !junkCounted {
              junkCounted = true
              lineCount += 1
              try body(.rejected(.missingStart))
            }
          }
        default:
          break
        }
      }
    }
    if mode == .sentence && start >= 0 {
      // A sentence began on this chunk's last byte(s): keep it for the next chunk.
      pending.removeAll(keepingCapacity: true)
      pending.append(contentsOf: UnsafeBufferPointer(start: base + start, count: count - start))
    }
  }

  /// Completes the last line of the stream, which may lack a line ending.
  public mutating func finish(_ body: (Frame) throws -> Void) rethrows {
    switch mode {
    case .sentence:
      lineCount += 1
      let copy = pending
      try copy.withUnsafeBytes { try body(.sentence($0)) }
    case .comment:
      try finishComment(body)
    default:
      break
    }
    pending.removeAll(keepingCapacity: true)
    mode = .lineStart
    junkCounted = false
  }

  /// Frames a whole buffer and returns its lines as byte arrays (a convenience for tests and small inputs).
  public mutating func lines(_ bytes: some Sequence<UInt8>, final: Bool = true) -> [Result<[UInt8], NMEAParseError>] {
    var out: [Result<[UInt8], NMEAParseError>] = []
    let array = Array(bytes)
    let collect: (Frame) -> Void = { frame in
      switch frame {
      case .sentence(let s): out.append(.success(Array(s)))
      case .comment(let c): out.append(.success(Array(c)))
      case .rejected(let e): out.append(.failure(e))
      }
    }
    array.withUnsafeBytes { append($0, collect) }
    if final { finish(collect) }
    return out
  }

  private mutating func emitSentence(
    base: UnsafePointer<UInt8>, start: Int, end: Int, _ body: (Frame) throws -> Void
  ) rethrows {
    if start >= 0 {
      try body(.sentence(UnsafeRawBufferPointer(start: base + start, count: end - start)))
    } else {
      try pending.withUnsafeBytes { try body(.sentence($0)) }
    }
    if !pending.isEmpty { pending.removeAll(keepingCapacity: true) }
  }

  private mutating func finishComment(_ body: (Frame) throws -> Void) rethrows {
    lineCount += 1
    try pending.withUnsafeBytes { try body(.comment($0)) }
    pending.removeAll(keepingCapacity: true)
  }
}
