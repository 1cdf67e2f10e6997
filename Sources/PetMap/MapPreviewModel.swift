public import Geo
public import PermissionHandling
import Emulator

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

/// The landing page's map preview, on the emulator (FR-001…FR-013 of the landing-page spec).
///
/// - Reads and observes permission through a ``LocationPermissionHandler`` (FR-005, FR-007)
///   and never asks for it (FR-013): not authorized, or Location Services off, shows
///   ``MapPreviewState/permissionRequired(message:)``; a later grant loads the map by itself.
/// - Loading captures the user's location once (no live following), makes the region of
///   ``radiusMeters`` around it framed 16:9, fetches the pins with
///   ``AnnouncementListQuery/landingPageQuery(location:)`` (a backend error gives the map with
///   no pins), and renders a snapshot when it has a snapshotter (a failed snapshot is an error).
///   The whole load has ``loadTimeout`` (10 s) on the clock; past it the state is `error`.
/// - ``tap()`` calls back only in the map state (FR-004a–c); ``retry()`` works in the error
///   state (FR-010); ``goToSettings()`` in the permission state.
/// - Returning to the foreground re-checks permission (the handler's observation); a state
///   that is still valid is kept as it was.
///
/// Every change of state is passed to `onStateChange` in order, from the actor.
public actor MapPreviewModel<C: Clock> where C.Duration == Duration {
  public nonisolated let handler: LocationPermissionHandler
  public nonisolated let repository: (any AnnouncementRepository)?
  public nonisolated let snapshotter: (any MapSnapshotting)?
  public nonisolated let clock: C
  public nonisolated let loadTimeout: Duration
  public nonisolated let radiusMeters: Double
  public nonisolated let strings: MapStrings

  public private(set) var state: MapPreviewState = .loading
  /// The location captured by the last successful load.
  public private(set) var userLocation: Coordinate?
  /// The snapshot of the last successful load (with a snapshotter).
  public private(set) var snapshot: MapSnapshot?
  /// Why the last load failed (nil after a success).
  public private(set) var lastError: MapPreviewError?
  /// How many loads were started (tests check that a round trip does not reload).
  public private(set) var loadCount = 0
  /// How many taps reached the callback.
  public private(set) var tapCount = 0

  private let onStateChange: @Sendable (MapPreviewState) -> Void
  private let onTap: @Sendable () -> Void
  private let onGoToSettings: @Sendable () -> Void
  private let log: @Sendable (String) -> Void
  private var loadTask: Task<Void, Never>?
  private var observer: Task<Void, Never>?
  private var generation = 0
  private var started = false

  /// - Parameters:
  ///   - handler: the permission handler the preview reads and observes.
  ///   - repository: where pins come from; nil: a map without pins.
  ///   - snapshotter: renders the preview image; nil: no image is made.
  ///   - clock: the clock of the load timeout.
  ///   - onTap: called when the loaded map is tapped (the landing page's callback).
  ///   - log: debugging output (the tap is logged, FR-004b; so are backend errors).
  public init(
    handler: LocationPermissionHandler, repository: (any AnnouncementRepository)? = nil,
    snapshotter: (any MapSnapshotting)? = nil, clock: C, loadTimeout: Duration = .seconds(10),
    radiusMeters: Double = 10_000, strings: MapStrings = MapStrings(),
    onStateChange: @escaping @Sendable (MapPreviewState) -> Void = { _ in },
    onTap: @escaping @Sendable () -> Void = {}, onGoToSettings: @escaping @Sendable () -> Void = {},
    log: @escaping @Sendable (String) -> Void = { print($0) }
  ) {
    self.handler = handler
    self.repository = repository
    self.snapshotter = snapshotter
    self.clock = clock
    self.loadTimeout = loadTimeout
    self.radiusMeters = radiusMeters
    self.strings = strings
    self.onStateChange = onStateChange
    self.onTap = onTap
    self.onGoToSettings = onGoToSettings
    self.log = log
  }

  /// Starts: reads the permission now (loading when authorized), then observes its changes.
  /// Calling it again does nothing.
  public func start() async {
    guard !started else { return }
    started = true
    let (changes, sink) = AsyncStream.makeStream(of: PermissionChange.self)
    await handler.startObservingLocationPermissionChanges { change in sink.yield(change) }
    observer = Task { [weak self] in
      for await change in changes {
        await self?.permissionChanged(authorized: change.isAuthorized)
      }
    }
    let service = handler.service
    let status = await service.authorizationStatus
    let authorized = status.isAuthorized ? await service.locationServicesEnabled : false
    if authorized { beginLoad() } else { set(.permissionRequired(message: strings.permissionRequiredMessage)) }
  }

  /// Stops observing and cancels a load in progress.
  public func stop() async {
    observer?.cancel()
    observer = nil
    generation += 1
    loadTask?.cancel()
    loadTask = nil
    await handler.stopObservingLocationPermissionChanges()
  }

  /// The user taps the preview: calls back (and logs) only in the map state.
  /// - Returns: whether the tap reached the callback.
  @discardableResult
  public func tap() -> Bool {
    guard case .map = state else { return false }
    tapCount += 1
    log("map preview tapped")
    onTap()
    return true
  }

  /// The user taps Retry: loads again, only in the error state.
  /// - Returns: whether a load started.
  @discardableResult
  public func retry() -> Bool {
    guard case .error = state else { return false }
    beginLoad()
    return true
  }

  /// The user taps "Go to Settings": calls back, only in the permission state.
  @discardableResult
  public func goToSettings() -> Bool {
    guard case .permissionRequired = state else { return false }
    onGoToSettings()
    return true
  }

  /// Waits for the load in progress, if any (for tests and the CLI).
  public func waitForLoad() async {
    await loadTask?.value
  }

  private func permissionChanged(authorized: Bool) {
    if authorized {
      // Granted later (FR-007, US2-2): load. A map or a load in progress stays as it is.
      if case .permissionRequired = state { beginLoad() }
    } else {
      generation += 1
      loadTask?.cancel()
      loadTask = nil
      set(.permissionRequired(message: strings.permissionRequiredMessage))
    }
  }

  private func set(_ new: MapPreviewState) {
    guard new != state else { return }
    state = new
    onStateChange(new)
  }

  private func beginLoad() {
    generation += 1
    let token = generation
    loadCount += 1
    loadTask?.cancel()
    // `set` skips an unchanged state, so force the loading line on a retry from error.
    state = .loading
    onStateChange(.loading)
    let deadline = clock.now.advanced(by: loadTimeout)
    let work = LoadWork(
      service: handler.service, repository: repository, snapshotter: snapshotter, radiusMeters: radiusMeters,
      strings: strings, log: log)
    let clock = self.clock
    loadTask = Task {
      let outcome = await withTaskGroup(of: LoadOutcome?.self) { group -> LoadOutcome in
        group.addTask { await work.run() }
        group.addTask {
          do {
            try await clock.sleep(until: deadline, tolerance: nil)
          } catch {
            return nil
          }
          return .failure(.timedOut)
        }
        var first: LoadOutcome = .failure(.timedOut)
        for await result in group {
          if let result {
            first = result
            break
          }
        }
        group.cancelAll()
        return first
      }
      guard !Task.isCancelled else { return }
      self.finish(outcome, token: token)
    }
  }

  private func finish(_ outcome: LoadOutcome, token: Int) {
    guard token == generation else { return }
    switch outcome {
    case .success(let loaded):
      userLocation = loaded.location
      snapshot = loaded.snapshot
      lastError = nil
      set(.map(region: loaded.region, pins: loaded.pins))
    case .failure(let error):
      lastError = error
      log("map preview failed: \(error)")
      set(.error(message: strings.loadErrorMessage))
    }
  }
}

