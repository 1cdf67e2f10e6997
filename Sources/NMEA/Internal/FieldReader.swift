/// Reads the comma-separated fields of a sentence body in order, without allocating.
struct FieldReader {
  private let base: UnsafePointer<UInt8>
  private let end: Int
  private var position: Int
  private var exhausted = false

  /// Creates a reader over `body` (the bytes after the address comma, before `*`).
  init(_ body: UnsafeRawBufferPointer, from offset: Int) {
    // An empty buffer may have a nil base address; point at a static byte instead.
    base = body.baseAddress.map { $0.assumingMemoryBound(to: UInt8.self) } ?? FieldReader.emptyBase
    end = body.count
    position = offset
    exhausted = offset > end
  }

  nonisolated(unsafe) private static let emptyBase: UnsafePointer<UInt8> = {
    let p = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
    p.initialize(to: 0)
    return UnsafePointer(p)
  }()

  /// The next field, empty when the field is empty, or an empty field once the sentence has no more.
  @inline(__always)
  mutating func next() -> Field {
    if exhausted { return Field(base: base, start: 0, count: 0) }
    var i = position
    // Eight bytes at a time while they lie inside the body.
    while i &+ 8 <= end {
      let word = UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
      let commas = FieldReader.commas(in: word)
      if commas != 0 {
        i &+= commas.trailingZeroBitCount &>> 3
        return take(to: i)
      }
      i &+= 8
    }
    while i < end && base[i] != 0x2C { i &+= 1 }
    return take(to: i)
  }

  /// `next().int` in one pass: the digits are read while the field's end is looked for (a
  /// satellite's number, elevation, azimuth or SNR is two or three digits, shorter than one
  /// eight-byte step of ``next()``). A field with a sign, anything but digits or more than 18
  /// digits goes to ``next()`` and ``Field/int``.
  @inline(__always)
  mutating func nextInt() -> Int? {
    if exhausted { return nil }
    // Two or three digits and a comma, as most satellite fields are: no loop.
    if position &+ 4 <= end {
      let d0 = base[position] &- 0x30, d1 = base[position &+ 1] &- 0x30, b2 = base[position &+ 2]
      if d0 < 10 && d1 < 10 {
        let two = Int(d0) &* 10 &+ Int(d1)
        if b2 == 0x2C {
          position &+= 3
          return two
        }
        let d2 = b2 &- 0x30
        if d2 < 10 && base[position &+ 3] == 0x2C {
          position &+= 4
          return two &* 10 &+ Int(d2)
        }
      }
    }
    let (value, i) = Field.scanDigits(base, from: position, to: end)
    let digits = i &- position
    guard digits <= 18, i >= end || base[i] == 0x2C else { return next().int }
    move(past: i)
    return digits == 0 ? nil : value
  }

  /// `next().double` in one pass, as ``nextInt()`` does for integers: an unsigned decimal such
  /// as `0.9` or `105.0` is read while its end is looked for; a sign, anything but digits and
  /// one point, or more than 18 digits goes to ``next()`` and ``Field/double``.
  @inline(__always)
  mutating func nextDouble() -> Double? {
    if exhausted { return nil }
    let (mantissa, point, i) = Field.scanDecimal(base, from: position, to: end)
    let digits = point < 0 ? i &- position : i &- position &- 1
    guard digits <= 18, i >= end || base[i] == 0x2C else { return next().double }
    move(past: i)
    return digits == 0 ? nil : Double(mantissa) / powerOfTen(point < 0 ? 0 : i &- point &- 1)
  }

  /// The field from `position` to `i` (a comma or the end), moving past it.
  @inline(__always)
  private mutating func take(to i: Int) -> Field {
    let field = Field(base: base, start: position, count: i - position)
    move(past: i)
    return field
  }

  /// Moves past `i`, a comma or the end: to the next field, or to none.
  @inline(__always)
  private mutating func move(past i: Int) {
    if i >= end { exhausted = true } else { position = i &+ 1 }
  }

  /// Reads the four fields `lat,N|S,lon,E|W`; both nil unless both angles are valid.
  /// ``readPosition()`` as one value: nil unless both are there.
  mutating func readCoordinates() -> (latitude: Double, longitude: Double)? {
    let (latitude, longitude) = readPosition()
    guard let latitude, let longitude else { return nil }
    return (latitude, longitude)
  }

  mutating func readPosition() -> (latitude: Double?, longitude: Double?) {
    let lat = next(), ns = next(), lon = next(), ew = next()
    guard let latitude = lat.angle(hemisphere: ns, maximum: 90),
      let longitude = lon.angle(hemisphere: ew, maximum: 180)
    else { return (nil, nil) }
    return (latitude, longitude)
  }

