import Geo
public import LocationModel

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

  public init(action: Action, trigger: String, stack: [Screen]) {
    self.action = action
    self.trigger = trigger
    self.stack = stack
  }
}

/// The landing page's sections, top to bottom: the map preview sits between the Description
/// and the Recently Lost Pets panels (the landing-page spec's FR-001).
public enum LandingPageSection: String, Sendable, Hashable, CaseIterable {
  case description, mapPreview, recentlyLostPets
}

/// The navigation stack of landing page and fullscreen map (the navigation spec, FR-001…FR-007),
/// as a value: each event changes the stack and returns the actions its runtime performs.
///
/// - ``push()`` (the preview's tap) pushes the fullscreen map and starts the push transition;
///   until ``transitionEnded(_:)``, and while the map is on top, further pushes do nothing, so
///   however fast the taps come the map is pushed exactly once (FR-007).
/// - ``pop(trigger:)`` (the back button, FR-004; the edge swipe, FR-005) pops it; nothing
///   happens while a transition runs or when the landing page is on top.
public struct NavigationStateMachine: Sendable, Hashable {
  public enum Action: Sendable, Hashable {
    /// The stack changed: tell the app.
    case changed(NavigationChange)
    /// Build the fullscreen map for push `id` (shown when its transition ends).
    case buildFullscreenMap(push: UInt64)
    /// Arm the transition's timer: call ``transitionEnded(_:)`` with `push` after this long.
    case armTransition(push: UInt64, after: Duration)
    /// The fullscreen map of push `id` is on screen.
    case showFullscreenMap(push: UInt64)
    /// The fullscreen map went away.
    case dropFullscreenMap
  }

  public private(set) var stack: [Screen] = [.landing]
  public private(set) var isTransitioning = false
  /// How many times the fullscreen map was pushed.
  public private(set) var pushCount = 0
  public let transitionDuration: Duration
  private var currentPush: UInt64?

  public init(transitionDuration: Duration = .milliseconds(350)) { self.transitionDuration = transitionDuration }

  public var topScreen: Screen { stack.last ?? .landing }

  /// The preview was tapped: push the fullscreen map, unless it is on top or a transition runs.
  public mutating func push() -> (accepted: Bool, actions: [Action]) {
    guard !isTransitioning, stack.last == .landing else { return (false, []) }
    isTransitioning = true
    pushCount += 1
    let id = UInt64(pushCount)
    currentPush = id
    stack.append(.fullscreenMap)
    return (
      true,
      [
        .changed(NavigationChange(action: .push, trigger: "tap", stack: stack)), .buildFullscreenMap(push: id),
        .armTransition(push: id, after: transitionDuration),
      ]
    )
  }

  /// Push `id`'s transition ended.
  public mutating func transitionEnded(_ id: UInt64) -> [Action] {
    guard id == currentPush, isTransitioning else { return [] }
    isTransitioning = false
    return [.showFullscreenMap(push: id)]
  }

  /// Back (`back`) or the edge swipe (`swipeBack`).
  public mutating func pop(trigger: String) -> (accepted: Bool, actions: [Action]) {
    guard !isTransitioning, stack.count > 1 else { return (false, []) }
    stack.removeLast()
    currentPush = nil
    return (true, [.changed(NavigationChange(action: .pop, trigger: trigger, stack: stack)), .dropFullscreenMap])
  }
}

/// The landing page: its map preview and its scroll position, which outlive a trip to the
/// fullscreen map and back (the navigation spec's FR-006: no reload, same offset).
public final class LandingPageViewModel: Sendable {
  public let preview: MapPreviewModel
  private let offset = Locked(0.0)

  public init(preview: MapPreviewModel) { self.preview = preview }

  /// The vertical scroll offset of the page, points.
  public var scrollOffset: Double { offset.withLock { $0 } }
  public func scroll(to offset: Double) { self.offset.withLock { $0 = max(0, offset) } }
}

