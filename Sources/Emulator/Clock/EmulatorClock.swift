import DequeModule
import Geo
import LocationModel

/// The time of one emulated phone, or of a whole fleet of them: a `Clock` that owns its
/// timers as deadlines in one ordered queue and fires them itself.
///
/// ## Virtual time
///
/// On a virtual clock (the default) time moves only when told:
///
/// - ``advance(by:)`` and ``advance(to:)`` fire every timer due up to the new time, in
///   order of deadline, ties broken by the order the timers were set, and return only when
///   everything that follows from them has happened;
/// - ``runUntilIdle()`` does the same without moving time: what is due now, and what that
///   sets off;
/// - ``advance(until:limit:)`` moves time exactly as far as a task needs to finish.
///
/// Work reaches the clock three ways, all run by one loop in one order:
///
/// 1. **Timers** (``schedule(at:_:)``): a deadline and a synchronous action. Components
///    (the permission prompt, request timeouts, replay pacing, the map preview's load
///    timeout, the navigation's transition) keep their timers here rather than in tasks
///    that sleep, so a timer can never miss an advance that came before it started.
/// 2. **Effects** (`enqueue(_:)`): synchronous work that must happen after the current
///    step, in the order it was queued (callbacks, stream deliveries).
/// 3. **Tasks** (``spawn(_:_:)``): asynchronous code, such as an app's flow that awaits a
///    prompt and then a location. The clock runs one such task at a time: when it wakes a
///    task, it waits until that task suspends again on the clock (``sleep(until:tolerance:)``,
///    a phone's prompt or location request, a phone stream) or finishes, before it does
///    anything else. So the order of everything, tasks included, is the same on every run.
///
/// A task the clock did not start (a plain `Task { }`, the test itself) is not waited for:
/// the clock cannot know when it will call. Start the app's flows with ``spawn(_:_:)`` (or
/// the phone's `start(_:_:)`), or observe the phone through its synchronous callbacks.
///
/// Every wait on a virtual clock is bounded: an advance whose tasks do not suspend within
/// ``stallTimeout`` of real time fails with ``EmulatorClockError/Code/stalled``, naming them.
///
/// ## Real time
///
/// ``realTime()`` makes a clock whose time is `ContinuousClock`'s since the clock was
/// made. Its timers fire while ``run()`` runs (a phone's `run()` runs it), tasks run freely,
/// and ``advance(by:)`` simply sleeps.
///
/// ```swift
/// let clock = EmulatorClock()
/// let fired = Recorder<Duration>()
/// clock.schedule(at: clock.now.advanced(by: .seconds(2))) { fired.append(clock.now.offset) }
/// try await clock.advance(by: .seconds(5))
/// #expect(fired.all == [.seconds(2)])
/// #expect(clock.now.offset == .seconds(5))
/// ```
public final class EmulatorClock: Clock, Sendable {
  /// A point on the clock: the time since the clock's zero.
  public struct Instant: InstantProtocol, Hashable, Sendable, CustomStringConvertible {
    /// Time since the clock's zero.
    public var offset: Duration

    /// The instant `offset` after the clock's zero.
    /// - Parameter offset: the time since the clock's zero.
    public init(offset: Duration) { self.offset = offset }

    /// The instant `duration` later (earlier, when negative).
    /// - Parameter duration: how far to move.
    /// - Returns: the moved instant.
    public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
    /// The time from this instant to another.
    /// - Parameter other: the instant to measure to.
    /// - Returns: `other`'s offset minus this one's (negative when `other` is earlier).
    public func duration(to other: Instant) -> Duration { other.offset - offset }
    /// Whether one instant comes before another.
    /// - Parameters:
    ///   - a: the first instant.
    ///   - b: the second instant.
    /// - Returns: true when `a`'s offset is less than `b`'s.
    public static func < (a: Instant, b: Instant) -> Bool { a.offset < b.offset }
    /// The offset in seconds, as "t=2.5s".
    public var description: String { "t=\(offset.seconds)s" }
  }

