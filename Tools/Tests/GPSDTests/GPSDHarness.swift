import Geo
import LocationServices
import ToolsTestSupport
import Foundation
import PhoneServer
import Traces

#if canImport(Glibc)
  import Glibc
#endif

func tracePath(_ name: String) -> String { repositoryRoot.appendingPathComponent("traces/\(name)").path }

/// A real gpsd on a free loopback port, reading an in-process `NMEATraceFeed`. Stopped by PID.
final class GPSDHarness: @unchecked Sendable {
  let feed: NMEATraceFeed
  let gpsd: GPSDProcess
  var port: Int { gpsd.port }
  private var feedTask: Task<Void, any Error>?

  static var gpsdPath: String? { GPSDProcess.path }

  private init(feed: NMEATraceFeed, gpsd: GPSDProcess) {
    self.feed = feed
    self.gpsd = gpsd
  }

  /// The feed of `trace` on a free port, and a gpsd reading it (not started yet).
  static func start(trace: String, options: ReplayOptions) async throws -> GPSDHarness {
    let server = try await NMEATCPServer.bind(host: "127.0.0.1", port: 0)
    let feed = NMEATraceFeed(server: server, trace: try Trace(path: tracePath(trace)), options: options)
    let task = Task.detached { try await feed.run() }
    do {
      let harness = GPSDHarness(feed: feed, gpsd: try GPSDProcess(reading: "tcp://127.0.0.1:\(server.port)"))
      harness.feedTask = task
      return harness
    } catch {
      task.cancel()
      throw error
    }
  }

  /// Starts gpsd again on ``port``.
  func startGPSD() throws { try gpsd.start() }

  /// Kills gpsd (SIGKILL: no goodbye to clients) and waits for it.
  func killGPSD() { gpsd.kill() }

  func stop() {
    gpsd.stop()
    feedTask?.cancel()
  }

  deinit { stop() }
}

struct HarnessError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
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
