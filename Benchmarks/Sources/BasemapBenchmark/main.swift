// basemap-benchmark: the bundled extract built into a basemap (time, size), and snapshots drawn
// over it at 2, 10 and 50 km radius (render time, SVG size, and rsvg-convert's time to turn the
// SVG into a PNG, when it is installed).
//
// Usage: basemap-benchmark EXTRACT.osm.pbf [ROUNDS]
import Basemap
import Foundation
import Geo
import MapRendering
import PetMap
import LocationModel

let arguments = Array(CommandLine.arguments.dropFirst())
guard let extract = arguments.first else {
  FileHandle.standardError.write(Data("usage: basemap-benchmark EXTRACT.osm.pbf [ROUNDS]\n".utf8))
  exit(64)
}
let rounds = arguments.dropFirst().first.flatMap { Int($0) } ?? 20
let clock = ContinuousClock()
func ms(_ d: Duration) -> String {
  String(format: "%.1f ms", Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15)
}

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("basemap-bench-\(getpid())")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }
let output = directory.appendingPathComponent("map.basemap").path

var builds: [Duration] = []
var summary: BasemapBuilder.Summary?
for _ in 0..<5 {
  let start = clock.now
  summary = try BasemapBuilder.build(pbf: extract, output: output)
  builds.append(clock.now - start)
}
let input = (try FileManager.default.attributesOfItem(atPath: extract)[.size] as? Int) ?? 0
print("build: \(extract) (\(input / 1024) KB) → \(summary!.bytes / 1024) KB basemap, best \(ms(builds.min()!)) of 5")
print("  \(summary!)")

let map = try Basemap(path: output)
let b = map.bounds
let center = Coordinate(latitude: (b.south + b.north) / 2, longitude: (b.west + b.east) / 2)!
let rsvg = ["/usr/bin/rsvg-convert", "/usr/local/bin/rsvg-convert"].first { FileManager.default.isExecutableFile(atPath: $0) }
for radius in [2_000.0, 10_000, 50_000] {
  let region = center.mapRegion(radiusMeters: radius).fitted(aspectRatio: 16.0 / 9.0)
  let request = MapSnapshotRequest(region: region, userLocation: center, legend: LegendItem.legend(MapStrings()).map(\.entry))
  let renderer = SVGMapSnapshotter(layers: [map], radiusMeters: radius)
  var times: [Duration] = []
  var snapshot: MapSnapshot?
  for _ in 0..<rounds {
    let start = clock.now
    snapshot = try renderer.render(request)
    times.append(clock.now - start)
  }
  times.sort()
  var line =
    "snapshot at \(Int(radius / 1000)) km: render p50 \(ms(times[times.count / 2])), best \(ms(times[0])); "
    + "\(snapshot!.svg.utf8.count / 1024) KB SVG, \(snapshot!.basemapFeatureCount) features"
  if let rsvg {
    let svg = directory.appendingPathComponent("s.svg").path, png = directory.appendingPathComponent("s.png").path
    try snapshot!.svg.write(toFile: svg, atomically: true, encoding: .utf8)
    var best = Duration.seconds(3600)
    for _ in 0..<3 {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: rsvg)
      process.arguments = ["-o", png, svg]
      let start = clock.now
      try process.run()
      process.waitUntilExit()
      best = min(best, clock.now - start)
    }
    line += "; rsvg-convert to PNG best \(ms(best))"
  }
  print(line)
}
