import Emulator
import Foundation
import GNSS
import GNSSReceiver
import PhoneSources
import Geo
import ToolsTestSupport
import NMEA
import PhoneServer
import Testing
import LocationModel

#if canImport(Glibc)
  import Glibc
#endif

/// `--nmea-listen` in process, on a virtual clock: what a TCP client reads when a location is
/// set, while it is held, and while the fix is lost — exactly, with the clock stepped by hand.
@Suite("PhoneNMEAFeed")
struct PhoneNMEAFeedTests {
  /// A TCP client of the feed reading on a thread of its own; a test waits for what it has
  /// read (real time: the bytes cross a socket; each wait bounded, and over as soon as they came).
  final class Client: @unchecked Sendable {
    let fd: Int32
    private let received = Watched(Data())

    init(port: Int) throws {
      guard let fd = connectLoopback(port) else { throw LoopbackError(description: "cannot connect to the feed") }
      self.fd = fd
      let received = self.received
      Thread {
        var buffer = [UInt8](repeating: 0, count: 8192)
        while true {
          let n = recv(fd, &buffer, buffer.count, 0)
          guard n > 0 else { return }
          received.update { $0.append(contentsOf: buffer[0..<n]) }
        }
      }.start()
    }

    deinit { close(fd) }

    /// The complete lines of `data`: the last, unless it ends in CR LF, may still be arriving.
    static func lines(_ data: Data) -> [String] {
      var lines = String(decoding: data, as: UTF8.self).components(separatedBy: "\r\n")
      lines.removeLast()  // what follows the last CR LF: nothing, or a line in flight
      return lines
    }

    var lines: [String] { Self.lines(received.current) }

    /// Waits until `count` lines arrived (at most 10 minutes: a hang guard).
    /// - Throws: "`count` NMEA lines from the feed: not within …" when they did not.
    func waitForLines(_ count: Int) async throws {
      try await received.wait(for: "\(count) NMEA lines from the feed") { Self.lines($0).count >= count }
    }

    /// Waits until the lines read so far satisfy `condition` (at most 10 minutes: a hang guard).
    /// - Throws: "`what`: not within …" when they did not.
    func wait(for what: String, until condition: @escaping @Sendable ([String]) -> Bool) async throws {
      try await received.wait(for: what) { condition(Self.lines($0)) }
    }
  }

  /// A feed for `phone` on a free loopback port, and its number of clients to wait on.
  static func feed(for phone: EmulatedPhone, epochs: ReceiverEpochLog? = nil) async throws -> (PhoneNMEAFeed, clients: Watched<Int>) {
    let clients = Watched(0)
    let feed = try await PhoneNMEAFeed.bind(
      phone: phone, epochs: epochs, host: "127.0.0.1", port: 0, clientCountChanged: { count in clients.update { $0 = count } })
    return (feed, clients)
  }

  /// The sentence kinds of `lines` (`GGA`, `RMC`, …).
  static func kinds(_ lines: some Sequence<String>) -> [String] { lines.map { String($0.dropFirst(3).prefix(3)) } }

