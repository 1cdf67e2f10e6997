// Micro-benchmarks of the library's hot paths (package-benchmark), with thresholds: run by
// scripts/bench-check.sh, which fails when one regresses past its tolerance against the stored
// thresholds in Benchmarks/Thresholds (update them with scripts/bench-check.sh --update).
//
// Allocation counts are the same on every machine, so their tolerance is tight; wall-clock time
// depends on the machine, so its tolerance only catches a gross regression (twice as slow).
import Benchmark
import Emulator
import Foundation
import Geo
import NMEA
import MapRendering
import PetMap
import PhoneSources
import Traces
import LocationModel

/// The repository's root (this file is Benchmarks/Benchmarks/LocationEmulatorBenchmarks/…).
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent()

let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = .init(
    metrics: [.wallClock, .throughput, .mallocCountTotal],
    warmupIterations: 2,
    maxDuration: .seconds(2),
    maxIterations: 200,
    thresholds: [
      .mallocCountTotal: .init(relative: [.p50: 5], absolute: [.p50: 50]),
      .wallClock: .init(relative: [.p50: 100]),
    ]
  )

  // The decoder's core: the bundled city walk (1,946 sentences) from memory, framed and decoded.
  let walk = (try? Data(contentsOf: repositoryRoot.appendingPathComponent("traces/city-walk.nmea"))).map(Array.init) ?? []
  Benchmark("NMEA decode: city walk, 1,946 sentences") { benchmark in
    for _ in benchmark.scaledIterations {
      var decoder = NMEADecoder()
      var fixes = 0
      decoder.decode(walk) { _ in fixes += 1 }
      decoder.finish { _ in fixes += 1 }
      blackHole(fixes)
    }
  }

  // The clock: 10,000 timers set and fired by one advance.
  Benchmark("Clock: 10,000 timers fired") { benchmark in
    for _ in benchmark.scaledIterations {
      let clock = EmulatorClock()
      for i in 0..<10_000 { clock.schedule(at: EmulatorClock.Instant(offset: .milliseconds(Int64(i % 1_000)))) {} }
      try await clock.advance(by: .seconds(1))
      blackHole(clock.stepsRun)
    }
  }

  // A fleet's events: 100 phones replaying a minute of a shared walk, each app observing.
  let epochs = (try? DecodedTrace.decode(Trace(path: repositoryRoot.appendingPathComponent("traces/city-walk.nmea").path)))
  Benchmark("Fleet: 100 phones, 60 s of a walk each") { benchmark in
    guard let epochs else { return }
    for _ in benchmark.scaledIterations {
      let clock = EmulatorClock()
      var observations: [PhoneObservation] = []
      var phones: [EmulatedPhone] = []
      for i in 0..<100 {
        let phone = EmulatedPhone(
          .init(
            name: "phone \(i)", permission: PermissionState(appStatus: .authorizedWhenInUse),
            source: .replay(options: ReplayOptions(speed: 1)) { epochs.makeReader() }),
          clock: clock)
        observations.append(phone.observe(.location) { _ in })
        phones.append(phone)
      }
      try await clock.advance(by: .seconds(60))
      blackHole(clock.stepsRun)
      for phone in phones { phone.shutdown() }
      try await clock.runUntilIdle()
      for observation in observations { observation.cancel() }
    }
  }

  // Fan-out: 100 status changes to 1,000 synchronous observers.
  Benchmark("Fan-out: 100 changes to 1,000 observers") { benchmark in
    let phone = EmulatedPhone(.init(permission: PermissionState(appStatus: .denied)))
    let observations = (0..<1_000).map { _ in phone.observe(.stateChanged) { _ in } }
    for _ in benchmark.scaledIterations {
      for i in 0..<100 { phone.apply(.permission(i % 2 == 0 ? .authorizedWhenInUse : .denied)) }
    }
    for observation in observations { observation.cancel() }
    phone.shutdown()
  }

  // Fix records: 1,000 fixes written as JSON (the output contract).
  let fixes = epochs?.epochs.prefix(1_000).map(\.fix) ?? []
  Benchmark("JSON: 1,000 fix records") { benchmark in
    for _ in benchmark.scaledIterations {
      var bytes = 0
      for fix in fixes { bytes += FixRecord.json(fix).utf8.count }
      blackHole(bytes)
    }
  }

  // A snapshot: the 10 km preview with 50 pins and the legend, drawn as SVG.
  let centre = Coordinate(latitude: 52.2297, longitude: 21.0122)!
  var pins: [PinModel] = []
  for i in 0..<50 {
    let latitude: Double = centre.latitude + Double(i % 10) * 0.01 - 0.05
    let longitude: Double = centre.longitude + Double(i / 10) * 0.02 - 0.05
    let status: AnnouncementStatus = i % 3 == 0 ? .found : .active
    pins.append(PinModel(id: "p\(i)", coordinate: Coordinate(latitude: latitude, longitude: longitude)!, status: status))
  }
  let request = MapSnapshotRequest(
    region: centre.mapRegion(radiusMeters: 10_000).fitted(aspectRatio: 16.0 / 9.0), pins: pins.map(\.mapPin),
    userLocation: centre, legend: LegendItem.legend(MapStrings()).map(\.entry))
  Benchmark("Snapshot: 10 km preview, 50 pins") { benchmark in
    let renderer = SVGMapSnapshotter()
    for _ in benchmark.scaledIterations {
      blackHole(try renderer.render(request).svg.utf8.count)
    }
  }
}
