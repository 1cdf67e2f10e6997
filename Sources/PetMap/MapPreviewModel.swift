public import Geo
public import LocationModel
public import MapRendering
public import PermissionHandling

/// A pin on the map: the iOS app's `MapPreviewView.PinModel`, derived 1:1 from an ``Announcement``.
/// Pins are equal when their ids are (FR: "compared by id").
public struct PinModel: Sendable, Identifiable, Hashable {
  public let id: String
  public let coordinate: Coordinate
  public let status: AnnouncementStatus

  public init(id: String, coordinate: Coordinate, status: AnnouncementStatus) {
    self.id = id
    self.coordinate = coordinate
    self.status = status
  }

  /// The pin of `announcement`, or nil when it gets none (`CLOSED`).
  public init?(_ announcement: Announcement) {
    guard announcement.status.isPinEligible else { return nil }
    self.init(id: announcement.id, coordinate: announcement.coordinate, status: announcement.status)
  }

  /// The pin as the renderer draws it: red for a missing pet, green for a found one.
  public var mapPin: MapPin {
    MapPin(id: id, coordinate: coordinate, colorHex: LegendItem.kind(of: status).map(LegendItem.color(of:)) ?? "#9E9E9E")
  }

  public static func == (a: PinModel, b: PinModel) -> Bool { a.id == b.id }
  public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

/// What the landing page's map preview shows: the iOS app's `MapPreviewView.Model`.
/// The actions (tap, go to settings, retry) are methods of ``MapPreviewModel``.
public enum MapPreviewState: Sendable, Hashable {
  /// Waiting for the location, the pins and the snapshot (shows a loading indicator).
  case loading
  /// The map of `region` (10 km around the user, 16:9) with `pins`; tapping it calls back.
  case map(region: MapRegion, pins: [PinModel])
  /// Location is not authorized (or Location Services are off): the message and a Settings button.
  case permissionRequired(message: String)
  /// Loading failed or took longer than the timeout: the message and a Retry button.
  case error(message: String)

  /// `loading`, `map`, `permissionRequired` or `error` (the `preview` member of `locemu preview --json`).
  public var name: String {
    switch self {
    case .loading: "loading"
    case .map: "map"
    case .permissionRequired: "permissionRequired"
    case .error: "error"
    }
  }

  public var pins: [PinModel] {
    if case .map(_, let pins) = self { return pins }
    return []
  }

  public var region: MapRegion? {
    if case .map(let region, _) = self { return region }
    return nil
  }
}

/// Why the preview is in the error state.
public enum MapPreviewError: Error, Sendable, Hashable, CustomStringConvertible {
  /// Authorized, but no location arrived.
  case locationUnavailable
  /// Loading took longer than the load timeout (10 s).
  case timedOut
  /// The snapshot could not be made.
  case snapshotFailed(String)

  public var description: String {
    switch self {
    case .locationUnavailable: "no location"
    case .timedOut: "timed out"
    case .snapshotFailed(let reason): "snapshot failed: \(reason)"
    }
  }
}

/// The landing page's map preview (FR-001…FR-013 of the landing-page spec): the runtime of a
/// `MapPreviewStateMachine` on an `AppScheduler` (an emulated phone's clock in a test).
///
/// - Reads and observes permission through a `LocationPermissionHandler` (FR-005, FR-007)
///   and never asks for it (FR-013): not authorized, or Location Services off, shows
///   ``MapPreviewState/permissionRequired(message:)``; a later grant loads the map by itself.
/// - A load captures the user's location once (no live following), makes the region of
///   ``radiusMeters`` around it framed 16:9, fetches the pins with
///   ``AnnouncementListQuery/landingPageQuery(location:)`` (a backend error gives the map with
///   no pins), and renders a snapshot when it has a snapshotter (a failed snapshot is an
///   error). It runs as a task of the scheduler's; its ``loadTimeout`` (10 s) is a timer of the
///   scheduler's; past it the state is `error`.
/// - ``tap()`` calls back only in the map state (FR-004a–c); ``retry()`` works in the error
///   state (FR-010); ``goToSettings()`` in the permission state.
/// - Returning to the foreground re-checks permission (the handler's observation); a state
///   that is still valid is kept as it was.
///
/// Every change of state is passed to `onStateChange` in order, on the phone's clock: on a
/// virtual clock, by the time an advance (or the call that caused it) returns.
public final class MapPreviewModel: Sendable {
  /// Where the load timeout's timer and the loads' tasks run.
  public let scheduler: any AppScheduler
  public let handler: LocationPermissionHandler
  public let repository: (any AnnouncementRepository)?
  public let snapshotter: (any MapSnapshotting)?
  public let radiusMeters: Double
  public let strings: MapStrings
  public var loadTimeout: Duration { core.withLock { $0.machine.loadTimeout } }

