import EmulatorTesting
import Foundation
import GNSS
import GNSSReceiver
import LocationModel
import PhoneServer
import Testing
import ToolsTestSupport
import Traces

#if canImport(Glibc)
  import Glibc
#endif

/// gpsd's own client that prints its JSON reports (Debian's gpsd-clients).
let gpspipePath: String? = ["/usr/bin/gpspipe", "/usr/local/bin/gpspipe"].first { FileManager.default.isExecutableFile(atPath: $0) }

/// A simulated receiver's NMEA through a real gpsd (issue 25; multi-GNSS since issue 34): gpsd's
/// SKY reports our satellites of every system with the used ones our GSAs name, and our DOPs,
/// and its TPV's epx, epy and epv are the errors our GBS gives, epoch for epoch.
@Suite("A simulated receiver through a real gpsd", .enabled(if: GPSDHarness.gpsdPath != nil && gpspipePath != nil))
struct ReceiverThroughGPSDTests {
  @Test func gpsdReportsOurSkyAndErrors() async throws {
    var receiver = GNSSReceiver(options: .init(profile: .suburban, seed: 4, start: .hot))
    let start = Date(timeIntervalSince1970: 1_767_225_600)
    var epochs: [String: ReceiverEpoch] = [:]
    var text = ""
    for i in 0..<300 {
      let truth = LocationFix(
        timestamp: start + Double(i), mode: .threeD, coordinate: Coordinate(latitude: 60.17 + Double(i) * 1e-5, longitude: 24.94),
        altitudeMSL: 20, speed: 1.1, course: 0)
      let epoch = receiver.measure(truth)
      epochs[String(Int(start.timeIntervalSince1970) + i)] = epoch
      text += epoch.nmeaSentences.map { $0 + "\r\n" }.joined()
    }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("receiver-gpsd-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("receiver.nmea")
    try Data(text.utf8).write(to: file)

    let server = try await NMEATCPServer.bind(host: "127.0.0.1", port: 0)
    // Looped: gpspipe gets its 400 reports however late it connects (a later lap repeats the
    // positions and used sets the checks below match by).
    let feed = NMEATraceFeed(server: server, trace: try Trace(path: file.path), options: ReplayOptions(speed: 10, loop: true))
    let feedTask = Task.detached { try await feed.run() }
    defer { feedTask.cancel() }
    let gpsd = try await offPool { try GPSDProcess(reading: "tcp://127.0.0.1:\(server.port)") }
    defer { gpsd.stop() }

    // gpspipe to its 400th report, on a thread of its own; killed (and the test failed, naming
    // it) only by a hang.
    let port = gpsd.port
    let gpspipe = try await offPool { try runProcess(gpspipePath!, ["-w", "-n", "400", "127.0.0.1:\(port)"]) }
    #expect(gpspipe.status == 0, "gpspipe: \(gpspipe.stderr)")
    let data = Data(gpspipe.stdout.utf8)

    let reports = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).compactMap {
      GPSDReport(line: $0.trimmingCharacters(in: .whitespaces))
    }
    // gpsd 3.22 (Debian 12) reports no time for these epochs; a TPV is matched to our epoch
    // by its position, a SKY to the epochs with its used set.
    func key(_ latitude: Double, _ longitude: Double) -> String { "\(Int((latitude * 1e6).rounded())),\(Int((longitude * 1e6).rounded()))" }
    var byPosition: [String: ReceiverEpoch] = [:]
    for epoch in epochs.values {
      if let c = epoch.fix.coordinate { byPosition[key(c.latitude, c.longitude)] = epoch }
    }
    var checkedTPV = 0, checkedSKY = 0
    for report in reports {
      switch report.class {
      case "TPV":
        guard let lat = report.lat, let lon = report.lon,
          let epoch = byPosition[key(lat, lon)], let sigma = epoch.sigma
        else { continue }
        // gpsd 3.22 also reports an epoch before its GBS (with errors from its DOPs); the
        // report after it carries GBS's errors, all three.
        guard let epx = report.epx, let epy = report.epy, let epv = report.epv,
          abs(epx - sigma.east) < 0.006
        else { continue }
        #expect(abs(epy - sigma.north) < 0.006 && abs(epv - (sigma.up ?? .nan)) < 0.006, "epy, epv at \(lat),\(lon)")
        checkedTPV += 1
      case "SKY":
        guard let satellites = report.satellites, let hdop = report.hdop else { continue }
        // gpsd reports a SKY after each system's GSV set; the epoch's sky is whole after the
        // last one, BeiDou's (PRNs from 401).
        guard satellites.contains(where: { ($0.prn ?? 0) > 400 }) else { continue }
        let used = satellites.filter { $0.used == true }.compactMap(\.prn).sorted()
        // gpsd's PRNs: GPS 1-32, GLONASS 65-96, Galileo 301-, BeiDou 401-.
        let matching = epochs.values.filter { $0.fix.hasFix && $0.used.map { $0.system.gpsdPRN($0.prn) }.sorted() == used }
        #expect(!matching.isEmpty, "a SKY whose used set \(used) is none of ours")
        #expect(matching.contains { abs(hdop - $0.dop!.horizontal) < 0.1 && satellites.count == $0.satellites.count }, "hdop \(hdop)")
        if let pdop = report.pdop { #expect(matching.contains { abs(pdop - $0.dop!.position) < 0.1 }, "pdop \(pdop)") }
        checkedSKY += 1
      default: break
      }
    }
    #expect(checkedTPV >= 20, "TPVs with epx/epy: \(checkedTPV) of \(reports.count) reports")
    let classes = reports.compactMap { $0.class }
    #expect(
      checkedSKY >= 20,
      "SKYs checked: \(checkedSKY) of \(classes.count { $0 == "SKY" }); gpspipe printed: \(String(decoding: data.suffix(1500), as: UTF8.self))"
    )
  }
}
