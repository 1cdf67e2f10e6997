// Benchmarks for the location sources, printing figures (not timed tests):
//
//   source-benchmark pacing  TRACE SPEED [COUNT]   real-time pacing error of replay
//   source-benchmark latency [EPOCHS] [INTERVAL_MS] gpsd → GPSDSource latency beside gpspipe -w
//   source-benchmark replay-memory TRACE           replay as fast as possible: speed and peak memory
//   source-benchmark make-gpx PATH MEGABYTES       write a timed GPX track of that size
//
// scripts/bench-sources.sh runs both with the figures quoted in the README.
import Foundation
import GPSD
import Geo
import ToolsTestSupport
import Synchronization
import Traces
import LocationModel

#if canImport(Glibc)
  import Glibc
#endif

func percentile(_ sorted: [Double], _ p: Double) -> Double {
  guard !sorted.isEmpty else { return .nan }
  return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
}

func describe(_ values: [Double]) -> String {
  let s = values.sorted()
  return String(
    format: "n=%d p50=%.3f ms p90=%.3f ms p99=%.3f ms max=%.3f ms", s.count, percentile(s, 0.5) * 1000,
    percentile(s, 0.9) * 1000, percentile(s, 0.99) * 1000, (s.last ?? .nan) * 1000)
}

func pacing(trace path: String, speed: Double, count: Int?) async throws {
  let trace = try Trace(path: path)
  let replay = TraceReplay(trace: trace, options: ReplayOptions(speed: speed, count: count), clock: ContinuousClock())
  var errors: [Double] = []
  for try await e in replay {
    errors.append(abs((e.elapsed - e.scheduled).seconds))
  }
  print("pacing \(path) at \(speed)x: |actual - scheduled| \(describe(errors))")
}

/// A minimal NMEA feeder for gpsd that records when each epoch was written.
final class TimedFeeder: @unchecked Sendable {
  private let socket: LoopbackListener
  var listener: Int32 { socket.fd }
  var port: Int { socket.port }
  let written = Mutex<[Int64: ContinuousClock.Instant]>([:])

  init() throws {
    socket = try LoopbackListener(backlog: 4)
  }