  /// Skips `n` fields, counting the commas of eight bytes at a time.
  mutating func skip(_ n: Int) {
    var remaining = n
    while remaining > 0 && !exhausted {
      guard position &+ 8 <= end else {
        _ = next()
        remaining &-= 1
        continue
      }
      let word = UInt64(littleEndian: UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self))
      var commas = FieldReader.commas(in: word)
      // One flag bit per byte: the multiplication sums the bytes into the top one (no POPCNT on baseline x86-64).
      let found = Int(truncatingIfNeeded: ((commas &>> 7) &* 0x0101_0101_0101_0101) &>> 56)
      if found < remaining {
        remaining &-= found
        position &+= 8
        continue
      }
      // The comma that ends the last field to skip is in this word.
      while remaining > 1 {
        commas &= commas &- 1
        remaining &-= 1
      }
      position &+= commas.trailingZeroBitCount &>> 3 &+ 1
      return
    }
  }

  /// The high bit of every byte of `word` that is a comma, and no other bit.
  @inline(__always)
  static func commas(in word: UInt64) -> UInt64 {
    let x = word ^ 0x2C2C_2C2C_2C2C_2C2C
    let lows: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
    return ~(((x & lows) &+ lows) | x | lows)
  }

  /// Whether every field has been read.
  var isAtEnd: Bool { exhausted }
}

/// One field of a sentence: a view into the sentence's bytes.
struct Field {
  let base: UnsafePointer<UInt8>
  let start: Int
  let count: Int

  var isEmpty: Bool { count == 0 }

  @inline(__always)
  subscript(_ i: Int) -> UInt8 { base[start &+ i] }

  var string: String {
    String(decoding: UnsafeBufferPointer(start: base + start, count: count), as: UTF8.self)
  }

  /// An unsigned or signed decimal integer, nil when empty or malformed.
  var int: Int? {
    guard count > 0, count <= 18 else { return nil }
    var i = 0
    var negative = false
    if self[0] == 0x2D || self[0] == 0x2B {  // '-' '+'
      negative = self[0] == 0x2D
      i = 1
      guard count > 1 else { return nil }
    }
    let (value, stop) = Self.scanDigits(base, from: start &+ i, to: start &+ count)
    guard stop == start &+ count else { return nil }
    return negative ? -value : value
  }

  /// The decimal digits from `i` up to `end`, stopping at anything else: their value (wrapping
  /// past 18 digits) and where they stopped. ``int`` and ``FieldReader/nextInt()`` read with it.
  @inline(__always)
  static func scanDigits(_ base: UnsafePointer<UInt8>, from i: Int, to end: Int) -> (value: Int, stop: Int) {
    var i = i
    var value = 0
    while i < end {
      let d = base[i] &- 0x30
      guard d < 10 else { break }
      value = value &* 10 &+ Int(d)
      i &+= 1
    }
    return (value, i)
  }

  /// Decimal digits and at most one point from `i` up to `end`, stopping at anything else: the
  /// digits' value (wrapping past 18 digits), the point's index (-1 for none) and where they
  /// stopped. ``double`` and ``FieldReader/nextDouble()`` read with it.
  @inline(__always)
  static func scanDecimal(
    _ base: UnsafePointer<UInt8>, from i: Int, to end: Int
  ) -> (mantissa: Int64, point: Int, stop: Int) {
    var i = i
    var mantissa: Int64 = 0
    var point = -1
    while i < end {
      let b = base[i]
      let d = b &- 0x30
      if d < 10 {
        mantissa = mantissa &* 10 &+ Int64(d)
      } else if b == 0x2E && point < 0 {
        point = i
      } else {
        break
      }
      i &+= 1
    }
    return (mantissa, point, i)
  }

  /// A decimal number such as `-12.345`, nil when empty or malformed.
  ///
  /// Up to 18 significant digits the result is correctly rounded (one exact
  /// integer divided by an exact power of ten); longer numbers fall back to
  /// the standard library's parser.
  var double: Double? {
    guard count > 0 else { return nil }
    var i = 0
    let sign = self[0]
    let negative = sign == 0x2D
    if negative || sign == 0x2B { i = 1 }
    // One pass over digits and at most one point; more than 18 digits goes to the slow path.
    let (mantissa, scanned, stop) = Self.scanDecimal(base, from: start &+ i, to: start &+ count)
    guard stop == start &+ count else { return nil }
    let point = scanned < 0 ? -1 : scanned &- start
    let signLength = negative || sign == 0x2B ? 1 : 0
    let fractionDigits = point < 0 ? 0 : count &- point &- 1
    let digits = count &- signLength &- (point < 0 ? 0 : 1)
    guard digits > 0 else { return nil }
    if digits > 18 { return slowDouble }
    let value = Double(mantissa) / powerOfTen(fractionDigits)
    return negative ? -value : value
  }

  private var slowDouble: Double? { Double(string) }
}

/// 10^(9 − n) for 0 ≤ n ≤ 9: what a fraction of a second with n digits is multiplied by to give nanoseconds.
@inline(__always)
private func nanosecondScale(_ n: Int) -> Int {
  switch n {
  case 0: 1_000_000_000
  case 1: 100_000_000
  case 2: 10_000_000
  case 3: 1_000_000
  case 4: 100_000
  case 5: 10_000
  case 6: 1_000
  case 7: 100
  case 8: 10
  default: 1
  }
}