  private let core: Locked<PreviewCore>
  private let onStateChange: @Sendable (MapPreviewState) -> Void
  private let onTap: @Sendable () -> Void
  private let onGoToSettings: @Sendable () -> Void
  private let log: @Sendable (String) -> Void

  private struct PreviewCore {
    var machine: MapPreviewStateMachine
    var loads: [UInt64: CancellationHandle] = [:]
    var timers: [UInt64: Cancellation] = [:]
  }

  /// - Parameters:
  ///   - scheduler: where the preview's timers and tasks run (an emulated phone's clock in a
  ///     test: `phone.clock`).
  ///   - handler: the permission handler the preview reads and observes (its service is where
  ///     the location comes from).
  ///   - repository: where pins come from; nil: a map without pins.
  ///   - snapshotter: renders the preview image; nil: no image is made.
  ///   - loadTimeout: how long a load may take; past it the state is `error`.
  ///   - radiusMeters: the radius of the region around the user's location, in metres.
  ///   - strings: the user-facing strings of the preview's messages (their language).
  ///   - onStateChange: called with every change of state, in order, on the scheduler.
  ///   - onTap: called when the loaded map is tapped (the landing page's callback).
  ///   - onGoToSettings: called when the user taps "Go to Settings" in the permission state.
  ///   - log: debugging output (the tap is logged, FR-004b; so are backend errors).
  public init(
    scheduler: any AppScheduler, handler: LocationPermissionHandler, repository: (any AnnouncementRepository)? = nil,
    snapshotter: (any MapSnapshotting)? = nil, loadTimeout: Duration = .seconds(10), radiusMeters: Double = 10_000,
    strings: MapStrings = MapStrings(), onStateChange: @escaping @Sendable (MapPreviewState) -> Void = { _ in },
    onTap: @escaping @Sendable () -> Void = {}, onGoToSettings: @escaping @Sendable () -> Void = {},
    log: @escaping @Sendable (String) -> Void = { print($0) }
  ) {
    self.scheduler = scheduler
    self.handler = handler
    self.repository = repository
    self.snapshotter = snapshotter
    self.radiusMeters = radiusMeters
    self.strings = strings
    self.onStateChange = onStateChange
    self.onTap = onTap
    self.onGoToSettings = onGoToSettings
    self.log = log
    core = Locked(PreviewCore(machine: MapPreviewStateMachine(loadTimeout: loadTimeout, strings: strings)))
  }

  public var state: MapPreviewState { core.withLock { $0.machine.state } }
  /// The location captured by the last successful load.
  public var userLocation: Coordinate? { core.withLock { $0.machine.loaded?.location } }
  /// The snapshot of the last successful load (with a snapshotter).
  public var snapshot: MapSnapshot? { core.withLock { $0.machine.loaded?.snapshot } }
  /// Why the last load failed (nil after a success).
  public var lastError: MapPreviewError? { core.withLock { $0.machine.lastError } }
  /// How many loads were started (tests check that a round trip does not reload).
  public var loadCount: Int { core.withLock { $0.machine.loadCount } }
  /// How many taps reached the callback.
  public var tapCount: Int { core.withLock { $0.machine.tapCount } }

  /// Starts: observes permission, and loads when authorized now. Calling it again does nothing.
  public func start() async {
    await handler.startObservingLocationPermissionChanges { [weak self] change in
      self?.handle { $0.permissionChanged(authorized: change.isAuthorized) }
    }
    let authorized = await handler.service.authorizationStatus.isAuthorized ? await handler.service.locationServicesEnabled : false
    handle { $0.start(authorized: authorized) }
  }

