// serve-benchmark: `locemu serve` under load, as a client sees it. Starts the real server
// process (real clock) with 1,000 phones, connects 100 event-stream clients (one on each of
// phones 1…100), then measures:
//   1. control requests/s and their p50/p99 latency from W keep-alive connections in parallel
//      (a mix of permission, services and state reads on random phones);
//   2. the time from a revoke/grant request (what `locemu ctl privacy revoke` sends) being
//      written to the event reaching a stream client, p50/p99, with the server quiet and again
//      while the control load runs.
//
// Usage: serve-benchmark [LOCEMU] [--phones N] [--clients N] [--workers W] [--seconds S]
import Foundation
import ToolsTestSupport

#if canImport(Glibc)
  import Glibc
#endif

var arguments = Array(CommandLine.arguments.dropFirst())
func option(_ name: String, _ fallback: Int, in arguments: inout [String]) -> Int {
  guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count, let v = Int(arguments[i + 1]) else { return fallback }
  arguments.removeSubrange(i...(i + 1))
  return v
}
let phones = option("--phones", 1000, in: &arguments)
let clients = min(option("--clients", 100, in: &arguments), phones)
let workers = option("--workers", 4, in: &arguments)
let seconds = option("--seconds", 10, in: &arguments)
let binary = arguments.first.map { URL(fileURLWithPath: $0) } ?? locemuBinary

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("serve-benchmark: \(message)\n".utf8))
  exit(1)
}

func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

func percentile(_ sorted: [Double], _ p: Double) -> Double {
  sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.down)))]
}

func ms(_ value: Double) -> String { String(format: "%.2f ms", value) }

/// A keep-alive connection to the server (LocationTestSupport's); a failure ends the benchmark.
final class Connection {
  let http: LoopbackHTTPConnection
  var fd: Int32 { http.fd }

  init(port: Int) {
    do {
      http = try LoopbackHTTPConnection(port: port)
    } catch {
      fail("\(error)")
    }
  }

  func write(_ method: String, _ path: String, _ body: String? = nil) {
    do { try http.write(method, path, body: body.map { Data($0.utf8) }) } catch { fail("\(error)") }
  }

  func readResponse() -> Int { readResponseBody().status }

  func readResponseBody() -> (status: Int, body: String) {
    do {
      let (status, body) = try http.readResponse()
      return (status, String(decoding: body, as: UTF8.self))
    } catch {
      fail("\(error)")
    }
  }

  func request(_ method: String, _ path: String, _ body: String? = nil) -> Int {
    write(method, path, body)
    return readResponse()
  }
}

// MARK: The server

let server = Process()
server.executableURL = binary
server.arguments = ["serve", "--listen", "127.0.0.1:0", "--phones", String(phones)]
let errPipe = Pipe()
server.standardError = errPipe
server.standardOutput = FileHandle.nullDevice
do { try server.run() } catch { fail("cannot start \(binary.path): \(error)") }
defer {
  kill(server.processIdentifier, SIGKILL)
  server.waitUntilExit()
}
let started = now()
var seen = Data()
while !String(decoding: seen, as: UTF8.self).contains("listening on") {
  let chunk = errPipe.fileHandleForReading.availableData
  if chunk.isEmpty { fail("the server ended: \(String(decoding: seen, as: UTF8.self))") }
  seen.append(chunk)
}
let line = String(decoding: seen, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix("listening on") } ?? ""
guard let port = Int(line.split(separator: ":").last ?? "") else { fail("no port in '\(line)'") }
print("server: \(phones) phones ready in \(String(format: "%.2f", Double(now() - started) / 1e9)) s on port \(port)")

// MARK: Event-stream clients

/// Every stream client on one poll loop; phone 1's client stamps the arrival of each line.
final class StreamClients: @unchecked Sendable {
  let fds: [Int32]
  let lock = NSLock()
  var arrivals: [(UInt64, String)] = []
  var lines = 0
  var running = true

  init(port: Int, count: Int) {
    var fds: [Int32] = []
    for phone in 1...count {
      let c = Connection(port: port)
      let fd = dup(c.fd)
      c.write("GET", "/phones/\(phone)/events")
      fds.append(fd)
    }
    self.fds = fds
  }

  func run() {
    var pending = [[UInt8]](repeating: [], count: fds.count)
    var polls = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while lock.withLock({ running }) {
      guard poll(&polls, nfds_t(polls.count), 100) > 0 else { continue }
      let t = now()
      for i in polls.indices where polls[i].revents & Int16(POLLIN) != 0 {
        let n = recv(polls[i].fd, &chunk, chunk.count, 0)
        guard n > 0 else { continue }
        pending[i].append(contentsOf: chunk[0..<n])
        while let end = pending[i].firstIndex(of: 10) {
          let text = String(decoding: pending[i][0..<end], as: UTF8.self)
          pending[i].removeFirst(end + 1)
          guard text.hasPrefix("data: ") else { continue }
          lock.withLock {
            lines += 1
            if i == 0 { arrivals.append((t, text)) }
          }
        }
      }
    }
  }

  func stop() { lock.withLock { running = false } }
}