  @Test func aSetLocationIsHeldEachSecondAndALostFixIsSentEmpty() async throws {
    // The stall guard of the clock's advances a hang guard too (the pool has been starved for
    // a minute under ThreadSanitizer).
    let clock = EmulatorClock(stallTimeout: .seconds(600))
    let phone = EmulatedPhone(EmulatedPhone.Configuration(), clock: clock)
    let (feed, clients) = try await Self.feed(for: phone)
    let serving = Task { try await feed.run() }
    let client = try Client(port: feed.port)
    try await clients.wait(for: "the feed to count its client") { $0 == 1 }

    // A fix now: one epoch, GGA GSA GSV×3 RMC VTG.
    var fix = LocationFix(
      mode: .threeD, coordinate: Coordinate(latitude: 60.1699, longitude: 24.9384)!, altitudeMSL: 12, speed: 1.5, course: 90,
      horizontalAccuracy: 5)
    fix.timestamp = phone.date
    await phone.send(fix)
    try await client.waitForLines(7)
    let first = Array(client.lines.prefix(7))
    #expect(Self.kinds(first) == ["GGA", "GSA", "GSV", "GSV", "GSV", "RMC", "VTG"])
    // The phone's 5 m accuracy as HDOP by gpsd's 19 m per HDOP: gpsd reading it reports eph 4.94.
    #expect(first[0].hasPrefix("$GPGGA,000000.00,6010.194000,N,02456.304000,E,1,08,0.26,12.0,M,"))
    #expect(first[5].hasPrefix("$GPRMC,000000.00,A,6010.194000,N,02456.304000,E,2.916,90.00,010126,"))
    #expect(first[1].hasPrefix("$GPGSA,A,3,05,13,15,18,20,24,26,29,,,,,"))

    // Nothing between fixes for a second: the position again, at the new time. Whatever the
    // feed wrote before (at 999 ms, or when the fix is lost below) would come ahead of the next
    // epoch on the socket, so the complete sequence up to it shows nothing was.
    try await clock.advance(by: .milliseconds(999))
    try await clock.advance(by: .milliseconds(1))
    try await client.waitForLines(14)
    let held = Array(client.lines[7..<14])
    #expect(Self.kinds(held) == ["GGA", "GSA", "GSV", "GSV", "GSV", "RMC", "VTG"], "\(held)")
    #expect(held[0].hasPrefix("$GPGGA,000001.00,6010.194000,N,02456.304000,E,1,08,"))
    #expect(held[5].hasPrefix("$GPRMC,000001.00,A,6010.194000,N,02456.304000,E,"))

    // The fix is lost: the next second's epoch is empty, and each one after.
    await phone.setFixAvailable(false)
    try await clock.advance(by: .seconds(1))
    try await client.waitForLines(19)
    let lost = Array(client.lines[14..<19])
    #expect(Self.kinds(lost) == ["GGA", "GSA", "GSV", "RMC", "VTG"], "\(lost)")
    #expect(lost[0].hasPrefix("$GPGGA,000002.00,,,,,0,00,"))
    #expect(lost[1].hasPrefix("$GPGSA,A,1,,,,,,,,,,,,,,,"))
    #expect(lost[2].hasPrefix("$GPGSV,1,1,00*"))
    #expect(lost[3].hasPrefix("$GPRMC,000002.00,V,,,,,,,010126,,,N"))
    #expect(lost[4].hasPrefix("$GPVTG,,T,,M,,N,,K,N"))
    try await clock.advance(by: .seconds(1))
    try await client.waitForLines(24)
    let next = Array(client.lines[19..<24])
    #expect(Self.kinds(next) == ["GGA", "GSA", "GSV", "RMC", "VTG"], "\(next)")
    #expect(next[0].hasPrefix("$GPGGA,000003.00,,,,,0,00,"))

    // Every line is well formed NMEA that the decoder reads: the fixes, then no fix.
    var decoder = NMEADecoder(options: .init(reporting: .everyTimeStamp))
    var modes: [NMEAFix.Mode] = []
    let bytes = Array((client.lines.joined(separator: "\r\n") + "\r\n").utf8)
    decoder.decode(bytes) { modes.append($0.mode) }
    decoder.finish { modes.append($0.mode) }
    #expect(decoder.statistics.rejected == 0)
    #expect(modes.count == 4 && modes.prefix(2).allSatisfy { $0 == .threeD } && modes.suffix(2).allSatisfy { $0 == .noFix }, "\(modes)")

    serving.cancel()
    _ = await serving.result
    try await clients.wait(for: "the feed to let its client go") { $0 == 0 }
    phone.shutdown()
  }

  /// A phone at a fixed point in Helsinki under a realistic receiver on its own virtual clock
  /// (its source not started): every epoch the receiver measures goes to the log a feed reads
  /// and to `recorded`, for the test to compare against.
  static func realisticPhone(
    _ options: GNSSReceiver.Options
  ) -> (
    clock: EmulatorClock, phone: EmulatedPhone, log: ReceiverEpochLog, recorded: Locked<[ReceiverEpoch]>
  ) {
    let clock = EmulatorClock(stallTimeout: .seconds(600))
    let home = Coordinate(latitude: 60.1699, longitude: 24.9384)!
    let log = ReceiverEpochLog()
    let recorded = Locked<[ReceiverEpoch]>([])
    let phone = EmulatedPhone(
      EmulatedPhone.Configuration(
        source: .realistic(.fixed(home, altitude: 20), receiver: options) { epoch in
          log.record(epoch)
          recorded.withLock { $0.append(epoch) }
        }, startsSource: false), clock: clock)
    return (clock, phone, log, recorded)
  }

