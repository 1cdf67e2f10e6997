import EmulatorTesting
import Geo
import LocationModel
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
  /// Lets the feed serve (see ``start(trace:options:feedWaits:)``).
  private let release: AsyncStream<Void>.Continuation

  static var gpsdPath: String? { GPSDProcess.path }

  private init(feed: NMEATraceFeed, gpsd: GPSDProcess, release: AsyncStream<Void>.Continuation) {
    self.feed = feed
    self.gpsd = gpsd
    self.release = release
  }

  /// The feed of `trace` on a free port, and a gpsd reading it.
  ///
  /// - Parameter feedWaits: the feed serves nothing until ``startFeed()``: gpsd's connection to
  ///   it waits (accepted, silent) until then, so a test that starts the feed once its client is
  ///   connected to gpsd sees the trace from its start, however long connecting took. Otherwise
  ///   the feed plays from the moment gpsd connects to it.
  static func start(trace: String, options: ReplayOptions, feedWaits: Bool = false) async throws -> GPSDHarness {
    let server = try await NMEATCPServer.bind(host: "127.0.0.1", port: 0)
    let feed = NMEATraceFeed(server: server, trace: try Trace(path: tracePath(trace)), options: options)
    let (released, release) = AsyncStream<Void>.makeStream()
    if !feedWaits { release.finish() }
    let task = Task.detached {
      // Ends at startFeed() or at cancellation; the feed runs either way (cancelled, it only
      // closes its port).
      for await _ in released {}
      try await feed.run()
    }
    do {
      let gpsd = try await offPool { try GPSDProcess(reading: "tcp://127.0.0.1:\(server.port)") }
      let harness = GPSDHarness(feed: feed, gpsd: gpsd, release: release)
      harness.feedTask = task
      return harness
    } catch {
      task.cancel()
      throw error
    }
  }

  /// Lets a feed started with `feedWaits` serve. Any thread; once is enough, more do nothing.
  func startFeed() { release.finish() }

  /// Starts gpsd again on ``port`` (after ``killGPSD()``).
  func startGPSD() async throws { try await offPool { try self.gpsd.start() } }

  /// Kills gpsd (SIGKILL: no goodbye to clients) and waits until it has ended (its port is then free).
  func killGPSD() async throws {
    gpsd.kill()
    try await gpsd.exited()
  }

  func stop() {
    gpsd.stop()
    release.finish()
    feedTask?.cancel()
  }

  deinit { stop() }
}

/// Events from a GPSDSource, in order, for a test to wait on and inspect.
final class EventLog: Sendable {
  private let events = Watched<[String]>([])
  func record(_ text: String) { events.update { $0.append(text) } }
  var all: [String] { events.current }

  /// Waits until the events so far satisfy `condition`, at most `limit` (a hang guard).
  /// - Throws: "`what`: not within `limit`" when the limit passed first.
  func wait(
    for what: String, within limit: Duration = .seconds(600), until condition: @escaping @Sendable ([String]) -> Bool
  ) async throws {
    try await events.wait(for: what, within: limit, until: condition)
  }
}