/// The navigation stack: the runtime of a ``NavigationStateMachine``, with the push transition
/// as a timer of the app's scheduler (an emulated phone's clock in a test).
///
/// - ``showFullscreenMap()`` (the preview's tap callback) pushes the fullscreen map, exactly
///   once however many taps arrive during the push (``transitionDuration``, 350 ms).
/// - ``back()`` and ``swipeBack()`` pop it.
/// - The landing page's view model is kept, never rebuilt (FR-006).
///
/// Calls are synchronous and thread-safe; every change goes to `onChange` in order.
public final class NavigationCoordinator: Sendable {
  public let landing: LandingPageViewModel
  /// Where the push transition's timer runs.
  public let scheduler: any AppScheduler
  private let makeFullscreenMap: @Sendable () -> FullscreenMapViewModel
  private let onChange: @Sendable (NavigationChange) -> Void
  private let core: Locked<NavigationCore>

  private struct NavigationCore {
    var machine: NavigationStateMachine
    var building: (push: UInt64, model: FullscreenMapViewModel)?
    var shown: FullscreenMapViewModel?
  }

  /// - Parameters:
  ///   - landing: the landing page's view model, kept across pushes and pops.
  ///   - scheduler: where the push transition's timer runs (an emulated phone's clock in a test).
  ///   - transitionDuration: how long a push animates.
  ///   - makeFullscreenMap: builds the fullscreen map's view model on each push (from the
  ///     location the landing page captured).
  ///   - onChange: told of every push and pop.
  public init(
    landing: LandingPageViewModel, scheduler: any AppScheduler, transitionDuration: Duration = .milliseconds(350),
    makeFullscreenMap: @escaping @Sendable () -> FullscreenMapViewModel,
    onChange: @escaping @Sendable (NavigationChange) -> Void = { _ in }
  ) {
    self.landing = landing
    self.scheduler = scheduler
    self.makeFullscreenMap = makeFullscreenMap
    self.onChange = onChange
    core = Locked(NavigationCore(machine: NavigationStateMachine(transitionDuration: transitionDuration)))
  }

  public var transitionDuration: Duration { core.withLock { $0.machine.transitionDuration } }
  /// The screens, bottom first.
  public var stack: [Screen] { core.withLock { $0.machine.stack } }
  public var topScreen: Screen { core.withLock { $0.machine.topScreen } }
  /// Whether a push is still animating.
  public var isTransitioning: Bool { core.withLock { $0.machine.isTransitioning } }
  /// How many times the fullscreen map was pushed.
  public var pushCount: Int { core.withLock { $0.machine.pushCount } }
  /// The fullscreen map's view model while it is on the stack (after its push has completed).
  public var fullscreenMap: FullscreenMapViewModel? { core.withLock { $0.shown } }

  /// Pushes the fullscreen map, unless it is already on top or a transition runs.
  /// - Returns: whether it pushed.
  @discardableResult
  public func showFullscreenMap() -> Bool { handle { $0.push() } }

  /// The navigation bar's back button.
  @discardableResult
  public func back() -> Bool { handle { $0.pop(trigger: "back") } }

  /// The edge swipe.
  @discardableResult
  public func swipeBack() -> Bool { handle { $0.pop(trigger: "swipeBack") } }

  private func handle(_ event: (inout NavigationStateMachine) -> (accepted: Bool, actions: [NavigationStateMachine.Action])) -> Bool {
    let (accepted, actions) = core.withLock { event(&$0.machine) }
    perform(actions)
    return accepted
  }

  private func perform(_ actions: [NavigationStateMachine.Action]) {
    for action in actions {
      switch action {
      case .changed(let change): onChange(change)
      case .buildFullscreenMap(let id):
        let model = makeFullscreenMap()
        core.withLock { $0.building = (id, model) }
      case .armTransition(let id, let delay):
        _ = scheduler.run(after: delay) { [weak self] in
          guard let self else { return }
          perform(core.withLock { $0.machine.transitionEnded(id) })
        }
      case .showFullscreenMap(let id):
        core.withLock { s in
          if let building = s.building, building.push == id { s.shown = building.model }
          s.building = nil
        }
      case .dropFullscreenMap:
        core.withLock { s in
          s.shown = nil
          s.building = nil
        }
      }
    }
  }
}