private struct Loaded: Sendable {
  var location: Coordinate
  var region: MapRegion
  var pins: [PinModel]
  var snapshot: MapSnapshot?
}

private typealias LoadOutcome = Result<Loaded, MapPreviewError>

/// One load of the preview, independent of the actor so it can be raced against the timeout.
private struct LoadWork: Sendable {
  let service: any LocationServiceProtocol
  let repository: (any AnnouncementRepository)?
  let snapshotter: (any MapSnapshotting)?
  let radiusMeters: Double
  let strings: MapStrings
  let log: @Sendable (String) -> Void

  func run() async -> LoadOutcome? {
    // requestLocation never prompts (FR-013); nil when not authorized or nothing arrives in time.
    guard let location = await service.requestLocation() else {
      return Task.isCancelled ? nil : .failure(.locationUnavailable)
    }
    let region = location.mapRegion(radiusMeters: radiusMeters).fitted(aspectRatio: 16.0 / 9.0)
    var pins: [PinModel] = []
    if let repository {
      do {
        pins = try await repository.announcements(for: .landingPageQuery(location: location)).compactMap(PinModel.init)
      } catch {
        // A backend error gives the map without pins, not an error (FR-006 of the pins spec).
        log("announcements unavailable: \(error)")
      }
    }
    var snapshot: MapSnapshot?
    if let snapshotter {
      do {
        snapshot = try await snapshotter.snapshot(
          MapSnapshotRequest(region: region, pins: pins, userLocation: location, legend: LegendItem.legend(strings)))
      } catch {
        return Task.isCancelled ? nil : .failure(.snapshotFailed(String(describing: error)))
      }
    }
    if Task.isCancelled { return nil }
    return .success(Loaded(location: location, region: region, pins: pins, snapshot: snapshot))
  }
}