  /// Whether time is virtual (moved by the clock's owner) or real.
  public enum Mode: Sendable, Hashable {
    /// Time moves only when the clock's owner advances it.
    case virtual
    /// Time is `ContinuousClock`'s time since the clock was made.
    case realTime
  }

  /// Whether this clock's time is virtual or real.
  public let mode: Mode
  /// On a virtual clock: how long (real time) an advance waits for running tasks to suspend.
  public let stallTimeout: Duration
  /// On a virtual clock: whether time moves only when the process's Swift tasks are idle
  /// (see ``init(mode:stallTimeout:settlesUnstructuredTasks:)``).
  public let settlesUnstructuredTasks: Bool
  /// Why this clock, asked to settle unstructured tasks, cannot on this Swift runtime (the
  /// hooks' self-test failed), or nil. Every advance then throws
  /// ``EmulatorClockError/Code/cannotSettle`` with it.
  let settlingFailure: String?
  let origin: ContinuousClock.Instant
  let storage: Locked<ClockStorage>

  /// A clock.
  /// - Parameters:
  ///   - mode: virtual (the default) or real time.
  ///   - stallTimeout: how long an advance on a virtual clock waits, in real time, for the
  ///     tasks it woke to suspend again before it fails.
  ///   - settlesUnstructuredTasks: on a virtual clock, move time only when every Swift job of
  ///     the process (on the global executor and the main actor) has run, so that work the clock
  ///     does not track — a `Task {}`, a continuation resumed from a callback, a hop through an
  ///     actor, as apps' code and iOS code does them — is done before time moves and before an
  ///     advance returns. True by default; false for a clock that must not wait for the rest of
  ///     the process (a job that blocks its thread for long delays every such clock).
  public convenience init(mode: Mode = .virtual, stallTimeout: Duration = .seconds(30), settlesUnstructuredTasks: Bool = true) {
    let wanted = mode == .virtual && settlesUnstructuredTasks
    self.init(mode: mode, stallTimeout: stallTimeout, settlingFailure: wanted ? TaskQuiescence.installation : nil, settles: wanted)
  }

  /// A clock whose hooks' self-test gave `settlingFailure` (a test's stand-in for a runtime
  /// that does not call the hooks).
  package init(mode: Mode, stallTimeout: Duration, settlingFailure: String?, settles: Bool) {
    self.mode = mode
    self.stallTimeout = stallTimeout
    self.settlingFailure = settlingFailure
    self.settlesUnstructuredTasks = settles && settlingFailure == nil
    origin = .now
    storage = Locked(ClockStorage())
  }

  /// A clock on real time: `ContinuousClock`'s time since now.
  public static func realTime() -> EmulatorClock { EmulatorClock(mode: .realTime) }

  /// Whether this clock's time is virtual (moved only by its owner).
  public var isVirtual: Bool { mode == .virtual }
  /// The clock's time now: on a virtual clock, as far as it has been moved; on a real-time one, the
  /// time since the clock was made.
  public var now: Instant { Instant(offset: nowOffset) }
  /// The smallest step the clock tells apart: zero, as deadlines are kept to the nanosecond.
  public var minimumResolution: Duration { .zero }

  var nowOffset: Duration {
    switch mode {
    case .virtual: storage.withLock { $0.now }
    case .realTime: origin.duration(to: .now)
    }
  }

