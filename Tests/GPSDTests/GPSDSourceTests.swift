import EmulatorTesting
import Foundation
import GPSD
import Geo
import LocationModel
import TestSupport
import Testing
import Traces

/// Milliseconds since 1970: gpsd's resolution in JSON.
func ms(_ date: Date?) -> Int64? { date.map { Int64(($0.timeIntervalSince1970 * 1000).rounded()) } }

/// `GPSDSource` against a real gpsd (Debian's package) reading NMEA over UDP from the test. Each
/// test's bound is a hang guard ten minutes long, far above what a slow machine needs.
@Suite("GPSDSource against a real gpsd", .serialized, .enabled(if: UDPFedGPSD.path != nil), .timeLimit(.minutes(10)))
struct GPSDSourceTests {
  /// The trace's sentences, an epoch to an element, as the trace reader groups them (what the
  /// tools' feed plays).
  static func epochs(_ name: String) throws -> [[String]] {
    let reader = try Trace(path: tracePath(name), keepSentences: true).makeReader()
    defer { reader.close() }
    var epochs: [[String]] = []
    while let epoch = try reader.next() { epochs.append(epoch.sentences) }
    return epochs
  }

  /// The trace's own fixes, as this project's decoder reads them, for comparison.
  static func traceFixes(_ name: String) async throws -> [LocationFix] {
    var out: [LocationFix] = []
    let replay = TraceReplay(trace: try Trace(path: tracePath(name)), options: .init(speed: nil), clock: ContinuousClock())
    for try await e in replay where e.fix.hasFix { out.append(e.fix) }
    return out
  }

  /// A source on `gpsd` whose events go to the stream returned beside it.
  static func source(_ gpsd: UDPFedGPSD) -> (GPSDSource, AsyncStream<GPSDSource.Event>) {
    let (events, event) = AsyncStream.makeStream(of: GPSDSource.Event.self)
    let source = GPSDSource(
      configuration: .init(host: "127.0.0.1", port: gpsd.port, connectTimeout: .seconds(600), onEvent: { event.yield($0) }))
    return (source, events)
  }

  /// Plays the trace into gpsd once the source has connected (and asked for gpsd's reports), so
  /// that the source sees it from its start however long connecting took.
  static func playOnceConnected(
    _ epochs: [[String]], _ gpsd: UDPFedGPSD, _ events: AsyncStream<GPSDSource.Event>
  )
    -> Task<[GPSDSource.Event], Never>
  {
    Task {
      var seen: [GPSDSource.Event] = []
      var playing: Task<Void, Never>?
      for await event in events {
        seen.append(event)
        if case .connected = event, playing == nil { playing = Task { await gpsd.play(epochs) } }
        if event == .stopped { break }
      }
      playing?.cancel()
      return seen
    }
  }

  /// Every epoch gpsd reports reaches the consumer once, in order, with the members gpsd and this
  /// project's decoder both compute from the same sentences.
  @Test func theTraceArrivesThroughGPSDInOrder() async throws {
    let expected = try await Self.traceFixes("drive.nmea")
    let gpsd = try await UDPFedGPSD.start()
    defer { gpsd.stop() }
    let (source, events) = Self.source(gpsd)
    let player = Self.playOnceConnected(try Self.epochs("drive.nmea"), gpsd, events)
    defer { player.cancel() }
    let wanted = 60
    var received: [LocationFix] = []
    for try await fix in source where fix.hasFix {
      // gpsd's first report can come before it has seen a date.
      guard let t = ms(fix.timestamp) else { continue }
      received.append(fix)
      if received.count == wanted || t == ms(expected.last?.timestamp) { break }
    }
    // gpsd spends the first epochs identifying the input; from then on, every epoch in order.
    let start = try #require(expected.firstIndex { ms($0.timestamp) == ms(received.first?.timestamp) })
    #expect(received.count == wanted, "\(received.count) epochs from the trace's epoch \(start), of \(expected.count)")
    for (got, want) in zip(received, expected[start...]) {
      #expect(ms(got.timestamp) == ms(want.timestamp))
      #expect(abs(got.coordinate!.latitude - want.coordinate!.latitude) < 1e-6)
      #expect(abs(got.coordinate!.longitude - want.coordinate!.longitude) < 1e-6)
      #expect(got.mode == want.mode)
      #expect(abs((got.altitudeMSL ?? .nan) - (want.altitudeMSL ?? .nan)) < 1e-3)
      #expect(abs((got.speed ?? .nan) - (want.speed ?? .nan)) < 0.01)
      #expect(abs((got.horizontalAccuracy ?? .nan) - (want.horizontalAccuracy ?? .nan)) < 0.001)
    }
  }