  /// Stops observing and cancels a load in progress.
  public func stop() {
    handler.stopObservingLocationPermissionChanges()
    handle { $0.stop() }
  }

  /// The user taps the preview: calls back (and logs) only in the map state.
  /// - Returns: whether the tap reached the callback.
  @discardableResult
  public func tap() -> Bool { handle { $0.tap() } }

  /// The user taps Retry: loads again, only in the error state.
  /// - Returns: whether a load started.
  @discardableResult
  public func retry() -> Bool { handle { $0.retry() } }

  /// The user taps "Go to Settings": calls back, only in the permission state.
  @discardableResult
  public func goToSettings() -> Bool { handle { $0.goToSettings() } }

  private func handle(_ event: (inout MapPreviewStateMachine) -> [MapPreviewStateMachine.Action]) {
    perform(core.withLock { event(&$0.machine) })
  }

  private func handle(_ event: (inout MapPreviewStateMachine) -> (accepted: Bool, actions: [MapPreviewStateMachine.Action])) -> Bool {
    let (accepted, actions) = core.withLock { event(&$0.machine) }
    perform(actions)
    return accepted
  }

  private func perform(_ actions: [MapPreviewStateMachine.Action]) {
    for action in actions {
      switch action {
      case .publish(let state): onStateChange(state)
      case .log(let message): log(message)
      case .callTap: onTap()
      case .callGoToSettings: onGoToSettings()
      case .armTimeout(let id, let delay):
        let timer = scheduler.run(after: delay) { [weak self] in self?.handle { $0.timeoutFired(id) } }
        core.withLock { $0.timers[id] = timer }
      case .cancelTimeout(let id):
        core.withLock { $0.timers.removeValue(forKey: id) }?.cancel()
      case .startLoad(let id):
        let work = LoadWork(
          service: handler.service, repository: repository, snapshotter: snapshotter, radiusMeters: radiusMeters,
          strings: strings, log: log)
        let cancellation = CancellationHandle()
        core.withLock { $0.loads[id] = cancellation }
        let task = scheduler.startTask("map preview load \(id)") { [weak self] in
          let outcome = await work.run()
          _ = self?.core.withLock { $0.loads.removeValue(forKey: id) }
          self?.handle { $0.loadFinished(id, outcome) }
        }
        cancellation.attach { task.cancel() }
      case .cancelLoad(let id):
        core.withLock { $0.loads.removeValue(forKey: id) }?.cancel()
      }
    }
  }
}

/// One load of the preview: location, pins, snapshot; nil when it was cancelled.
private struct LoadWork: Sendable {
  let service: any LocationServiceProtocol
  let repository: (any AnnouncementRepository)?
  let snapshotter: (any MapSnapshotting)?
  let radiusMeters: Double
  let strings: MapStrings
  let log: @Sendable (String) -> Void

  func run() async -> Result<LoadedMap, MapPreviewError>? {
    // requestLocation never prompts (FR-013); no location when not authorized or nothing arrives in time.
    guard let location = await service.requestLocationResult().location else {
      return Task.isCancelled ? nil : .failure(.locationUnavailable)
    }
    let region = location.mapRegion(radiusMeters: radiusMeters).fitted(aspectRatio: 16.0 / 9.0)
    var pins: [PinModel] = []
    if let repository {
      do {
        pins = try await repository.announcements(for: .landingPageQuery(location: location)).compactMap(PinModel.init)
      } catch {
        if Task.isCancelled { return nil }
        // A backend error gives the map without pins, not an error (FR-006 of the pins spec).
        log("announcements unavailable: \(error)")
      }
    }
    var snapshot: MapSnapshot?
    if let snapshotter {
      do {
        snapshot = try await snapshotter.snapshot(
          MapSnapshotRequest(
            region: region, pins: pins.map(\.mapPin), userLocation: location, legend: LegendItem.legend(strings).map(\.entry)))
      } catch {
        return Task.isCancelled ? nil : .failure(.snapshotFailed(String(describing: error)))
      }
    }
    if Task.isCancelled { return nil }
    return .success(LoadedMap(location: location, region: region, pins: pins, snapshot: snapshot))
  }
}
