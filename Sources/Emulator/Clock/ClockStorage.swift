import DequeModule
import Geo
import HeapModule

/// A timer in the clock's queue, ordered by deadline, then by the order it was set.
struct ClockTimer: Comparable {
  var deadline: Duration
  var sequence: UInt64
  var action: @Sendable () -> Void

  static func < (a: ClockTimer, b: ClockTimer) -> Bool {
    a.deadline < b.deadline || (a.deadline == b.deadline && a.sequence < b.sequence)
  }
  static func == (a: ClockTimer, b: ClockTimer) -> Bool { a.sequence == b.sequence }
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
  case timer(@Sendable () -> Void)
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
  var timers = Heap<ClockTimer>()
  /// Sequences of the timers not yet fired or cancelled.
  var live: Set<UInt64> = []
  var nextSequence: UInt64 = 0
  var queue = Deque<ClockItem>()
  /// Whether some thread runs the loop now.
  var owned = false
  /// Tracked tasks that are running (woken, not yet suspended on the clock again).
  var running = 0
  /// Tracked tasks not yet finished, by id.
  var tasks: [UInt64: ClockTaskRecord] = [:]
  var nextTaskID: UInt64 = 0
  /// Advances in progress (virtual clocks).
  var goals: [ClockGoal] = []
  var nextGoalID: UInt64 = 0
  var steps: UInt64 = 0
  /// The real-time driver, while it sleeps.
  var driverWakeup: ClockDriverWakeup?
  /// Whether a `run()` drives this real-time clock.
  var driverRunning = false

  mutating func addTimer(at deadline: Duration, _ action: @escaping @Sendable () -> Void) -> UInt64 {
    let sequence = nextSequence
    nextSequence &+= 1
    timers.insert(ClockTimer(deadline: deadline, sequence: sequence, action: action))
    live.insert(sequence)
    return sequence
  }

  mutating func cancelTimer(_ sequence: UInt64) {
    live.remove(sequence)
    // A cancelled timer stays in the heap until it comes up; drop the dead ones on top now,
    // so that an idle clock holds none.
    while let top = timers.min, !live.contains(top.sequence) { _ = timers.popMin() }
  }

  /// The earliest live timer due at or before `limit`, taken off the queue.
  mutating func popTimer(dueBy limit: Duration) -> ClockTimer? {
    while let top = timers.min {
      guard live.contains(top.sequence) else {
        _ = timers.popMin()
        continue
      }
      guard top.deadline <= limit else { return nil }
      live.remove(top.sequence)
      return timers.popMin()
    }
    return nil
  }

  mutating func nextLiveDeadline() -> Duration? {
    while let top = timers.min, !live.contains(top.sequence) { _ = timers.popMin() }
    return timers.min?.deadline
  }

  /// How far the loop may fire timers: the nearest target of an advance in progress; nil (no
  /// timer) without one: timers fire only when the clock's owner moves time or runs it.
  func goalLimit() -> Duration? {
    var limit: Duration?
    for goal in goals where !goal.isSettled {
      limit = Swift.min(limit ?? goal.target, goal.target)
    }
    return limit.map { Swift.max($0, now) }
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
    goals.removeAll { goal in
      if let task = goal.until {
        if task.isFinished {
          goal.settle(.success(()))
        } else if next.map({ $0 > goal.target }) ?? true {
          // Nothing scheduled before the limit can wake the task.
          goal.settle(.failure(EmulatorClockError(.taskWaiting, "\(task.name) is still waiting at t=\(now.seconds)s and nothing is scheduled before the limit (t=\(goal.target.seconds)s)")))
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
