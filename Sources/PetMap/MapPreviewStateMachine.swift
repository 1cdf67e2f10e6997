package import MapRendering
package import Geo
package import LocationModel

/// What one load of the preview produced.
package struct LoadedMap: Sendable, Hashable {
  /// The user's location, captured once.
  package var location: Coordinate
  /// 10 km around it, framed 16:9.
  package var region: MapRegion
  package var pins: [PinModel]
  /// The rendered preview, with a snapshotter.
  package var snapshot: MapSnapshot?

  package init(location: Coordinate, region: MapRegion, pins: [PinModel], snapshot: MapSnapshot?) {
    self.location = location
    self.region = region
    self.pins = pins
    self.snapshot = snapshot
  }
}

/// The landing page's map preview (FR-001…FR-013 of the landing-page spec), as a value: each
/// event changes ``state`` and returns the actions its runtime performs, in order. No task, no
/// clock: a load and its timeout are actions, their outcomes events.
///
/// - Not authorized (or Location Services off): ``MapPreviewState/permissionRequired(message:)``;
///   the preview never asks for permission (FR-013). A later grant loads the map by itself (FR-007).
/// - A load (location, pins, snapshot) has a timeout; past it the state is `error` (FR-009).
///   A load's outcome that arrives after it was replaced, cancelled or timed out is ignored.
/// - ``tap()`` calls back only in the map state (FR-004a–c); ``retry()`` loads again only in
///   the error state (FR-010); ``goToSettings()`` works only in the permission state.
package struct MapPreviewStateMachine: Sendable, Hashable {
  /// What the runtime does, in the order given.
  package enum Action: Sendable, Hashable {
    /// The state changed to this: tell the view.
    case publish(MapPreviewState)
    /// Start load `id` (location, pins, snapshot) and report its outcome with ``loadFinished(_:_:)``.
    case startLoad(id: UInt64)
    /// Give up load `id` (cancel its work).
    case cancelLoad(id: UInt64)
    /// Arm load `id`'s timeout: call ``timeoutFired(_:)`` after this long.
    case armTimeout(id: UInt64, after: Duration)
    case cancelTimeout(id: UInt64)
    /// The landing page's tap callback (the fullscreen map).
    case callTap
    /// The Settings button's callback.
    case callGoToSettings
    /// Debugging output.
    case log(String)
  }

  package private(set) var state: MapPreviewState = .loading
  /// The last successful load.
  package private(set) var loaded: LoadedMap?
  /// Why the last load failed (nil after a success).
  package private(set) var lastError: MapPreviewError?
  /// Loads started (a round trip to the fullscreen map must not add one).
  package private(set) var loadCount = 0
  /// Taps that reached the callback.
  package private(set) var tapCount = 0
  package let loadTimeout: Duration
  package let strings: MapStrings
  private var currentLoad: UInt64?
  private var isStarted = false
  private var isStopped = false

  package init(loadTimeout: Duration = .seconds(10), strings: MapStrings = MapStrings()) {
    self.loadTimeout = loadTimeout
    self.strings = strings
  }

  /// The preview appears; `authorized`: the app may have locations now. Again: nothing.
  package mutating func start(authorized: Bool) -> [Action] {
    guard !isStarted, !isStopped else { return [] }
    isStarted = true
    return authorized ? beginLoad() : set(.permissionRequired(message: strings.permissionRequiredMessage))
  }

  /// The permission handler reported a change.
  package mutating func permissionChanged(authorized: Bool) -> [Action] {
    guard isStarted, !isStopped else { return [] }
    if authorized {
      // Granted later: load. A map, or a load in progress, stays as it is.
      if case .permissionRequired = state { return beginLoad() }
      return []
    }
    return endLoad() + set(.permissionRequired(message: strings.permissionRequiredMessage))
  }

  /// Load `id` ended: with the map, or a failure; nil when it was cancelled.
  package mutating func loadFinished(_ id: UInt64, _ outcome: Result<LoadedMap, MapPreviewError>?) -> [Action] {
    guard id == currentLoad, let outcome else { return [] }
    currentLoad = nil
    var actions: [Action] = [.cancelTimeout(id: id)]
    switch outcome {
    case .success(let map):
      loaded = map
      lastError = nil
      actions += set(.map(region: map.region, pins: map.pins))
    case .failure(let error):
      actions += fail(error)
    }
    return actions
  }

  /// Load `id`'s timeout fired.
  package mutating func timeoutFired(_ id: UInt64) -> [Action] {
    guard id == currentLoad else { return [] }
    currentLoad = nil
    return [.cancelLoad(id: id)] + fail(.timedOut)
  }

  /// The user taps the preview: returns whether the tap reached the callback (map state only).
  package mutating func tap() -> (accepted: Bool, actions: [Action]) {
    guard case .map = state, !isStopped else { return (false, []) }
    tapCount += 1
    return (true, [.log("map preview tapped"), .callTap])
  }

  /// The user taps Retry: returns whether a load started (error state only).
  package mutating func retry() -> (accepted: Bool, actions: [Action]) {
    guard case .error = state, !isStopped else { return (false, []) }
    return (true, beginLoad())
  }

  /// The user taps "Go to Settings" (permission state only).
  package mutating func goToSettings() -> (accepted: Bool, actions: [Action]) {
    guard case .permissionRequired = state, !isStopped else { return (false, []) }
    return (true, [.callGoToSettings])
  }

  /// The preview goes away: a load in progress is cancelled; later events do nothing.
  package mutating func stop() -> [Action] {
    guard !isStopped else { return [] }
    isStopped = true
    return endLoad()
  }

  private mutating func beginLoad() -> [Action] {
    let previous = endLoad()
    loadCount += 1
    let id = UInt64(loadCount)
    currentLoad = id
    // Published even when the state already reads loading (a retry from error, the first load).
    state = .loading
    return previous + [.publish(.loading), .armTimeout(id: id, after: loadTimeout), .startLoad(id: id)]
  }

  private mutating func endLoad() -> [Action] {
    guard let id = currentLoad else { return [] }
    currentLoad = nil
    return [.cancelTimeout(id: id), .cancelLoad(id: id)]
  }

  private mutating func fail(_ error: MapPreviewError) -> [Action] {
    lastError = error
    return [.log("map preview failed: \(error)")] + set(.error(message: strings.loadErrorMessage))
  }

  private mutating func set(_ new: MapPreviewState) -> [Action] {
    guard new != state else { return [] }
    state = new
    return [.publish(new)]
  }
}
