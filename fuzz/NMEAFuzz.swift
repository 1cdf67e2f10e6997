// libFuzzer entry point for the NMEA framer and decoder. Compiled into the NMEA
// module's sources by scripts/fuzz.sh (so it sees internal API); not part of the package.

/// Feeds the input to a decoder twice, in one chunk and in chunks whose sizes come
/// from the input's first byte, and traps if the two decodings differ: the framer
/// and decoder must be independent of chunking, and nothing may crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func nmeaFuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let input = UnsafeRawBufferPointer(start: data, count: size)
  let chunk = size == 0 ? 1 : Int(input[0] % 31) + 1
  // The second byte picks the options: a first-epoch date, gpsd or every-time-stamp reporting, a rollover reference.
  let flags = size > 1 ? input[1] : 0
  var whole = NMEADecoder(
    options: .init(
      date: flags & 1 == 1 ? NMEADate(year: 2020, month: 2, day: 29) : nil,
      rolloverReference: flags & 4 == 4 ? NMEADate(year: 2025, month: 6, day: 1) : nil,
      reporting: flags & 2 == 2 ? .everyTimeStamp : .gpsd))
  var split = whole
  var a: [NMEAFix] = []
  var b: [NMEAFix] = []
  whole.decode(input) { a.append($0) }
  whole.finish { a.append($0) }
  var offset = 0
  while offset < size {
    let end = min(offset + chunk, size)
    split.decode(UnsafeRawBufferPointer(rebasing: input[offset..<end])) { b.append($0) }
    offset = end
  }
  split.finish { b.append($0) }
  precondition(a == b, "decoding depends on chunking")
  precondition(whole.statistics == split.statistics, "statistics depend on chunking")
  for fix in a {
    if let lat = fix.latitude { precondition(lat.isFinite && abs(lat) <= 90) }
    if let lon = fix.longitude { precondition(lon.isFinite && abs(lon) <= 180) }
    _ = fix.time?.iso8601
  }
  // Every framed line also goes through the typed parser on its own.
  var framer = NMEALineFramer()
  framer.append(input) { frame in
    if case .sentence(let line) = frame { _ = try? NMEAMessage(parsing: line) }
  }
  return 0
}
