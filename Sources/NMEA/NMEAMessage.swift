/// One NMEA 0183 sentence, decoded into a typed value where the type is known.
///
/// Every talker is accepted (`GP`, `GN`, `GL`, `GA`, `GB`, `BD`, `QZ`, …):
/// the talker is kept in each typed sentence. A valid sentence of any other
/// type, including proprietary `$P…` sentences and `!` encapsulated ones, is
/// ``unknown(_:)``: counted by the decoder, never an error.
public enum NMEAMessage: Hashable, Sendable {
  /// A GGA sentence: time, position, fix quality and altitude.
  case gga(GGA)
  /// An RMC sentence: the recommended minimum, with date, speed and track.
  case rmc(RMC)
  /// A GLL sentence: geographic position and time.
  case gll(GLL)
  /// A GNS sentence: multi-constellation fix data.
  case gns(GNS)
  /// A GSA sentence: fix mode, satellites used and dilutions of precision.
  case gsa(GSA)
  /// A GSV sentence: satellites in view.
  case gsv(GSV)
  /// A VTG sentence: track and speed over ground.
  case vtg(VTG)
  /// A ZDA sentence: UTC time and a full date.
  case zda(ZDA)
  /// A GST sentence: pseudorange error statistics.
  case gst(GST)
  /// A well-formed sentence of a type not interpreted here.
  case unknown(NMEAAddress)

  /// Decodes one framed line (from `$` or `!` to the end of the checksum; trailing white space is ignored).
  ///
  /// - Throws: ``NMEAParseError`` when the line is not a well-formed sentence or its checksum is wrong.
  ///   A sentence without a `*hh` checksum is accepted, as gpsd accepts it.
  public init(parsing line: UnsafeRawBufferPointer) throws(NMEAParseError) {
    let frame = try SentenceFrame(line)
    self = NMEAMessage.decode(frame)
  }

  /// Decodes one sentence given as text, such as `"$GPGGA,…*47"`.
  public init(_ line: String) throws(NMEAParseError) {
    var copy = line
    let result: Result<NMEAMessage, NMEAParseError> = copy.withUTF8 { buffer in
      do throws(NMEAParseError) {
        return .success(try NMEAMessage(parsing: UnsafeRawBufferPointer(buffer)))
      } catch {
        return .failure(error)
      }
    }
    self = try result.get()
  }

  static func decode(_ frame: SentenceFrame) -> NMEAMessage {
    var fields = frame.fields
    guard let talker = frame.talker, let kind = NMEASentenceKind(code: frame.typeCode) else {
      return .unknown(frame.address)
    }
    switch kind {
    case .gga: return .gga(GGA(talker: talker, &fields))
    case .rmc: return .rmc(RMC(talker: talker, &fields))
    case .gll: return .gll(GLL(talker: talker, &fields))
    case .gns: return .gns(GNS(talker: talker, &fields))
    case .gsa: return .gsa(GSA(talker: talker, &fields))
    case .gsv: return .gsv(GSV(talker: talker, &fields))
    case .vtg: return .vtg(VTG(talker: talker, &fields))
    case .zda: return .zda(ZDA(talker: talker, &fields))
    case .gst: return .gst(GST(talker: talker, &fields))
    }
  }

  /// The kind of a typed sentence (see `NMEASentenceKind`), nil for ``unknown(_:)``.
  package var kind: NMEASentenceKind? {
    switch self {
    case .gga: .gga
    case .rmc: .rmc
    case .gll: .gll
    case .gns: .gns
    case .gsa: .gsa
    case .gsv: .gsv
    case .vtg: .vtg
    case .zda: .zda
    case .gst: .gst
    case .unknown: nil
    }
  }

  /// The sentence type, such as `"GGA"`, or the whole address for an unknown one.
  public var type: String {
    if case .unknown(let address) = self { return address.description }
    return kind?.type ?? ""  // every other message has a kind
  }
}

/// The address field of a sentence: a talker and a type, or a proprietary address.
public struct NMEAAddress: Hashable, Sendable, CustomStringConvertible {
  /// The talker, nil for a proprietary (`P…`) address.
  public var talker: NMEATalker?
  /// The sentence type (`GGA`), or for proprietary sentences the rest of the address (`GRME` of `PGRME`).
  public var type: String
  /// The start character, `$` or `!`.
  public var start: Character

  /// Creates an address.
  /// - Parameters:
  ///   - talker: the talker; nil for a proprietary address.
  ///   - type: the sentence type, or the rest of a proprietary address.
  ///   - start: the start character, `$` or `!`.
  public init(talker: NMEATalker?, type: String, start: Character = "$") {
    self.talker = talker
    self.type = type
    self.start = start
  }

  /// Whether this is a proprietary (`P…`) address, one without a talker.
  public var isProprietary: Bool { talker == nil }

  /// The address without its start character: `GPGGA`, or `P` and the rest (`PGRME`).
  public var description: String { (talker.map { "\($0)" } ?? "P") + type }
}

@inline(__always)
func typeCode(_ s: StaticString) -> UInt32 {
  let p = s.utf8Start
  return UInt32(p[0]) << 16 | UInt32(p[1]) << 8 | UInt32(p[2])
}

