import CGPSShim
import Foundation
public import Geo
import Synchronization
public import LocationModel

/// Positions from a running gpsd, through libgps: a `LocationSource`.
///
/// Each iteration opens its own libgps session on a dedicated thread (libgps
/// blocks; it never runs on Swift's cooperative pool). The session:
///
/// - asks gpsd for JSON reports (`?WATCH={"enable":true,"json":true}`);
/// - turns TPV reports into `LocationFix` values, no-fix reports as mode 1;
/// - collapses the several TPVs gpsd may send for one epoch (newer gpsd reports
///   after nearly every sentence) into one fix: reports that arrive together are
///   merged, and a later report for an epoch already delivered is passed on only
///   when it adds something (a better mode, a member that was missing);
/// - reconnects with capped exponential ``Backoff`` when gpsd goes away or
///   restarts, without ending the sequence;
/// - throws ``GPSDError/cannotConnect(endpoint:message:)`` when there has been no
///   connection for ``Configuration/connectTimeout``;
/// - stops within about 100 ms of the consuming task's cancellation.
///
/// Other conditions (a device gone, an ERROR from gpsd, a reconnect) are
/// reported to ``Configuration/onEvent`` without ending the sequence.
public struct GPSDSource: LocationSource {
  /// Where gpsd is and how the session connects, reconnects and reports.
  public struct Configuration: Sendable {
    /// The host gpsd runs on.
    public var host: String
    /// gpsd's TCP port.
    public var port: Int
    /// Watch only this device (a path as gpsd names it); nil for all.
    public var device: String?
    /// Give up (throw) after this long without a connection, at the start or after losing one; nil: retry forever.
    public var connectTimeout: Duration?
    /// The waits between reconnection attempts.
    public var backoff: Backoff
    /// How long one wait for data lasts before the session checks for cancellation.
    public var pollInterval: Duration
    /// Called on the session thread for everything that is not a fix.
    public var onEvent: (@Sendable (Event) -> Void)?

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - host: The host gpsd runs on.
    ///   - port: gpsd's TCP port.
    ///   - device: Watch only this device; nil for all.
    ///   - connectTimeout: Give up after this long without a connection; nil: retry forever.
    ///   - backoff: The waits between reconnection attempts.
    ///   - pollInterval: How long one wait for data lasts before checking for cancellation.
    ///   - onEvent: Called on the session thread for everything that is not a fix.
    public init(
      host: String = "127.0.0.1", port: Int = 2947, device: String? = nil, connectTimeout: Duration? = .seconds(10),
      backoff: Backoff = Backoff(), pollInterval: Duration = .milliseconds(50), onEvent: (@Sendable (Event) -> Void)? = nil
    ) {
      self.host = host
      self.port = port
      self.device = device
      self.connectTimeout = connectTimeout
      self.backoff = backoff
      self.pollInterval = pollInterval
      self.onEvent = onEvent
    }

    /// `host:port`.
    public var endpoint: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
  }

  /// Something that happened to the session other than a fix.
  public enum Event: Sendable, Hashable {
    /// The session reached gpsd and asked for its reports.
    case connected(endpoint: String)
    /// gpsd's first report on a connection (its `VERSION`, as a rule): gpsd, not just something
    /// listening on the port, answered.
    case answered(endpoint: String)
    /// The connection was lost or refused; the session retries after `retryIn`.
    case disconnected(GPSDError, retryIn: Duration)
    /// Not fatal: gpsd or its device reported a problem.
    case problem(GPSDError)
    /// The session thread has ended (cancelled, or given up); nothing follows.
    case stopped
  }

  /// Where gpsd is and how each session behaves.
  public var configuration: Configuration

  /// Creates a source with a full configuration.
  ///
  /// - Parameter configuration: Where gpsd is and how the session behaves.
  public init(configuration: Configuration) { self.configuration = configuration }

  /// Creates a source for the gpsd at `host:port`, watching all devices, with default backoff.
  ///
  /// - Parameters:
  ///   - host: The host gpsd runs on.
  ///   - port: gpsd's TCP port.
  ///   - connectTimeout: Give up after this long without a connection; nil: retry forever.
  public init(host: String = "127.0.0.1", port: Int = 2947, connectTimeout: Duration? = .seconds(10)) {
    configuration = Configuration(host: host, port: port, connectTimeout: connectTimeout)
  }

