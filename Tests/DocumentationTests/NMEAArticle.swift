import NMEA
import Testing

@Test func aSentenceDecodesToAFix() {
  var decoder = NMEADecoder(options: .init(date: NMEADate(year: 2024, month: 5, day: 1)))
  let bytes = Array("$GPGGA,120001,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*48\r\n".utf8)
  var fixes: [NMEAFix] = []
  decoder.decode(bytes) { fixes.append($0) }
  decoder.finish { fixes.append($0) }
  #expect(fixes.first?.time?.iso8601 == "2024-05-01T12:00:01.000Z")
  #expect(fixes.first?.mode == .threeD)
  print(decoder.statistics.summary)
}