  /// Accepts gpsd, then writes `epochs` epochs of GGA + RMC every `interval`, stamped with the wall clock.
  func run(epochs: Int, interval: Duration, warmUp: Int) {
    let client = accept(listener, nil, nil)
    var yes: Int32 = 1
    setsockopt(client, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
    let start = ContinuousClock.now
    let base = Date().timeIntervalSince1970.rounded(.down)
    for i in 0..<(epochs + warmUp) {
      let due = start + interval * i
      let now = ContinuousClock.now
      if due > now { Thread.sleep(forTimeInterval: (due - now).seconds) }
      let time = Date(timeIntervalSince1970: base + interval.seconds * Double(i))
      let fix = LocationFix(
        timestamp: time, mode: .threeD, coordinate: Coordinate(latitude: 52.2297 + Double(i) * 1e-5, longitude: 21.0122),
        altitudeMSL: 100, speed: 1.4, course: 0, horizontalAccuracy: 4.5)
      let text = NMEAWriter.sentences(for: fix).map { $0 + "\r\n" }.joined()
      let key = Int64((time.timeIntervalSince1970 * 100).rounded())
      written.withLock { $0[key] = ContinuousClock.now }
      _ = text.withCString { send(client, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
    }
    Thread.sleep(forTimeInterval: 0.5)
    close(client)
  }
}

func latency(epochs: Int, interval: Duration) async throws {
  let feeder = try TimedFeeder()
  let gpsdPort = Int.random(in: 30000..<60000)
  let gpsd = Process()
  gpsd.executableURL = URL(fileURLWithPath: "/usr/sbin/gpsd")
  let socketPath = FileManager.default.temporaryDirectory.appendingPathComponent("bench-gpsd-\(getpid()).sock").path
  gpsd.arguments = ["-N", "-n", "-S", String(gpsdPort), "-F", socketPath, "tcp://127.0.0.1:\(feeder.port)"]
  gpsd.standardError = FileHandle.nullDevice
  try gpsd.run()
  defer {
    kill(gpsd.processIdentifier, SIGKILL)
    gpsd.waitUntilExit()
  }
  let warmUp = 10
  let feederThread = Thread { feeder.run(epochs: epochs, interval: interval, warmUp: warmUp) }
  feederThread.start()
  try await Task.sleep(for: .milliseconds(500))

  // gpspipe -w, line-buffered, read on its own thread.
  let pipeTimes = Mutex<[Int64: ContinuousClock.Instant]>([:])
  let gpspipe = Process()
  gpspipe.executableURL = URL(fileURLWithPath: "/usr/bin/stdbuf")
  gpspipe.arguments = ["-oL", "gpspipe", "-w", "127.0.0.1:\(gpsdPort)"]
  let out = Pipe()
  gpspipe.standardOutput = out
  gpspipe.standardError = FileHandle.nullDevice
  try gpspipe.run()
  defer {
    kill(gpspipe.processIdentifier, SIGKILL)
    gpspipe.waitUntilExit()
  }
  let reader = Thread {
    let fd = out.fileHandleForReading.fileDescriptor
    var pending = [UInt8]()
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let n = read(fd, &buffer, buffer.count)
      if n <= 0 { return }
      let now = ContinuousClock.now
      pending += buffer[0..<n]
      while let newline = pending.firstIndex(of: 10) {
        let line = String(decoding: pending[..<newline], as: UTF8.self)
        pending.removeSubrange(...newline)
        guard line.contains("\"class\":\"TPV\""), let range = line.range(of: "\"time\":\"") else { continue }
        let stamp = String(line[range.upperBound...].prefix(24))
        guard let date = GPXTime.parse(stamp) else { continue }
        let key = Int64((date.timeIntervalSince1970 * 100).rounded())
        pipeTimes.withLock { if $0[key] == nil { $0[key] = now } }
      }
    }
  }
  reader.start()

  let source = GPSDSource(host: "127.0.0.1", port: gpsdPort, connectTimeout: .seconds(5))
  let total = interval * (epochs + warmUp) + .seconds(2)
  let consumer = Task {
    var times: [Int64: ContinuousClock.Instant] = [:]
    do {
      for try await fix in source {
        let now = ContinuousClock.now
        if let t = fix.timestamp { times[Int64((t.timeIntervalSince1970 * 100).rounded())] = now }
      }
    } catch {}
    return times
  }
  try await Task.sleep(for: total)
  consumer.cancel()
  let sourceTimes = await consumer.value
  try await Task.sleep(for: .milliseconds(200))
  let written = feeder.written.withLock { $0 }
  let piped = pipeTimes.withLock { $0 }
  // Skip the warm-up epochs (gpsd identifying the input, clients connecting).
  let keys = written.keys.sorted().dropFirst(warmUp).filter { sourceTimes[$0] != nil && piped[$0] != nil }
  let ours = keys.map { (sourceTimes[$0]! - written[$0]!).seconds }
  let theirs = keys.map { (piped[$0]! - written[$0]!).seconds }
  print("latency feed write → GPSDSource: \(describe(ours))")
  print("latency feed write → gpspipe -w: \(describe(theirs))")
  let ratio = percentile(ours.sorted(), 0.5) / percentile(theirs.sorted(), 0.5)
  print(
    String(
      format: "GPSDSource / gpspipe at p50: %.2fx (p99: %.2fx)", ratio,
      percentile(ours.sorted(), 0.99) / percentile(theirs.sorted(), 0.99)))
}

/// Peak resident memory so far (VmHWM), megabytes.
func peakResidentMegabytes() -> Double {
  guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
    let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
  else { return .nan }
  return (Double(line.split(separator: " ").dropFirst().first ?? "") ?? .nan) / 1024
}

/// Replays a (large) trace as fast as possible and reports throughput and peak memory.
func replayMemory(path: String) async throws {
  let before = peakResidentMegabytes()
  let started = ContinuousClock.now
  var epochs = 0
  let replay = TraceReplay(trace: try Trace(path: path), options: ReplayOptions(speed: nil), clock: ContinuousClock())
  for try await _ in replay { epochs += 1 }
  let took = (ContinuousClock.now - started).seconds
  let size = Double((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0) / 1e6
  print(
    String(
      format: "replay %.0f MB: %d epochs in %.1f s (%.0f epochs/s), peak RSS %.1f MB (%.1f MB before reading)",
      size, epochs, took, Double(epochs) / took, peakResidentMegabytes(), before))
}

/// Writes a timed GPX track of about `megabytes` MB (a 1 Hz walk wandering around Warsaw,
/// with elevation, fix, satellites and HDOP as a receiver logs them), streaming.
func makeGPX(path: String, megabytes: Int) throws {
  guard FileManager.default.createFile(atPath: path, contents: nil), let out = FileHandle(forWritingAtPath: path) else {
    throw CocoaError(.fileWriteNoPermission)
  }
  defer { try? out.close() }
  var writer = GPXWriter()
  var chunk = writer.header(name: "benchmark walk")
  var written = 0
  let target = megabytes * 1_000_000
  var i = 0
  let start = Date(timeIntervalSince1970: 1_778_924_096)
  while written + chunk.utf8.count < target {
    let angle = Double(i) * 0.0005
    let fix = LocationFix(
      timestamp: start.addingTimeInterval(Double(i)), mode: .threeD,
      coordinate: Coordinate(latitude: 52.23 + 0.01 * sin(angle), longitude: 21.01 + 0.015 * cos(angle * 0.7)),
      altitudeMSL: 100 + 5 * sin(angle * 3), altitudeHAE: 133.5 + 5 * sin(angle * 3), horizontalAccuracy: 4.8)
    chunk += writer.append(fix, receiver: ReceiverDetails(satellitesUsed: 9 + i % 4, quality: 1))
    i += 1
    if chunk.utf8.count > 1 << 20 {
      written += chunk.utf8.count
      out.write(Data(chunk.utf8))
      chunk = ""
    }
  }
  chunk += writer.footer()
  out.write(Data(chunk.utf8))
}

let args = CommandLine.arguments.dropFirst()
switch args.first {
case "pacing" where args.count >= 3:
  try await pacing(
    trace: args[args.startIndex + 1], speed: Double(args[args.startIndex + 2]) ?? 1,
    count: args.count > 3 ? Int(args[args.startIndex + 3]) : nil)
case "replay-memory" where args.count >= 2:
  try await replayMemory(path: args[args.startIndex + 1])
case "make-gpx" where args.count >= 3:
  try makeGPX(path: args[args.startIndex + 1], megabytes: Int(args[args.startIndex + 2]) ?? 1024)
case "latency":
  let epochs = args.count > 1 ? Int(args[args.startIndex + 1]) ?? 200 : 200
  let ms = args.count > 2 ? Int(args[args.startIndex + 2]) ?? 100 : 100
  try await latency(epochs: epochs, interval: .milliseconds(ms))
default:
  print(
    "usage: source-benchmark pacing TRACE SPEED [COUNT] | latency [EPOCHS] [INTERVAL_MS] | replay-memory TRACE | make-gpx PATH MEGABYTES")
  exit(64)
}