  /// The libgps API major version this build uses.
  public static var libgpsAPIVersion: Int { Int(locemu_gps_api_major()) }

  /// Iterates over the fixes of one libgps session.
  public struct AsyncIterator: AsyncIteratorProtocol {
    var base: AsyncThrowingStream<LocationFix, any Error>.Iterator
    /// Waits for the next fix.
    ///
    /// - Returns: The next fix, or nil when the session has ended.
    /// - Throws: ``GPSDError/cannotConnect(endpoint:message:)`` after ``GPSDSource/Configuration/connectTimeout``
    ///   without a connection.
    public mutating func next() async throws -> LocationFix? { try await base.next(isolation: #isolation) }
  }

  /// Starts a new libgps session on its own thread; it stops when the iteration ends or is cancelled.
  ///
  /// - Returns: An iterator over the session's fixes.
  public func makeAsyncIterator() -> AsyncIterator {
    let (stream, continuation) = AsyncThrowingStream.makeStream(
      of: LocationFix.self, throwing: (any Error).self, bufferingPolicy: .bufferingNewest(1024))
    let session = GPSDSession(configuration: configuration, continuation: continuation)
    continuation.onTermination = { _ in session.cancel() }
    session.start()
    return AsyncIterator(base: stream.makeAsyncIterator())
  }
}

/// One libgps session on its own thread.
final class GPSDSession: Sendable {
  private let configuration: GPSDSource.Configuration
  private let continuation: AsyncThrowingStream<LocationFix, any Error>.Continuation
  private let cancelled = Atomic<Bool>(false)

  init(configuration: GPSDSource.Configuration, continuation: AsyncThrowingStream<LocationFix, any Error>.Continuation) {
    self.configuration = configuration
    self.continuation = continuation
  }

  func cancel() { cancelled.store(true, ordering: .relaxed) }
  private var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

  func start() {
    let thread = Thread { [self] in run() }
    thread.name = "locemu.gpsd \(configuration.endpoint)"
    thread.start()
  }

  private func run() {
    defer { configuration.onEvent?(.stopped) }
    var backoff = configuration.backoff
    var lastConnected = ContinuousClock.now
    var collapser = EpochCollapser()
    let endpoint = configuration.endpoint
    while !isCancelled {
      var code: Int32 = 0
      guard let gps = locemu_gps_open(configuration.host, String(configuration.port), &code) else {
        let error = GPSDError.cannotConnect(endpoint: endpoint, message: String(cString: locemu_gps_errstr(code)))
        if let timeout = configuration.connectTimeout, ContinuousClock.now - lastConnected >= timeout {
          continuation.finish(throwing: error)
          return
        }
        var delay = backoff.nextDelay()
        if let timeout = configuration.connectTimeout {
          delay = max(.zero, min(delay, timeout - (ContinuousClock.now - lastConnected)))
        }
        configuration.onEvent?(.disconnected(error, retryIn: delay))
        sleep(delay)
        continue
      }
      defer { locemu_gps_close(gps) }
      if locemu_gps_watch(gps, configuration.device) != 0 {
        let error = GPSDError.protocolError(endpoint: endpoint, message: "the WATCH request could not be sent")
        configuration.onEvent?(.problem(error))
        sleep(backoff.nextDelay())
        continue
      }
      configuration.onEvent?(.connected(endpoint: endpoint))
      let lost = readLoop(gps, &collapser, &backoff)
      lastConnected = ContinuousClock.now
      if let lost, !isCancelled {
        let delay = backoff.nextDelay()
        configuration.onEvent?(.disconnected(lost, retryIn: delay))
        sleep(delay)
      }
    }
    continuation.finish()
  }