/// 10^n for 0 ≤ n ≤ 18, exactly (every such power is a representable double).
@inline(__always)
func powerOfTen(_ n: Int) -> Double {
  switch n {
  case 0: 1
  case 1: 10
  case 2: 100
  case 3: 1e3
  case 4: 1e4
  case 5: 1e5
  case 6: 1e6
  case 7: 1e7
  case 8: 1e8
  case 9: 1e9
  case 10: 1e10
  case 11: 1e11
  case 12: 1e12
  case 13: 1e13
  case 14: 1e14
  case 15: 1e15
  case 16: 1e16
  case 17: 1e17
  default: 1e18
  }
}

extension Field {
  /// A one-letter flag such as `A`/`V` status or `N`/`S` hemisphere; nil when empty.
  var character: UInt8? { count >= 1 ? self[0] : nil }

  /// A `ddmmyy` date (RMC's, and proprietary sentences'): nil unless six digits with a day of
  /// 1–31 and a month of 1–12.
  var ddmmyy: RMC.Date? {
    guard count == 6, let v = int, v >= 0 else { return nil }
    let parsed = RMC.Date(day: v / 10000, month: v / 100 % 100, yearOfCentury: v % 100)
    return (1...31).contains(parsed.day) && (1...12).contains(parsed.month) ? parsed : nil
  }

  /// The number as gpsd's `safe_atof` reads a field it takes whatever it holds: NaN when
  /// empty or not a number.
  var gpsdDouble: Double { double ?? .nan }

  /// A DOP a proprietary sentence gives: nil when the field is empty, else as gpsd reads it.
  var gpsdDOP: Double? { isEmpty ? nil : gpsdDouble }

  /// Whether the field is `text`, byte for byte.
  func equals(_ text: StaticString) -> Bool {
    guard text.utf8CodeUnitCount == count else { return false }
    let p = text.utf8Start
    for i in 0..<count where p[i] != self[i] { return false }
    return true
  }

  /// `hhmmss` or `hhmmss.sss…`; nil when empty or malformed.
  var timeOfDay: NMEATimeOfDay? {
    guard count >= 6 else { return nil }
    let d0 = self[0] &- 0x30, d1 = self[1] &- 0x30, d2 = self[2] &- 0x30
    let d3 = self[3] &- 0x30, d4 = self[4] &- 0x30, d5 = self[5] &- 0x30
    guard d0 < 10, d1 < 10, d2 < 10, d3 < 10, d4 < 10, d5 < 10 else { return nil }
    var nanos: Int64 = 0
    if count > 6 {
      guard self[6] == 0x2E else { return nil }
      // Up to nine fraction digits count; further ones are below a nanosecond.
      var digits = 0
      var i = 7
      while i < count {
        let d = self[i] &- 0x30
        guard d < 10 else { return nil }
        if digits < 9 {
          nanos = nanos &* 10 &+ Int64(d)
          digits &+= 1
        }
        i &+= 1
      }
      nanos &*= Int64(nanosecondScale(digits))
    }
    return NMEATimeOfDay(
      hours: Int(d0) &* 10 &+ Int(d1), minutes: Int(d2) &* 10 &+ Int(d3), seconds: Int(d4) &* 10 &+ Int(d5),
      nanoseconds: nanos)
  }

  /// `ddmm.mmmm` (latitude, `degreeDigits` 2) or `dddmm.mmmm` (longitude), signed by `hemisphere`.
  ///
  /// Degrees and whole minutes are read as integers and the fraction of a
  /// minute separately, so no precision is lost to a `ddmm` float. Nil when
  /// empty, malformed, or out of range (minutes ≥ 60, |lat| > 90, |lon| > 180).
  func angle(hemisphere: Field, maximum: Double) -> Double? {
    guard count >= 3 else { return nil }
    var point = count
    var wholeValue = 0
    var i = 0
    while i < count {
      let b = self[i]
      if b == 0x2E {
        point = i
        break
      }
      let d = b &- 0x30
      guard d < 10 else { return nil }
      wholeValue = wholeValue &* 10 &+ Int(d)
      i += 1
      if i > 9 { return nil }
    }
    guard point >= 2 else { return nil }
    var fraction = 0.0
    if point < count {
      var mantissa: Int64 = 0
      var digits = 0
      var j = point + 1
      while j < count {
        let d = self[j] &- 0x30
        guard d < 10 else { return nil }
        if digits < 15 {
          mantissa = mantissa * 10 + Int64(d)
          digits += 1
        }
        j += 1
      }
      fraction = Double(mantissa) / powerOfTen(digits)
    }
    let degrees = wholeValue / 100
    let minutes = Double(wholeValue % 100) + fraction
    guard minutes < 60 else { return nil }
    let value = Double(degrees) + minutes / 60
    guard value <= maximum else { return nil }
    switch hemisphere.character {
    case 0x53, 0x57, 0x73, 0x77: return -value  // S W s w
    case nil, 0x4E, 0x45, 0x6E, 0x65: return value  // N E n e
    default: return nil
    }
  }
}
