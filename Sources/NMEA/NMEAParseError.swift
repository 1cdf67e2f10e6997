/// The reasons a line of NMEA 0183 input is not turned into a sentence.
///
/// The set is closed, so callers can switch over it. Streaming decoders never
/// throw these: they count them in ``NMEADecoderStatistics`` and go on with
/// the next line, because a serial feed is expected to be noisy.
public enum NMEAParseError: Error, Hashable, Sendable {
  /// The line does not start with `$` or `!`.
  case missingStart
  /// The line is longer than the framer's limit (the count is the length seen).
  case lineTooLong(Int)
  /// The line holds a byte that is not printable ASCII (a NUL, binary junk).
  case invalidCharacter(UInt8)
  /// A new `$` or `!` arrived before the line ended: the line was cut short.
  case truncated
  /// The address field is not a talker plus sentence type, nor a proprietary `P…` address.
  case invalidAddress
  /// The `*hh` checksum field is not two hexadecimal digits.
  case malformedChecksum
  /// The checksum does not match the XOR of the bytes between `$` and `*`.
  case checksumMismatch(expected: UInt8, actual: UInt8)

  /// The statistics bucket the error is counted in: `checksum` or `framing`.
  public var reason: NMEARejection {
    switch self {
    case .malformedChecksum, .checksumMismatch: .checksum
    default: .framing
    }
  }
}

/// Why a line was not decoded, as counted in ``NMEADecoderStatistics``.
public enum NMEARejection: String, Hashable, Sendable, CaseIterable {
  /// Bad or malformed `*hh` checksum.
  case checksum
  /// Not a well-formed sentence: junk, truncated, too long, binary bytes, bad address.
  case framing
  /// A valid sentence of a type the decoder does not interpret (including proprietary ones).
  case unknown
}
