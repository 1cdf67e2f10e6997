import Geo

/// The screens of the app's navigation stack.
public enum Screen: String, Sendable, Hashable, CaseIterable {
  case landing
  case fullscreenMap
}

/// A change of the navigation stack.
public struct NavigationChange: Sendable, Hashable {
  public enum Action: String, Sendable, Hashable {
    case push, pop
  }

  public var action: Action
  /// What the user came by: `tap`, `back` (the navigation bar's back button) or `swipeBack` (the edge swipe).
  public var trigger: String
  /// The screens after the change, bottom first.
  public var stack: [Screen]
  /// The screen on top.
  public var screen: Screen { stack.last ?? .landing }
}

/// The landing page's sections, top to bottom: the map preview sits between the Description
/// and the Recently Lost Pets panels (the landing-page spec's FR-001).
public enum LandingPageSection: String, Sendable, Hashable, CaseIterable {
  case description, mapPreview, recentlyLostPets
}

/// The landing page: its map preview and its scroll position, which outlive a trip to the
/// fullscreen map and back (the navigation spec's FR-006: no reload, same offset).
public final class LandingPageViewModel<C: Clock>: Sendable where C.Duration == Duration {
  public let preview: MapPreviewModel<C>
  private let offset = Locked(0.0)

  public init(preview: MapPreviewModel<C>) { self.preview = preview }

  /// The vertical scroll offset of the page, points.
  public var scrollOffset: Double { offset.withLock { $0 } }
  public func scroll(to offset: Double) { self.offset.withLock { $0 = max(0, offset) } }
}

/// The navigation stack of landing page and fullscreen map (the navigation spec, FR-001…FR-007).
///
/// - ``showFullscreenMap()`` (the preview's tap callback) pushes the fullscreen map. The push
///   takes ``transitionDuration`` on the clock; until it completes, and while the map is on
///   top, further taps do nothing, so however fast the taps come the map is pushed exactly
///   once (FR-007).
/// - ``back()`` (the back button, FR-004) and ``swipeBack()`` (the edge swipe, FR-005) pop it;
///   both do nothing while a transition runs or when the landing page is on top.
/// - The landing page's view model is kept, never rebuilt: its preview state and scroll
///   offset survive the round trip (FR-006).
///
/// Calls are synchronous and thread-safe; every change goes to `onChange` in order, under the
/// coordinator's lock (so `onChange` must not call back into the coordinator).
public final class NavigationCoordinator<C: Clock>: Sendable where C.Duration == Duration {
  public let landing: LandingPageViewModel<C>
  public let clock: C
  public let transitionDuration: Duration
  private let makeFullscreenMap: @Sendable () async -> FullscreenMapViewModel
  private let onChange: @Sendable (NavigationChange) -> Void
  private let state = Locked(State())

  private struct State {
    var stack: [Screen] = [.landing]
    var transitioning = false
    var pushes = 0
    var fullscreenMap: FullscreenMapViewModel?
    var generation = 0
  }

  /// - Parameters:
  ///   - makeFullscreenMap: builds the fullscreen map's view model on each push (from the
  ///     location the landing page captured).
  ///   - onChange: told of every push and pop.
  public init(
    landing: LandingPageViewModel<C>, clock: C, transitionDuration: Duration = .milliseconds(350),
    makeFullscreenMap: @escaping @Sendable () async -> FullscreenMapViewModel,
    onChange: @escaping @Sendable (NavigationChange) -> Void = { _ in }
  ) {
    self.landing = landing
    self.clock = clock
    self.transitionDuration = transitionDuration
    self.makeFullscreenMap = makeFullscreenMap
    self.onChange = onChange
  }

  /// The screens, bottom first.
  public var stack: [Screen] { state.withLock { $0.stack } }
  public var topScreen: Screen { stack.last ?? .landing }
  /// Whether a push or pop is still animating.
  public var isTransitioning: Bool { state.withLock { $0.transitioning } }
  /// How many times the fullscreen map was pushed.
  public var pushCount: Int { state.withLock { $0.pushes } }
  /// The fullscreen map's view model while it is on the stack (after its push has completed).
  public var fullscreenMap: FullscreenMapViewModel? { state.withLock { $0.fullscreenMap } }

  /// Pushes the fullscreen map, unless it is already on top or a transition runs.
  /// - Returns: whether it pushed.
  @discardableResult
  public func showFullscreenMap() -> Bool {
    let deadline = clock.now.advanced(by: transitionDuration)
    let pushed: Int? = state.withLock { s in
      guard !s.transitioning, s.stack.last == .landing else { return nil }
      s.transitioning = true
      s.pushes += 1
      s.generation += 1
      s.stack.append(.fullscreenMap)
      onChange(NavigationChange(action: .push, trigger: "tap", stack: s.stack))
      return s.generation
    }
    guard let generation = pushed else { return false }
    Task { [clock, makeFullscreenMap, state] in
      let model = await makeFullscreenMap()
      try? await clock.sleep(until: deadline, tolerance: nil)
      state.withLock { s in
        guard s.generation == generation else { return }
        s.fullscreenMap = model
        s.transitioning = false
      }
    }
    return true
  }

  /// The navigation bar's back button.
  @discardableResult
  public func back() -> Bool { pop(trigger: "back") }

  /// The edge swipe.
  @discardableResult
  public func swipeBack() -> Bool { pop(trigger: "swipeBack") }

  private func pop(trigger: String) -> Bool {
    state.withLock { s in
      guard !s.transitioning, s.stack.count > 1 else { return false }
      s.stack.removeLast()
      s.fullscreenMap = nil
      s.generation += 1
      onChange(NavigationChange(action: .pop, trigger: trigger, stack: s.stack))
      return true
    }
  }
}
