import Geo
import LocationTestSupport
import Foundation
import Traces

#if canImport(Glibc)
  import Glibc
#endif

let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent()

func tracePath(_ name: String) -> String { repositoryRoot.appendingPathComponent("traces/\(name)").path }

/// A real gpsd on a free loopback port, reading an in-process `NMEAFeedServer`. Stopped by PID.
final class GPSDHarness: @unchecked Sendable {
  let feed: NMEAFeedServer
  let port: Int
  private var feedTask: Task<Void, Never>?
  private var process: Process?
  private let directory: URL

  static var gpsdPath: String? {
    ["/usr/sbin/gpsd", "/usr/local/sbin/gpsd", "/usr/bin/gpsd"].first { FileManager.default.isExecutableFile(atPath: $0) }
  }

  init(trace: String, options: ReplayOptions) throws {
    feed = try NMEAFeedServer(trace: try Trace(path: tracePath(trace)), options: options, host: "127.0.0.1", port: 0)
    port = try freeLoopbackPort()
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("gpsd-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let feed = self.feed
    feedTask = Task.detached { await feed.run() }
    try startGPSD()
  }

  /// Starts gpsd (again) on ``port`` and waits until it accepts clients.
  func startGPSD() throws {
    guard let path = Self.gpsdPath else { throw HarnessError("gpsd is not installed (apt-get install gpsd)") }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = [
      "-N", "-n", "-S", String(port), "-F", directory.appendingPathComponent("sock").path,
      "tcp://127.0.0.1:\(feed.port)",
    ]
    process.standardError = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    self.process = process
    let deadline = ContinuousClock.now + .seconds(10)
    while !accepts(port) {
      guard ContinuousClock.now < deadline, process.isRunning else { throw HarnessError("gpsd did not start on \(port)") }
      Thread.sleep(forTimeInterval: 0.02)
    }
  }

  /// Kills gpsd (SIGKILL: no goodbye to clients) and waits for it.
  func killGPSD() {
    guard let process, process.isRunning else { return }
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    self.process = nil
  }

  func stop() {
    killGPSD()
    feedTask?.cancel()
    try? FileManager.default.removeItem(at: directory)
  }

  deinit { stop() }
}

struct HarnessError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

func accepts(_ port: Int) -> Bool {
  let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  defer { close(fd) }
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_addr.s_addr = inet_addr("127.0.0.1")
  address.sin_port = in_port_t(UInt16(port).bigEndian)
  return withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
  }
}

/// Events from a GPSDSource, kept for inspection.
final class EventLog: Sendable {
  private let events = Locked<[(ContinuousClock.Instant, String)]>([])
  func record(_ text: String) { events.withLock { $0.append((.now, text)) } }
  var all: [String] { events.withLock { $0.map(\.1) } }
  func first(_ prefix: String) -> ContinuousClock.Instant? {
    events.withLock { $0.first { $0.1.hasPrefix(prefix) }?.0 }
  }
}

/// Runs `body` but fails instead of hanging past `limit`.
func withTimeLimit<T: Sendable>(_ limit: Duration, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
  try await withThrowingTaskGroup(of: T?.self) { group in
    group.addTask { try await body() }
    group.addTask {
      try await Task.sleep(for: limit)
      return nil
    }
    let first = try await group.next()!
    group.cancelAll()
    guard let first else { throw HarnessError("timed out after \(limit)") }
    return first
  }
}