/// A sentence whose framing and checksum have been verified, as views into its bytes.
struct SentenceFrame {
  /// The number of fields as gpsd counts them to decide whether a sentence is too short for
  /// its decoder: the commas after the address, and one more after a checksum (gpsd turns the
  /// `*` into a comma).
  var gpsdFieldCount: Int {
    var commas = hasChecksum ? 1 : 0
    for i in addressEnd..<bodyEnd where line[i] == 0x2C { commas += 1 }
    return commas
  }

  let line: UnsafeRawBufferPointer
  /// Index of the first byte after the address's comma (or the end of the body).
  let fieldsStart: Int
  /// End of the body (the `*`, or the end of the line).
  let bodyEnd: Int
  let addressEnd: Int
  let hasChecksum: Bool
  /// The talker, nil for proprietary sentences and `!` sentences with odd addresses.
  let talker: NMEATalker?
  /// The three characters after the talker packed big-endian; 0 when the address is not 5 letters.
  let typeCode: UInt32

  init(_ raw: UnsafeRawBufferPointer) throws(NMEAParseError) {
    var n = raw.count
    // Ignore trailing white space and line ending bytes.
    while n > 0, raw[n - 1] == 0x20 || raw[n - 1] == 0x09 || raw[n - 1] == 0x0D || raw[n - 1] == 0x0A { n -= 1 }
    guard n >= 1, raw[0] == 0x24 || raw[0] == 0x21 else { throw .missingStart }
    line = UnsafeRawBufferPointer(rebasing: raw[0..<n])
    // Checksum: a '*' followed by exactly two hex digits at the end.
    var star = -1
    if n >= 4 && raw[n - 3] == 0x2A {
      star = n - 3
    } else {
      var k = n - 1
      while k >= 1 {
        if raw[k] == 0x2A {
          star = k
          break
        }
        k -= 1
      }
    }
    var computed: UInt8 = 0
    if star >= 0 {
      guard star == n - 3, let hi = hexValue(raw[n - 2]), let lo = hexValue(raw[n - 1]) else {
        throw .malformedChecksum
      }
      computed = xorChecksum(raw, from: 1, to: star)
      let expected = hi << 4 | lo
      guard computed == expected else { throw .checksumMismatch(expected: expected, actual: computed) }
      bodyEnd = star
      hasChecksum = true
    } else {
      bodyEnd = n
      hasChecksum = false
    }
    // Address: letters and digits up to the first comma.
    var a = 1
    while a < bodyEnd, raw[a] != 0x2C {
      let c = raw[a]
      // A letter of either case (`| 0x20` lowers capitals), or a digit.
      guard (c | 0x20) &- 0x61 < 26 || c &- 0x30 < 10 else {
        throw .invalidAddress
      }
      a += 1
    }
    addressEnd = a
    let addressLength = a - 1
    guard addressLength >= 2 && addressLength <= 9 else { throw .invalidAddress }
    fieldsStart = a + 1
    if raw[0] == 0x24 && raw[1] == 0x50 {
      // Proprietary: $P + manufacturer + type.
      talker = nil
      typeCode = 0
    } else if addressLength == 5 {
      talker = NMEATalker(raw[1], raw[2])
      typeCode = UInt32(raw[3]) << 16 | UInt32(raw[4]) << 8 | UInt32(raw[5])
    } else {
      talker = NMEATalker(raw[1], raw[2])
      typeCode = 0
    }
  }

  var fields: FieldReader {
    FieldReader(UnsafeRawBufferPointer(rebasing: line[0..<bodyEnd]), from: fieldsStart)
  }

  var address: NMEAAddress {
    let text = String(decoding: UnsafeRawBufferPointer(rebasing: line[1..<addressEnd]), as: UTF8.self)
    let start: Character = line[0] == 0x21 ? "!" : "$"
    if talker == nil && line[0] == 0x24 && line[1] == 0x50 {
      return NMEAAddress(talker: nil, type: String(text.dropFirst()), start: start)
    }
    return NMEAAddress(talker: talker, type: String(text.dropFirst(2)), start: start)
  }
}

@inline(__always)
func hexValue(_ c: UInt8) -> UInt8? {
  switch c {
  case 0x30...0x39: c - 0x30
  case 0x41...0x46: c - 0x41 + 10
  case 0x61...0x66: c - 0x61 + 10
  default: nil
  }
}

/// XOR of `bytes[from..<to]`, eight bytes at a time.
@inline(__always)
func xorChecksum(_ bytes: UnsafeRawBufferPointer, from: Int, to: Int) -> UInt8 {
  guard let base = bytes.baseAddress, to > from else { return 0 }
  var wide: UInt64 = 0
  var i = from
  if to - from >= 8 {
    while i + 8 <= to {
      wide ^= (base + i).loadUnaligned(as: UInt64.self)
      i += 8
    }
    if i < to {
      // The last 1…7 bytes: the word that ends at `to`, without the bytes already taken.
      let last = UInt64(littleEndian: (base + to - 8).loadUnaligned(as: UInt64.self))
      wide ^= last >> UInt64(8 * (8 - (to - i)))
    }
  } else {
    while i < to {
      wide ^= UInt64(base.load(fromByteOffset: i, as: UInt8.self))
      i += 1
    }
  }
  wide ^= wide >> 32
  wide ^= wide >> 16
  wide ^= wide >> 8
  return UInt8(truncatingIfNeeded: wide)
}