  /// A process the app starts while the source is connected holds no descriptor of gpsd's
  /// connection: libgps opens it without close-on-exec, and the shim marks it (else the child
  /// would keep the connection open after the source has closed it).
  @Test func aProcessTheAppStartsHoldsNoConnectionToGPSD() async throws {
    let gpsd = try await UDPFedGPSD.start()
    defer { gpsd.stop() }
    let (source, events) = Self.source(gpsd)
    let consumer = Task { for try await _ in source {} }
    defer { consumer.cancel() }
    // A child started once the source has connected, while the connection is still there (seen
    // under ThreadSanitizer: a connection gone by the time it was looked for; then the source's
    // next one is taken).
    var seen: [GPSDSource.Event] = []
    var found: (child: Int32, connection: Set<String>)?
    for await event in events {
      seen.append(event)
      guard case .connected = event else { continue }
      let child = try InheritedDescriptors.startChild()
      let connection = InheritedDescriptors.connections(toLoopbackPort: gpsd.port)
      if connection.isEmpty {
        InheritedDescriptors.end(child)
        continue
      }
      found = (child, connection)
      break
    }
    let (child, connection) = try #require(found, "no connection to gpsd in /proc/net/tcp after the source's events \(seen)")
    defer { InheritedDescriptors.end(child) }
    #expect(socketInodes(of: child).isDisjoint(with: connection), "the child holds gpsd's connection")
  }

  /// Cancelling the consuming task ends the session: its thread stops (the `stopped` event, the
  /// last) and the sequence ends without an error of its own.
  @Test func cancellationStopsTheSession() async throws {
    let gpsd = try await UDPFedGPSD.start()
    defer { gpsd.stop() }
    let (source, events) = Self.source(gpsd)
    let player = Self.playOnceConnected(try Self.epochs("city-walk.nmea"), gpsd, events)
    let (fixes, fix) = AsyncStream.makeStream(of: LocationFix.self)
    let consumer = Task {
      for try await each in source { fix.yield(each) }
    }
    defer { consumer.cancel() }
    // Connected and reading (a fix came through the session), then cancelled.
    _ = await fixes.first { _ in true }
    consumer.cancel()
    if case .failure(let error) = await consumer.result, !(error is CancellationError) {
      Issue.record("the sequence ended with \(error), not by its cancellation")
    }
    let seen = await player.value
    #expect(seen.contains { if case .connected = $0 { true } else { false } }, "\(seen)")
    #expect(seen.last == .stopped && seen.filter { $0 == .stopped }.count == 1, "\(seen)")
  }

  /// The source gives up with `cannotConnect` once its connect timeout has passed without a
  /// connection. The kind of ending is checked, not how long it took.
  @Test func aGPSDThatIsNotThereEndsTheSourceWithCannotConnect() async throws {
    try await withUnreachablePort { port in
      let source = GPSDSource(host: "127.0.0.1", port: port, connectTimeout: .seconds(1))
      let error = await #expect(throws: GPSDError.self) {
        for try await _ in source {}
      }
      guard case .cannotConnect(let endpoint, let message)? = error else {
        Issue.record("expected cannotConnect, got \(String(describing: error))")
        return
      }
      #expect(endpoint == "127.0.0.1:\(port)")
      #expect(!message.isEmpty)  // libgps's own words
    }
  }
}