  /// Timers set and not yet fired or cancelled.
  public var pendingTimerCount: Int { storage.withLock { $0.timers.count } }
  /// Tasks started with ``spawn(_:_:)`` that have not finished.
  public var activeTaskCount: Int { storage.withLock { $0.tasks.count } }
  /// Names of the tasks started with ``spawn(_:_:)`` that have not finished.
  public var activeTaskNames: [String] { storage.withLock { $0.tasks.values.map(\.name).sorted() } }
  /// Timers fired, effects run and tasks woken so far (for benchmarks).
  public var stepsRun: UInt64 { storage.withLock { $0.steps } }
  /// Whether no thread runs the clock's loop now and nothing is queued for it.
  var loopIsAtRest: Bool { storage.withLock { !$0.owned && $0.queue.isEmpty } }
  /// When the next timer is due, if any.
  public var nextDeadline: Instant? { storage.withLock { $0.nextLiveDeadline() }.map(Instant.init) }

  // MARK: Timers

  /// A timer set with ``schedule(at:_:)``, to cancel it.
  public struct Timer: Hashable, Sendable {
    let sequence: UInt64
    let deadline: Int64
  }

  /// Runs `action` when the clock reaches `deadline` (on the next step, if it has already).
  ///
  /// Timers with the same deadline fire in the order they were set. The action runs on the
  /// clock's loop, synchronously, after whatever was queued before it; it must not block.
  /// On a real-time clock, timers fire while ``run()`` runs.
  @discardableResult
  public func schedule(at deadline: Instant, _ action: @escaping @Sendable () -> Void) -> Timer {
    schedule(at: deadline, .closure(action))
  }

  /// Calls `target` with `tag` at `deadline`: a timer that holds its target (strongly) instead
  /// of a closure (see ``ClockTimerTarget``).
  @discardableResult
  func schedule(at deadline: Instant, target: any ClockTimerTarget, tag: UInt64) -> Timer {
    schedule(at: deadline, .target(target, tag: tag))
  }

  private func schedule(at deadline: Instant, _ action: consuming TimerAction) -> Timer {
    let nanoseconds = deadline.offset.clampedNanoseconds
    // Moved, not copied, into the queue: a copy is a retain and a release of the closure or
    // target for every timer.
    var moving = Optional(action)
    let (timer, wake) = storage.withLock { s in
      let sequence = s.addTimer(atNanoseconds: nanoseconds, moving.take()!)
      return (
        Timer(sequence: sequence, deadline: nanoseconds),
        mode == .realTime ? s.takeDriverWakeup(ifLaterThan: deadline.offset) : nil
      )
    }
    wake?.resume()
    return timer
  }

  /// Runs `action` after `delay` from now.
  @discardableResult
  public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> Timer {
    schedule(at: now.advanced(by: delay), action)
  }

  /// Cancels a timer that has not fired (no effect once it has).
  public func cancel(_ timer: Timer) {
    storage.withLock { $0.cancelTimer(timer.sequence, deadline: timer.deadline) }
  }

  // MARK: Effects

  /// Queues `effect` to run on the clock's loop after everything queued before it, and runs
  /// the loop if nothing else does. Effects queued while an effect runs run after it.
  package func enqueue(_ effect: @escaping @Sendable () -> Void) {
    storage.withLock { $0.queue.append(.call(effect)) }
    drive()
  }

  /// Queues an effect without running the loop: for code that holds a lock of its own and
  /// calls ``drive()`` after releasing it, so that effects keep the order of its changes.
  package func enqueueWithoutDriving(_ effect: @escaping @Sendable () -> Void) {
    storage.withLock { $0.queue.append(.call(effect)) }
  }

  /// Whether an effect that a timer's action would queue now would be the loop's next step:
  /// the action runs on this clock's loop, nothing is queued, and no task the loop woke is
  /// still running (the loop would wait for it first). When true, the effect is counted as a
  /// step, and the action runs it itself as its last work instead of queueing it.
  package func claimNextStep() -> Bool {
    guard LoopThread.isRunning(self) else { return false }
    return storage.withLock { s in
      guard s.queue.isEmpty, mode != .virtual || s.running == 0 else { return false }
      s.steps &+= 1
      return true
    }
  }

