import DequeModule
import Geo
import LocationModel

/// A timer taken off the queue to fire.
struct DueTimer {
  var deadline: Duration
  var action: TimerAction
}

/// Something queued for the clock's loop.
enum ClockItem {
  /// A synchronous effect.
  case call(@Sendable () -> Void)
  /// Resumes a task the clock tracks; returns whether it did (a task already resumed, say
  /// by its cancellation, is not resumed twice). The loop counts the task as running first.
  case wake(@Sendable () -> Bool)
}

/// What the loop does next.
enum ClockStep {
  case stop
  case item(ClockItem)
  case timer(TimerAction)
  case goals
}

/// Wakes the real-time driver when a timer earlier than the one it sleeps for is set.
struct ClockDriverWakeup {
  var deadline: Duration?
  var continuation: CheckedContinuation<Void, Never>
  var sleeper: Task<Void, Never>?

  func resume() {
    sleeper?.cancel()
    continuation.resume()
  }
}

/// Everything of an ``EmulatorClock`` behind its lock.
struct ClockStorage {
  /// Virtual time since the clock's zero.
  var now: Duration = .zero
  var timers = TimerQueue()
  var queue = Deque<ClockItem>()
  /// Whether some thread runs the loop now.
  var owned = false
  /// Whether the loop waits for the process to go quiet (one such wait at a time).
  var quietWakePending = false
  /// Tracked tasks that are running (woken, not yet suspended on the clock again).
  var running = 0
  /// Tracked tasks not yet finished, by id.
  var tasks: [UInt64: ClockTaskRecord] = [:]
  var nextTaskID: UInt64 = 0
  /// Advances in progress (virtual clocks).
  var goals: [ClockGoal] = [] {
    didSet { cachedGoalLimit = Self.limit(of: goals) }
  }
  private var cachedGoalLimit: Duration?
  /// A task an advance waits for has finished (the loop settles that advance next).
  var untilTaskFinished = false
  var nextGoalID: UInt64 = 0
  var steps: UInt64 = 0
  /// The real-time driver, while it sleeps.
  var driverWakeup: ClockDriverWakeup?
  /// Whether a `run()` drives this real-time clock.
  var driverRunning = false
  /// Calls queued for the main actor (``EmulatorClock/runOnMainActor(_:)``), in order.
  var mainActorCalls: [@Sendable () -> Void] = []
  /// Whether a main-actor job that runs ``mainActorCalls`` is on its way.
  var mainActorJobScheduled = false

  mutating func addTimer(atNanoseconds deadline: Int64, _ action: consuming TimerAction) -> UInt64 {
    timers.insert(deadline: deadline, action: action)
  }

  mutating func cancelTimer(_ sequence: UInt64, deadline: Int64) {
    timers.cancel(sequence: sequence, deadline: deadline)
  }

  /// The earliest live timer due at or before `limit`, taken off the queue.
  mutating func popTimer(dueBy limit: Duration) -> DueTimer? {
    timers.pop(dueBy: limit.clampedNanoseconds).map { DueTimer(deadline: .nanoseconds($0.deadline), action: $0.action) }
  }

  mutating func nextLiveDeadline() -> Duration? { timers.next().map { .nanoseconds($0) } }

  /// How far the loop may fire timers: the nearest target of an advance in progress; nil (no
  /// timer) without one: timers fire only when the clock's owner moves time or runs it.
  func goalLimit() -> Duration? { cachedGoalLimit.map { Swift.max($0, now) } }

  private static func limit(of goals: [ClockGoal]) -> Duration? {
    var limit: Duration?
    for goal in goals where !goal.isSettled {
      limit = Swift.min(limit ?? goal.target, goal.target)
    }
    return limit
  }

  /// With nothing queued, nothing running and no timer due by the nearest target: moves
  /// time to that target. Returns whether it did.
  mutating func moveToNextGoalTarget() -> Bool {
    guard let target = goals.filter({ !$0.isSettled && $0.until == nil }).map(\.target).min(), target > now else {
      return false
    }
    now = target
    return true
  }

  /// Removes and returns the advances that are over (the loop is idle here: nothing queued,
  /// nothing running): reached, their task finished, or their task can no longer finish.
  mutating func settleGoals() -> [ClockGoal] {
    guard !goals.isEmpty else { return [] }
    var done: [ClockGoal] = []
    let next = nextLiveDeadline()
    let now = self.now
    goals.removeAll { goal in
      if let task = goal.until {
        if task.isFinished {
          goal.settle(.success(()))
        } else if next.map({ $0 > goal.target }) ?? true {
          // Nothing scheduled before the limit can wake the task.
          goal.settle(
            .failure(
              EmulatorClockError(
                .taskWaiting,
                "\(task.name) is still waiting at t=\(now.seconds)s and nothing is scheduled before the limit (t=\(goal.target.seconds)s)"))
          )
        } else {
          return false
        }
      } else if now >= goal.target && next.map({ $0 > goal.target }) ?? true {
        goal.settle(.success(()))
      } else {
        return false
      }
      done.append(goal)
      return true
    }
    return done
  }

  /// The sleeping real-time driver's wake-up, taken when a timer earlier than its deadline is set.
  mutating func takeDriverWakeup(ifLaterThan deadline: Duration) -> ClockDriverWakeup? {
    guard let wakeup = driverWakeup, wakeup.deadline.map({ deadline < $0 }) ?? true else { return nil }
    driverWakeup = nil
    return wakeup
  }
}

/// An advance in progress: a target time, or (with `until`) a task to finish by the target.
final class ClockGoal: @unchecked Sendable {
  let id: UInt64
  let target: Duration
  let until: ClockTaskRecord?
  // Set and read under the clock's lock only.
  private var continuation: CheckedContinuation<Void, any Error>?
  private var outcome: Result<Void, EmulatorClockError>?
  var watchdog: Task<Void, Never>?

  init(id: UInt64, target: Duration, until: ClockTaskRecord?) {
    self.id = id
    self.target = target
    self.until = until
  }

  var isSettled: Bool { outcome != nil }

  func attach(_ continuation: CheckedContinuation<Void, any Error>) { self.continuation = continuation }

  func settle(_ outcome: Result<Void, EmulatorClockError>) {
    if self.outcome == nil { self.outcome = outcome }
  }

  /// Resumes the waiting advance (outside the clock's lock).
  func finish() {
    watchdog?.cancel()
    guard let continuation else { return }
    self.continuation = nil
    switch outcome ?? .success(()) {
    case .success: continuation.resume()
    case .failure(let error): continuation.resume(throwing: error)
    }
  }
}

extension Duration {
  /// Whole nanoseconds, clamped to `Int64` (about ±292 years).
  var clampedNanoseconds: Int64 {
    let (seconds, attoseconds) = components
    guard seconds < 9_223_372_035 else { return .max }
    guard seconds > -9_223_372_035 else { return .min }
    return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
  }
}