  /// Under a realistic receiver the feed writes the receiver's own epochs: no fix but the sky
  /// while it acquires, then GSA with its used set, GSV with its satellites, GST and GBS (last)
  /// with its errors, so a gpsd client gets the receiver's error model; the same bytes the
  /// receiver itself writes for those epochs.
  @Test func aRealisticReceiversEpochsAreWrittenWhole() async throws {
    let (clock, phone, log, recorded) = Self.realisticPhone(
      GNSSReceiver.Options(profile: .suburban, seed: 5, start: .cold, assisted: true))
    let (feed, clients) = try await Self.feed(for: phone, epochs: log)
    let serving = Task { try await feed.run() }
    let client = try Client(port: feed.port)
    try await clients.wait(for: "the feed to count its client") { $0 == 1 }
    phone.startSource()
    try await clock.advance(by: .seconds(20))
    let epochs = recorded.withLock { $0 }.filter { $0.fix.timestamp != nil }
    let sent = epochs.prefix { $0.fix.timestamp! <= phone.date }
    let expected = sent.flatMap(\.nmeaSentences)
    // All of them read: as many lines from the first of them (the feed may write an epoch of its
    // own before).
    try await client.wait(for: "the receiver's \(sent.count) epochs from the feed") { lines in
      lines.firstIndex(of: expected[0]).map { lines.count - $0 >= expected.count } ?? false
    }
    let lines = client.lines
    // What the feed wrote starts with the receiver's epochs, byte for byte (the feed's own
    // first epoch, before the phone's first fix, aside).
    let start = try #require(lines.firstIndex(of: expected[0]))
    #expect(Array(lines[start...].prefix(expected.count)) == expected)
    // Acquiring: no fix, satellites in view; then fixes with the used set, GST and GBS last.
    let firstFix = try #require(sent.firstIndex { $0.fix.hasFix })
    #expect(firstFix > 0 && sent[0].satellites.count > 4)
    let fixed = sent[firstFix]
    let fixLines = fixed.nmeaSentences
    // A multi-GNSS receiver: a GSA per system (GP, GL, GA, GB), each naming its used satellites.
    let kinds: [String] = fixLines.map { String($0.dropFirst(3).prefix(3)) }.filter { $0 != "GSV" }
    #expect(kinds == ["GGA", "GSA", "GSA", "GSA", "GSA", "GST", "RMC", "VTG", "GBS"])
    let gpsUsed = fixed.used.filter { $0.system == .gps }.map { String(format: "%02d", $0.prn) }
    #expect(fixLines[1].hasPrefix("$GPGSA,A,3," + gpsUsed.joined(separator: ",") + ","))
    serving.cancel()
    _ = await serving.result
    phone.shutdown()
  }

  /// A paused and resumed source delivers its fixes later by the pause than the receiver
  /// measured them: the feed still writes the receiver's whole epochs for them (GST and all),
  /// stamped as delivered, not a plain epoch.
  @Test func afterAPauseTheReceiversEpochsComeStampedAsDelivered() async throws {
    let (clock, phone, log, recorded) = Self.realisticPhone(
      GNSSReceiver.Options(profile: .openSky, seed: 3, start: .hot, assisted: true))
    let delivered = Locked<[LocationFix]>([])
    let observation = phone.observe(.sourceFix) { event in
      if case .sourceFix(let fix) = event { delivered.withLock { $0.append(fix) } }
    }
    defer { observation.cancel() }
    let (feed, clients) = try await Self.feed(for: phone, epochs: log)
    let serving = Task { try await feed.run() }
    let client = try Client(port: feed.port)
    try await clients.wait(for: "the feed to count its client") { $0 == 1 }
    phone.startSource()
    try await clock.advance(by: .seconds(10))
    #expect(phone.pauseSource())
    try await clock.advance(by: .seconds(30))
    let before = delivered.withLock { $0.count }
    #expect(phone.resumeSource())
    try await clock.advance(by: .seconds(5))
    let after = Array(delivered.withLock { $0 }.dropFirst(before)).filter(\.hasFix)
    #expect(after.count >= 4)
    // Each one's epoch: the one measured for the same fix, stamped as delivered, 30 s later.
    let measured = recorded.withLock { $0 }
    let expected = try after.map { fix -> String in
      var epoch = try #require(measured.last { $0.fix.coordinate == fix.coordinate && $0.fix.timestamp != fix.timestamp })
      #expect(fix.timestamp!.timeIntervalSince(epoch.fix.timestamp!) == 30)
      epoch.fix.timestamp = fix.timestamp
      return try #require(epoch.nmeaSentences.first { $0.hasPrefix("$GNGST") })
    }
    do {
      try await client.wait(for: "the GSTs \(expected) from the feed") { Set(expected).isSubset(of: Set($0)) }
    } catch {
      Issue.record("\(error); the last lines: \(client.lines.suffix(20))")
    }
    serving.cancel()
    _ = await serving.result
    phone.shutdown()
  }
}