  /// Runs the loop if nothing else runs it: queued effects and wake-ups; on a virtual clock,
  /// timers only up to the target of an advance in progress (``advance(to:)``,
  /// ``runUntilIdle()``); on a real-time clock, the timers that are due.
  package func drive() {
    let owner = storage.withLock { s -> Bool in
      guard !s.owned else { return false }
      s.owned = true
      return true
    }
    if owner { runLoop() }
  }

  /// Runs the loop once no Swift job of the process is left (at once when none is now), unless
  /// such a run is already waiting.
  private func driveWhenQuiet() {
    let register = storage.withLock { s -> Bool in
      guard !s.quietWakePending else { return false }
      s.quietWakePending = true
      return true
    }
    guard register else { return }
    let registered = TaskQuiescence.whenQuiet { [weak self] in
      self?.storage.withLock { $0.quietWakePending = false }
      self?.drive()
    }
    if !registered {
      storage.withLock { $0.quietWakePending = false }
      drive()
    }
  }

  /// The loop: one step at a time until there is nothing to do, or a task it woke runs.
  private func runLoop() {
    let outer = LoopThread.enter(self)
    defer { LoopThread.leave(outer) }
    while true {
      var finished: [ClockGoal] = []
      // Untracked work (see settlesUnstructuredTasks) holds time where it is.
      let idle = settlesUnstructuredTasks && TaskQuiescence.isIdle
      let quiet = !settlesUnstructuredTasks || idle
      var waitForQuiet = false
      let step: ClockStep = storage.withLock { s in
        // A task the clock woke runs until it suspends on the clock again. When no Swift job of
        // the process is left while it counts as running, it has suspended on something else:
        // a continuation that a delegate callback resumes, as every async wrapper over
        // CLLocationManager keeps one. Time goes on then (the callback comes from the clock), as
        // it does for untracked work; the task counts as running until it suspends on the clock.
        if mode == .virtual && s.running > 0 && !idle {
          waitForQuiet = settlesUnstructuredTasks && !s.goals.isEmpty
          s.owned = false
          return .stop
        }
        if let item = s.queue.popFirst() {
          s.steps &+= 1
          if case .wake = item, mode == .virtual { s.running += 1 }
          return .item(item)
        }
        switch mode {
        case .realTime:
          if let timer = s.popTimer(dueBy: origin.duration(to: .now)) {
            s.steps &+= 1
            return .timer(timer.action)
          }
          s.owned = false
          return .stop
        case .virtual:
          // A finished task ends its advance before any later timer fires.
          if s.untilTaskFinished && quiet {
            s.untilTaskFinished = false
            finished = s.settleGoals()
            if !finished.isEmpty { return .goals }
          }
          // Timers (even those due now) wait for untracked work, so that it always comes first.
          if quiet, let limit = s.goalLimit(), let timer = s.popTimer(dueBy: limit) {
            s.steps &+= 1
            if timer.deadline > s.now { s.now = timer.deadline }
            return .timer(timer.action)
          }
          // Untracked work pending: time moves, and advances end, once it is done.
          guard quiet else {
            waitForQuiet = !s.goals.isEmpty
            s.owned = false
            return .stop
          }
          // Nothing due by the nearest target: settle the advances, or move time to that target.
          finished = s.settleGoals()
          if !finished.isEmpty { return .goals }
          if s.moveToNextGoalTarget() {
            finished = s.settleGoals()
            return .goals
          }
          s.owned = false
          return .stop
        }
      }
      switch step {
      case .stop:
        // Runs the loop again once the untracked work is done (at once if it is done already);
        // one such wait at a time, however often the loop stops before it comes.
        if waitForQuiet { driveWhenQuiet() }
        return
      case .item(.call(let effect)): effect()
      case .item(.wake(let wake)):
        if !wake() { storage.withLock { $0.running -= 1 } }
      case .timer(let action): action.run()
      case .goals: for goal in finished { goal.finish() }
      }
    }
  }
}
