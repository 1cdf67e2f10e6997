// Map-features benchmark (prints figures; run by scripts/bench-petmap.sh):
//
//   petmap-benchmark [LOADS] [ANNOUNCEMENTS]
//
// 1. Fix to map: LOADS times, a fresh landing-page preview on the emulator (authorized, real
//    clock) with the HTTP repository against a local `serve-announcements` server (Hummingbird,
//    loopback) holding 100,000 announcements; prints the time from the fix being sent by the
//    source to the preview's `map` state with its pins (p50/p99/max).
// 2. Range queries: ANNOUNCEMENTS announcements spread over Poland in the file-backed
//    repository; prints the time to index them, then 10 km landing-page queries/s at random
//    centres with the grid index, against the same queries done by a full scan.
import AnnouncementServer
import Emulator
import Foundation
import Geo
import EmulatorTesting
import ToolsTestSupport
import PermissionHandling
import PetMap
import PetMapNetworking
import LocationModel

func percentile(_ sorted: [Double], _ p: Double) -> Double {
  sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
}

func ms(_ d: Duration) -> Double { Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15 }

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let loads = arguments.first ?? 300
let count = arguments.dropFirst().first ?? 1_000_000

func announcements(_ n: Int, latitudes: ClosedRange<Double>, longitudes: ClosedRange<Double>) -> [Announcement] {
  (0..<n).map { i in
    Announcement(
      id: "b\(i)",
      coordinate: Coordinate(
        latitude: Double.random(in: latitudes), longitude: Double.random(in: longitudes))!,
      status: i % 5 == 0 ? .found : .active, createdAt: Date(timeIntervalSince1970: 1_700_000_000 + Double(i)))
  }
}

// 1. Fix → map with pins over HTTP.
do {
  let warsaw = Coordinate(latitude: 52.2297, longitude: 21.0122)!
  let repository = FileAnnouncementRepository(announcements(100_000, latitudes: 51.7...52.7, longitudes: 20.3...21.7))
  let port = Recorder<Int>()
  let server = Task { try await AnnouncementServer(repository: repository).run { port.append($0) } }
  let listening = await waitUntil { port.last != nil }
  guard listening, let bound = port.last else { fatalError("the server did not start") }
  let client = HTTPAnnouncementRepository(baseURL: URL(string: "http://127.0.0.1:\(bound)")!)
  var samples: [Double] = []
  for _ in 0..<loads {
    let phone = EmulatedPhone(.init(permission: PermissionState(appStatus: .authorizedWhenInUse)), clock: .realTime())
    let running = Task { await phone.run() }
    let mapped = Recorder<ContinuousClock.Instant>()
    let preview = MapPreviewModel(
      scheduler: phone.clock, handler: LocationPermissionHandler(service: phone.service), repository: client,
      onStateChange: { state in if case .map(_, let pins) = state, !pins.isEmpty { mapped.append(.now) } }, log: { _ in })
    await preview.start()
    // The preview's request for a location is waiting on the phone: send the fix.
    guard await waitUntil(.seconds(10), { phone.waitingCallCount > 0 }) else { fatalError("the preview did not ask for a location") }
    let sent = ContinuousClock.now
    phone.receiveNow(LocationFix(mode: .twoD, coordinate: warsaw, horizontalAccuracy: 5))
    guard await waitUntil(.seconds(10), { mapped.last != nil }) else { fatalError("the preview did not load within 10 s") }
    samples.append(ms(sent.duration(to: mapped.last!)))
    preview.stop()
    running.cancel()
    await running.value
  }
  server.cancel()
  samples.sort()
  print(
    "fix -> map with pins over HTTP (\(loads) loads, 100k announcements on the server): "
      + String(format: "p50 %.2f ms, p99 %.2f ms, max %.2f ms", percentile(samples, 0.5), percentile(samples, 0.99), samples.last ?? .nan))
}

// 2. Range queries on the file-backed repository.
do {
  let list = announcements(count, latitudes: 49.0...54.8, longitudes: 14.1...24.1)
  let built = ContinuousClock.now
  let repository = FileAnnouncementRepository(list)
  let indexTime = ms(built.duration(to: .now))
  let centers = (0..<2000).map { _ in
    Coordinate(latitude: Double.random(in: 49.5...54.3), longitude: Double.random(in: 14.6...23.6))!
  }
  var found = 0, read = 0
  let started = ContinuousClock.now
  for center in centers {
    found += repository.search(.landingPageQuery(location: center)).count
    read += repository.candidateCount(around: center, radius: 10_000)
  }
  let indexed = ms(started.duration(to: .now))
  let scanCenters = centers.prefix(20)
  let scanStarted = ContinuousClock.now
  var scanFound = 0
  for center in scanCenters {
    let query = AnnouncementListQuery.landingPageQuery(location: center)
    scanFound += query.ordered(repository.all.filter { query.covers($0) }).count
  }
  let scanned = ms(scanStarted.duration(to: .now))
  print(String(format: "index of %d announcements built in %.0f ms", count, indexTime))
  print(
    String(
      format: "10 km queries, grid index: %.0f queries/s (%.3f ms each; %.0f candidates read per query of %d; %.2f results)",
      Double(centers.count) / indexed * 1000, indexed / Double(centers.count), Double(read) / Double(centers.count), count,
      Double(found) / Double(centers.count)))
  print(
    String(
      format: "10 km queries, full scan:  %.1f queries/s (%.1f ms each) -> index %.0fx faster",
      Double(scanCenters.count) / scanned * 1000, scanned / Double(scanCenters.count),
      (scanned / Double(scanCenters.count)) / (indexed / Double(centers.count))))
  _ = scanFound
}