  /// Reads until cancelled (nil) or the connection is lost (the error).
  private func readLoop(_ gps: OpaquePointer, _ collapser: inout EpochCollapser, _ backoff: inout Backoff) -> GPSDError? {
    let endpoint = configuration.endpoint
    let poll = Int32(
      clamping: configuration.pollInterval.components.seconds * 1_000_000
        + configuration.pollInterval.components.attoseconds / 1_000_000_000_000)
    var message = locemu_gps_message()
    var answered = false
    while !isCancelled {
      guard locemu_gps_waiting(gps, poll) != 0 else {
        // Nothing more arrived within the poll interval: whatever was merged is complete.
        if let fix = collapser.flush() { continuation.yield(fix) }
        continue
      }
      guard locemu_gps_read(gps, &message) == 0 else {
        if let fix = collapser.flush() { continuation.yield(fix) }
        return .cannotConnect(endpoint: endpoint, message: "connection closed by gpsd")
      }
      if !answered {
        answered = true
        configuration.onEvent?(.answered(endpoint: endpoint))
      }
      switch message.kind {
      case LOCEMU_MESSAGE_TPV:
        backoff.reset()
        if let fix = collapser.add(Self.fix(message)) { continuation.yield(fix) }
        // Reports already buffered belong together; deliver once no more are waiting.
        if locemu_gps_waiting(gps, 0) == 0, let fix = collapser.flush() { continuation.yield(fix) }
      case LOCEMU_MESSAGE_DEVICE where message.device_activated == 0:
        configuration.onEvent?(.problem(.deviceGone(endpoint: endpoint, device: Self.string(message.device))))
      case LOCEMU_MESSAGE_DEVICES where message.device_count == 0:
        configuration.onEvent?(.problem(.deviceGone(endpoint: endpoint, device: "")))
      case LOCEMU_MESSAGE_ERROR:
        configuration.onEvent?(.problem(.protocolError(endpoint: endpoint, message: Self.string(message.message))))
      default:
        break
      }
    }
    return nil
  }

  private func sleep(_ duration: Duration) {
    // In slices, so that cancellation is noticed within the poll interval.
    let deadline = ContinuousClock.now + duration
    while !isCancelled, ContinuousClock.now < deadline {
      Thread.sleep(forTimeInterval: min(configuration.pollInterval.seconds, (deadline - ContinuousClock.now).seconds))
    }
  }

  static func fix(_ m: locemu_gps_message) -> LocationFix {
    func value(_ v: Double) -> Double? { v.isFinite ? v : nil }
    let coordinate =
      m.mode >= 2
      ? value(m.latitude).flatMap { lat in value(m.longitude).flatMap { Coordinate(latitude: lat, longitude: $0) } }
      : nil
    let mode: LocationFix.Mode = coordinate == nil ? .noFix : (m.mode >= 3 ? .threeD : .twoD)
    return LocationFix(
      timestamp: m.has_time != 0 ? Date(timeIntervalSince1970: Double(m.time_sec) + Double(m.time_nsec) / 1e9) : nil,
      mode: mode, coordinate: coordinate,
      altitudeMSL: mode == .threeD ? value(m.alt_msl) : nil, altitudeHAE: mode == .threeD ? value(m.alt_hae) : nil,
      speed: value(m.speed), course: value(m.track), horizontalAccuracy: value(m.eph), verticalAccuracy: value(m.epv),
      climb: mode == .threeD ? value(m.climb) : nil, geoidSeparation: mode == .threeD ? value(m.geoid_sep) : nil,
      magneticVariation: value(m.magnetic_var), status: status(m.status, mode: mode),
      errors: .init(
        epx: value(m.epx), epy: value(m.epy), eps: value(m.eps), epd: value(m.epd), epc: mode == .threeD ? value(m.epc) : nil,
        ept: m.has_time != 0 ? value(m.ept) : nil, sep: value(m.sep)))
  }

  /// gpsd's status: it reports 2 (DGPS) and up, and leaves out 0 and 1, which a fix makes 1.
  static func status(_ raw: Int32, mode: LocationFix.Mode) -> LocationFix.Status? {
    if raw >= 2 { return LocationFix.Status(rawValue: Int(raw)) }
    return mode >= .twoD ? .gnss : nil
  }

  static func string<T>(_ tuple: T) -> String {
    withUnsafeBytes(of: tuple) { raw in
      String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
    }
  }
}
