import Foundation
public import Geo

#if canImport(Glibc)
  import Glibc
#endif

/// The app's view of location: the seed API of the iOS app's `LocationServiceProtocol`, plus
/// what Linux tests need beyond it.
public protocol LocationServiceProtocol: Sendable {
  /// The current authorization (`denied` while Location Services are off).
  var authorizationStatus: LocationPermissionStatus { get async }
  /// The status now, then each change.
  var authorizationStatusStream: AsyncStream<LocationPermissionStatus> { get }
  /// Shows the permission prompt when the status is `notDetermined`; returns the status after it.
  func requestWhenInUseAuthorization() async -> LocationPermissionStatus
  /// One fresh location, or nil when not authorized, Location Services are off, or none arrives in time.
  func requestLocation() async -> Coordinate?
  /// Whether Location Services are on system-wide (tells "denied by the user" from "services off").
  var locationServicesEnabled: Bool { get async }
  /// Location Services on/off now, then each change (a switch that leaves the status `denied` still shows here).
  var locationServicesStream: AsyncStream<Bool> { get }
}

/// App lifecycle events, for observers that re-check permission on return to the foreground.
public protocol AppLifecycleProviding: Sendable {
  /// The app's state now, then each change.
  func appStateUpdates() -> AsyncStream<AppState>
}

extension PermissionEmulator: AppLifecycleProviding {}

/// What reduced (approximate) accuracy does to locations, as on iOS: positions
/// snapped to a grid of `gridMeters`, horizontal accuracy at least that, no
/// altitude, speed or course, and at most one update per `minimumInterval`.
public struct ReducedAccuracy: Sendable, Hashable {
  public var gridMeters: Double
  public var minimumInterval: Duration

  /// iOS documents approximate locations as good to roughly 1–20 km, updated a few times an hour.
  public init(gridMeters: Double = 3000, minimumInterval: Duration = .seconds(15 * 60)) {
    self.gridMeters = gridMeters
    self.minimumInterval = minimumInterval
  }

  /// The coarsened fix: the centre of its grid cell.
  public func coarsen(_ fix: LocationFix) -> LocationFix {
    guard let c = fix.coordinate else { return fix }
    let cellLatitude = gridMeters / 111_195.0
    let latitude = (c.latitude / cellLatitude).rounded(.down) * cellLatitude + cellLatitude / 2
    let cellLongitude = min(360, cellLatitude / max(0.01, cos(min(89.9, abs(latitude)) * .pi / 180)))
    let longitude = (c.longitude / cellLongitude).rounded(.down) * cellLongitude + cellLongitude / 2
    var out = LocationFix(timestamp: fix.timestamp, mode: .twoD)
    out.coordinate = Coordinate(
      latitude: Swift.max(-90, Swift.min(90, latitude)), longitude: Swift.max(-180, Swift.min(180, longitude)))
    out.horizontalAccuracy = Swift.max(fix.horizontalAccuracy ?? 0, gridMeters)
    return out
  }
}

