// Decoding throughput and memory benchmark for the NMEA decoder.
//
//   nmea-benchmark [--epochs N | --megabytes M] [--keep PATH] [--runs R] [FILE]
//
// Without FILE it generates a log of N epochs (default 150 000: about 1.05 M
// sentences, 63 MB) of GGA, RMC, GSA, 3 x GSV and VTG, writes it to a
// temporary file, and decodes it R times (default 1), one thread, streaming
// from the file each time. It prints sentences/s and MB/s of every run, the
// best and the median, and the peak resident set size (VmHWM), so a 1 GB file
// shows whether memory stays flat. Several runs because this shared 2-core
// machine's speed varies by up to two times from one second to the next.

import Foundation
import NMEA
import Traces

func peakRSSKilobytes() -> Int {
  guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return -1 }
  for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
    return Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]) ?? -1
  }
  return -1
}

func checksummed(_ body: String) -> String {
  var sum: UInt8 = 0
  for b in body.utf8 { sum ^= b }
  let hex = String(sum, radix: 16, uppercase: true)
  return "$" + body + "*" + (hex.count == 1 ? "0" + hex : hex) + "\r\n"
}

func ddmm(_ degrees: Double, width: Int) -> String {
  let d = Int(abs(degrees))
  let m = (abs(degrees) - Double(d)) * 60
  let whole = String(d)
  let minutes = String(format: "%07.4f", m)
  return String(repeating: "0", count: max(0, width - whole.count)) + whole + minutes
}

/// Writes `epochs` one-second epochs of a receiver driving a circle near Warsaw.
func generate(epochs: Int, to path: String) throws -> (sentences: Int, bytes: Int) {
  guard
    let out = FileHandle(forWritingAtPath: path)
      ?? {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        return FileHandle(forWritingAtPath: path)
      }()
  else { throw CocoaError(.fileWriteUnknown) }
  defer { try? out.close() }
  try out.truncate(atOffset: 0)
  var buffer = ""
  var sentences = 0
  var bytes = 0
  let start = 1_700_000_000  // 2023-11-14T22:13:20Z
  for i in 0..<epochs {
    let t = start + i
    let day = t / 86_400
    let secondOfDay = t % 86_400
    let hhmmss = String(format: "%02d%02d%02d.00", secondOfDay / 3600, secondOfDay / 60 % 60, secondOfDay % 60)
    let date = NMEADate(daysSinceUnixEpoch: day)
    let ddmmyy = String(format: "%02d%02d%02d", date.day, date.month, date.year % 100)
    let angle = Double(i % 3600) / 3600 * 2 * .pi
    let lat = 52.2297 + 0.01 * sin(angle)
    let lon = 21.0122 + 0.016 * cos(angle)
    let latField = ddmm(lat, width: 2), lonField = ddmm(lon, width: 3)
    let knots = String(format: "%.2f", 20 + 5 * sin(angle * 3))
    let track = String(format: "%.2f", (angle * 180 / .pi + 90).truncatingRemainder(dividingBy: 360))
    buffer += checksummed("GPGGA,\(hhmmss),\(latField),N,\(lonField),E,1,09,0.9,\(String(format: "%.1f", 100 + 5 * cos(angle))),M,34.5,M,,")
    buffer += checksummed("GPRMC,\(hhmmss),A,\(latField),N,\(lonField),E,\(knots),\(track),\(ddmmyy),5.8,E,A")
    buffer += checksummed("GPGSA,A,3,02,05,07,09,13,15,18,20,30,,,,1.6,0.9,1.3")
    buffer += checksummed("GPGSV,3,1,11,02,45,123,42,05,30,067,38,07,12,310,30,09,60,201,45")
    buffer += checksummed("GPGSV,3,2,11,13,22,045,35,15,70,180,47,18,08,270,22,20,33,099,40")
    buffer += checksummed("GPGSV,3,3,11,30,50,150,44,31,05,010,,32,02,355,")
    buffer += checksummed("GPVTG,\(track),T,,M,\(knots),N,\(String(format: "%.2f", (Double(knots) ?? 0) * 1.852)),K,A")
    sentences += 7
    if buffer.utf8.count > 1 << 20 {
      bytes += buffer.utf8.count
      out.write(Data(buffer.utf8))
      buffer.removeAll(keepingCapacity: true)
    }
  }
  bytes += buffer.utf8.count
  out.write(Data(buffer.utf8))
  return (sentences, bytes)
}

var arguments = Array(CommandLine.arguments.dropFirst())
var epochs = 150_000
var keepPath: String?
var file: String?
var runs = 1
while let argument = arguments.first {
  arguments.removeFirst()
  switch argument {
  case "--epochs": epochs = Int(arguments.removeFirst()) ?? epochs
  case "--megabytes": epochs = (Int(arguments.removeFirst()) ?? 63) * 1_000_000 / 420
  case "--keep": keepPath = arguments.removeFirst()
  case "--runs": runs = max(1, Int(arguments.removeFirst()) ?? 1)
  case "-h", "--help":
    print("usage: nmea-benchmark [--epochs N | --megabytes M] [--keep PATH] [--runs R] [FILE]")
    exit(0)
  default: file = argument
  }
}

let path: String
if let file {
  path = file
} else {
  path = keepPath ?? NSTemporaryDirectory() + "nmea-benchmark-\(getpid()).nmea"
  let generated = try generate(epochs: epochs, to: path)
  print("generated \(path): \(generated.sentences) sentences, \(String(format: "%.1f", Double(generated.bytes) / 1e6)) MB")
}
defer { if file == nil && keepPath == nil { try? FileManager.default.removeItem(atPath: path) } }

let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
let rssBefore = peakRSSKilobytes()
let clock = ContinuousClock()
/// Seconds of each run.
var times: [Double] = []
var sentences = 0
for run in 1...runs {
  var fixes = 0
  let start = clock.now
  let statistics = try NMEAFileDecoder.decode(path: path) { fix in
    if fix.mode >= .twoD { fixes += 1 }
  }
  let elapsed = clock.now - start
  let seconds = max(1e-9, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
  sentences = statistics.accepted + statistics.rejected
  times.append(seconds)
  if run == 1 { print("decoded \(sentences) sentences (\(statistics.accepted) accepted), \(fixes) fixes") }
  print("run \(run): \(String(format: "%.3f", seconds)) s, \(rates(sentences, size, seconds))")
}

/// `N sentences/s, M MB/s` for one decoding of the file in `seconds`.
func rates(_ sentences: Int, _ bytes: Int, _ seconds: Double) -> String {
  "\(String(format: "%.0f", Double(sentences) / seconds)) sentences/s, \(String(format: "%.1f", Double(bytes) / 1e6 / seconds)) MB/s"
}

let sorted = times.sorted()
print(
  "throughput: best \(rates(sentences, size, sorted[0])); median \(rates(sentences, size, sorted[sorted.count / 2])) (\(runs) runs)"
)
print(
  "peak RSS: \(String(format: "%.1f", Double(peakRSSKilobytes()) / 1024)) MB (before decoding: \(String(format: "%.1f", Double(rssBefore) / 1024)) MB)"
)
