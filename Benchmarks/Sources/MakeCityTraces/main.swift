// make-city-traces: a walk and a drive along a city's real streets, from its basemap
// (scripts/make-helsinki-traces.sh). The walk follows footways and streets, the drive the
// streets cars use, each the shortest way between two points (Dijkstra over the network the
// basemap's lines make where they share a node); fixes once a second at walking (1.4 m/s) or
// driving (8.3 m/s, 30 km/h) speed, with a stretch without a fix (under a roof, in a tunnel),
// written as a receiver's NMEA (GGA, GSA, GSV, RMC, VTG).
//
// Usage: make-city-traces BASEMAP OUT.nmea LAT,LON LAT,LON walk|drive START-TIME LOST-FROM-S LOST-SECONDS
import Basemap
import Foundation
import Geo
import Traces
import LocationModel

let arguments = Array(CommandLine.arguments.dropFirst())
func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("make-city-traces: \(message)\n".utf8))
  exit(1)
}
guard arguments.count == 8 else {
  fail("usage: make-city-traces BASEMAP OUT.nmea LAT,LON LAT,LON walk|drive START-TIME LOST-FROM-S LOST-SECONDS")
}
func point(_ text: String) -> Coordinate {
  let parts = text.split(separator: ",").compactMap { Double($0) }
  guard parts.count == 2, let c = Coordinate(latitude: parts[0], longitude: parts[1]) else { fail("not LAT,LON: \(text)") }
  return c
}
let map = try Basemap(path: arguments[0])
let (from, to) = (point(arguments[2]), point(arguments[3]))
let walking = arguments[4] == "walk"
guard let start = GPXTime.parse(arguments[5]), let lostFrom = Int(arguments[6]), let lostFor = Int(arguments[7]) else {
  fail("bad start time or lost-fix stretch")
}
let speed = walking ? 1.4 : 8.3
let kinds: Set<BasemapKind> =
  walking
  ? [.footway, .service, .residential, .tertiary, .secondary, .primary]
  : [.service, .residential, .tertiary, .secondary, .primary, .trunk]

// The network: a node per distinct position (shared OSM nodes land on the same 1e-7 degrees).
struct Key: Hashable {
  var lat: Int64
  var lon: Int64
  init(_ c: Coordinate) {
    lat = Int64((c.latitude * 1e7).rounded())
    lon = Int64((c.longitude * 1e7).rounded())
  }
}
var ids: [Key: Int] = [:]
var coordinates: [Coordinate] = []
var edges: [[(to: Int, metres: Double)]] = []
@MainActor func node(_ c: Coordinate) -> Int {
  let key = Key(c)
  if let id = ids[key] { return id }
  ids[key] = coordinates.count
  coordinates.append(c)
  edges.append([])
  return coordinates.count - 1
}
let b = map.bounds
for feature in try map.features(south: b.south, north: b.north, west: b.west, east: b.east, kinds: kinds) {
  let line = feature.rings[0]
  for (a, c) in zip(line, line.dropFirst()) {
    let (i, j) = (node(a), node(c))
    let metres = a.distance(to: c)
    edges[i].append((j, metres))
    edges[j].append((i, metres))
  }
}
// The largest connected part of the network (an extract cuts streets at its edge): both ends
// are taken there, so that a way between them exists.
var component = [Int](repeating: -1, count: coordinates.count)
var sizes: [Int] = []
for seed in coordinates.indices where component[seed] == -1 {
  var stack = [seed]
  component[seed] = sizes.count
  var size = 0
  while let n = stack.popLast() {
    size += 1
    for edge in edges[n] where component[edge.to] == -1 {
      component[edge.to] = sizes.count
      stack.append(edge.to)
    }
  }
  sizes.append(size)
}
let largest = sizes.indices.max { sizes[$0] < sizes[$1] }!
@MainActor func nearest(_ c: Coordinate) -> Int {
  coordinates.indices.filter { component[$0] == largest }.min { coordinates[$0].distance(to: c) < coordinates[$1].distance(to: c) }!
}
let (source, target) = (nearest(from), nearest(to))

// Dijkstra (a binary heap would be faster; a city extract's network is small).
var distance = [Double](repeating: .infinity, count: coordinates.count)
var previous = [Int](repeating: -1, count: coordinates.count)
var done = [Bool](repeating: false, count: coordinates.count)
distance[source] = 0
var frontier: Set<Int> = [source]
while let current = frontier.min(by: { distance[$0] < distance[$1] }) {
  frontier.remove(current)
  if current == target { break }
  done[current] = true
  for edge in edges[current] where !done[edge.to] {
    let d = distance[current] + edge.metres
    if d < distance[edge.to] {
      distance[edge.to] = d
      previous[edge.to] = current
      frontier.insert(edge.to)
    }
  }
}
guard distance[target].isFinite else { fail("no way from \(arguments[2]) to \(arguments[3]) on these streets") }
var path: [Coordinate] = []
var at = target
while at != -1 {
  path.append(coordinates[at])
  at = previous[at]
}
path.reverse()

// A fix every second along the path, at constant speed, with its course; the lost stretch
// as no-fix epochs.
var out = "# Date: \(String(FixRecord.iso8601(start).prefix(10)))\r\n"
var second = 0
var leg = 0
var along = 0.0
@MainActor func emit(_ fix: LocationFix) {
  for line in NMEAWriter.receiverEpoch(for: fix) { out += line + "\r\n" }
}
while leg < path.count - 1 {
  let a = path[leg], c = path[leg + 1]
  let length = a.distance(to: c)
  if along > length {
    along -= length
    leg += 1
    continue
  }
  var fix =
    (second >= lostFrom && second < lostFrom + lostFor)
    ? LocationFix(mode: .noFix)
    : LocationFix(
      mode: .threeD, coordinate: a.interpolated(to: c, fraction: length == 0 ? 0 : along / length), altitudeMSL: 15, speed: speed,
      course: a.bearing(to: c), horizontalAccuracy: 4, verticalAccuracy: 6)
  fix.timestamp = start.addingTimeInterval(Double(second))
  emit(fix)
  second += 1
  along += speed
}
var last = LocationFix(
  mode: .threeD, coordinate: path[path.count - 1], altitudeMSL: 15, speed: 0,
  course: path.count > 1 ? path[path.count - 2].bearing(to: path[path.count - 1]) : nil, horizontalAccuracy: 4, verticalAccuracy: 6)
last.timestamp = start.addingTimeInterval(Double(second))
emit(last)
try out.write(toFile: arguments[1], atomically: true, encoding: .utf8)
let metres = zip(path, path.dropFirst()).reduce(0) { $0 + $1.0.distance(to: $1.1) }
print("\(arguments[1]): \(Int(metres)) m over \(path.count) nodes, \(second + 1) epochs (\(lostFor) without a fix from \(lostFrom) s)")