/// `LocationServiceProtocol` over any ``LocationSource``, gated by a ``PermissionEmulator``.
///
/// - ``requestLocation()``/``requestFix()``: one-shot — the next fix that arrives
///   after the call, within ``requestTimeout`` on the clock; nil at once when not
///   authorized or services are off, nil when revoked while waiting.
/// - ``locations()``: a continuous stream per caller that receives fixes only while
///   authorized with services on: it goes quiet on revocation and resumes on a new grant.
/// - Reduced accuracy is applied to the data (``ReducedAccuracy``).
/// - ``setSourcePaused(_:)`` stops and resumes the fixes coming from the source
///   (a tunnel, a lost fix), without touching the source itself.
///
/// The source is read from the first request on (or ``start()``), once, by one task.
public actor LocationService<C: Clock>: LocationServiceProtocol where C.Duration == Duration {
  public nonisolated let emulator: PermissionEmulator<C>
  public nonisolated let clock: C
  public let requestTimeout: Duration
  public let reducedAccuracy: ReducedAccuracy
  private let source: any LocationSource
  private nonisolated let fixes = FanOut<LocationFix>(buffer: 256)
  private var pump: Task<Void, Never>?
  private var statusWatch: Task<Void, Never>?
  private var waiters: [Int: CheckedContinuation<LocationFix?, Never>] = [:]
  private var nextWaiter = 0
  private var paused = false
  private var lastReducedDelivery: (instant: C.Instant, timestamp: Date?)?
  /// The newest fix from the source (whatever the permission), for diagnostics.
  public private(set) var latestFix: LocationFix?
  /// Whether the source has ended (or failed); then requests wait in vain until their timeout.
  public private(set) var sourceEnded = false

  public init(
    emulator: PermissionEmulator<C>, source: any LocationSource, requestTimeout: Duration = .seconds(10),
    reducedAccuracy: ReducedAccuracy = ReducedAccuracy()
  ) {
    self.emulator = emulator
    self.clock = emulator.clock
    self.source = source
    self.requestTimeout = requestTimeout
    self.reducedAccuracy = reducedAccuracy
  }

  deinit {
    pump?.cancel()
    statusWatch?.cancel()
  }

  public var authorizationStatus: LocationPermissionStatus { emulator.status }
  public nonisolated var authorizationStatusStream: AsyncStream<LocationPermissionStatus> { emulator.statusUpdates() }
  public var locationServicesEnabled: Bool { emulator.state.servicesEnabled }
  public nonisolated var locationServicesStream: AsyncStream<Bool> { emulator.servicesEnabledUpdates() }
  public var accuracyAuthorization: LocationAccuracyAuthorization { emulator.state.accuracy }

  public func requestWhenInUseAuthorization() async -> LocationPermissionStatus {
    await emulator.requestWhenInUseAuthorization()
  }

  public func requestLocation() async -> Coordinate? { await requestFix()?.coordinate }

  /// Like ``requestLocation()``, with the whole fix (accuracy, altitude, time).
  public func requestFix() async -> LocationFix? {
    guard isDelivering else { return nil }
    start()
    let id = nextWaiter
    nextWaiter += 1
    // The deadline is fixed at the call, however late the timer task starts.
    let deadline = clock.now.advanced(by: requestTimeout), clock = clock
    let timer = Task {
      try? await clock.sleep(until: deadline, tolerance: nil)
      self.expire(id)
    }
    defer { timer.cancel() }
    return await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        if Task.isCancelled { continuation.resume(returning: nil) } else { waiters[id] = continuation }
      }
    } onCancel: {
      Task { await self.expire(id) }
    }
  }

  private func expire(_ id: Int) {
    waiters.removeValue(forKey: id)?.resume(returning: nil)
  }

  /// Fixes while authorized with services on (reduced accuracy applied); one stream per caller.
  public func locations() -> AsyncStream<LocationFix> {
    start()
    return fixes.subscribe()
  }

  /// Subscribers of ``locations()`` now (for tests that check cleanup).
  public nonisolated var locationSubscriberCount: Int { fixes.subscriberCount }

  /// Stops (true) or resumes (false) the delivery of the source's fixes.
  public func setSourcePaused(_ paused: Bool) { self.paused = paused }

  /// Starts reading the source (done by the first request anyway).
  public func start() {
    guard pump == nil else { return }
    let source = self.source
    pump = Task {
      do {
        for try await fix in source { self.receive(fix) }
      } catch {}
      self.sourceFinished()
    }
    let statuses = emulator.statusUpdates()
    statusWatch = Task {
      for await status in statuses where !status.isAuthorized { self.revoked() }
    }
  }

  private var isDelivering: Bool {
    let s = emulator.state
    return s.servicesEnabled && s.status.isAuthorized
  }

  private func receive(_ fix: LocationFix) {
    guard !paused, fix.hasFix else { return }
    latestFix = fix
    guard isDelivering else { return }
    var fix = fix
    if emulator.state.accuracy == .reduced {
      fix = reducedAccuracy.coarsen(fix)
      // Throttled by the fixes' own times when they have them (a replay sped up or a late
      // consumer must not change the pattern), else by the clock.
      let now = clock.now
      let since: Duration? =
        if let last = lastReducedDelivery {
          if let a = last.timestamp, let b = fix.timestamp {
            .milliseconds(Int64((b.timeIntervalSince(a) * 1000).rounded()))
          } else {
            last.instant.duration(to: now)
          }
        } else { nil }
      if let since, since < reducedAccuracy.minimumInterval {
        // Throttled for the stream, still good for a one-shot request.
        resumeWaiters(with: fix)
        return
      }
      lastReducedDelivery = (now, fix.timestamp)
    }
    resumeWaiters(with: fix)
    fixes.send(fix)
  }

  private func resumeWaiters(with fix: LocationFix?) {
    let pending = waiters
    waiters.removeAll()
    for continuation in pending.values { continuation.resume(returning: fix) }
  }

  private func revoked() {
    resumeWaiters(with: nil)
  }

  private func sourceFinished() { sourceEnded = true }
}