let streams = StreamClients(port: port, count: clients)
let streamThread = Thread { streams.run() }
streamThread.start()
// Wait until the server counts every client (the phones' states say so).
let probe = Connection(port: port)
var counted = 0
for _ in 0..<1000 {
  probe.write("GET", "/phones")
  let body = probe.readResponseBody().body
  counted = body.matches(of: /"eventClients":(\d+)/).reduce(0) { $0 + (Int($1.1) ?? 0) }
  if counted >= clients { break }
  usleep(5000)
}
guard counted >= clients else { fail("only \(counted) of \(clients) event streams connected") }
print("event streams: \(clients) clients connected (one each on phones 1…\(clients))")

// MARK: Revoke → event latency

func revokeLatencies(rounds: Int) -> [Double] {
  let control = Connection(port: port)
  var latencies: [Double] = []
  for round in 0..<rounds {
    let revoke = round % 2 == 0
    let marker = revoke ? "\"event\":\"permission=denied\"" : "\"event\":\"permission=authorizedWhenInUse\""
    let before = streams.lock.withLock { streams.arrivals.count }
    let t0 = now()
    let status = control.request("POST", "/phones/1/privacy", revoke ? #"{"action":"revoke"}"# : #"{"action":"grant"}"#)
    guard status == 200 else { fail("privacy request: HTTP \(status)") }
    var arrived: UInt64?
    for _ in 0..<2000 {
      arrived = streams.lock.withLock { streams.arrivals[before...].first { $0.1.contains(marker) }?.0 }
      if arrived != nil { break }
      usleep(200)
    }
    guard let arrived else { fail("the event of round \(round) never arrived") }
    latencies.append(Double(arrived - t0) / 1e6)
  }
  return latencies.sorted()
}

let quiet = revokeLatencies(rounds: 400)
print(
  "revoke → event at a stream client (quiet server, 400 rounds): p50 \(ms(percentile(quiet, 0.5))), p99 \(ms(percentile(quiet, 0.99))), max \(ms(quiet.last ?? .nan))"
)

// MARK: Control load

final class Load: @unchecked Sendable {
  let lock = NSLock()
  var latencies: [Double] = []
  var errors = 0
  var running = true
}
let load = Load()
let bodies = [
  #"{"action":"revoke"}"#, #"{"action":"grant"}"#, #"{"action":"grant","always":true}"#,
]
var threads: [Thread] = []
for w in 0..<workers {
  let thread = Thread {
    let c = Connection(port: port)
    var generator = SystemRandomNumberGenerator()
    var local: [Double] = []
    var errors = 0
    var i = w
    while load.lock.withLock({ load.running }) {
      // Phones beyond the first 100 (no stream client of ours there but the load's own fan-out).
      let phone = Int.random(in: 2...phones, using: &generator)
      let t0 = now()
      let status: Int
      switch i % 4 {
      case 0: status = c.request("POST", "/phones/\(phone)/privacy", bodies[i % bodies.count])
      case 1: status = c.request("POST", "/phones/\(phone)/services", i % 8 == 1 ? #"{"enabled":false}"# : #"{"enabled":true}"#)
      case 2: status = c.request("GET", "/phones/\(phone)")
      default: status = c.request("POST", "/phones/\(phone)/accuracy", i % 8 == 3 ? #"{"accuracy":"reduced"}"# : #"{"accuracy":"full"}"#)
      }
      if status != 200 { errors += 1 }
      local.append(Double(now() - t0) / 1e6)
      i += 1
    }
    load.lock.withLock {
      load.latencies.append(contentsOf: local)
      load.errors += errors
    }
  }
  threads.append(thread)
}
let linesBefore = streams.lock.withLock { streams.lines }
let loadStart = now()
for thread in threads { thread.start() }
usleep(500_000)
let underLoad = revokeLatencies(rounds: 200)
while Double(now() - loadStart) / 1e9 < Double(seconds) { usleep(50_000) }
load.lock.withLock { load.running = false }
while load.lock.withLock({ load.latencies.isEmpty }) { usleep(10_000) }
usleep(300_000)
let elapsed = Double(now() - loadStart) / 1e9
let all = load.lock.withLock { load.latencies.sorted() }
let errors = load.lock.withLock { load.errors }
print(
  "control requests (\(workers) keep-alive connections, random phones of \(phones), \(clients) stream clients connected): "
    + "\(all.count) in \(String(format: "%.1f", elapsed)) s = \(Int(Double(all.count) / elapsed)) requests/s, "
    + "p50 \(ms(percentile(all, 0.5))), p99 \(ms(percentile(all, 0.99))), errors \(errors)")
print(
  "revoke → event at a stream client (under that load, 200 rounds): p50 \(ms(percentile(underLoad, 0.5))), p99 \(ms(percentile(underLoad, 0.99))), max \(ms(underLoad.last ?? .nan))"
)
let delivered = streams.lock.withLock { streams.lines } - linesBefore
print("stream lines delivered during the load: \(delivered)")
streams.stop()
var rss = 0
if let status = try? String(contentsOfFile: "/proc/\(server.processIdentifier)/status", encoding: .utf8),
  let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
{
  rss = Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
}
print("server resident memory: \(rss / 1024) MB (\(phones) phones)")
