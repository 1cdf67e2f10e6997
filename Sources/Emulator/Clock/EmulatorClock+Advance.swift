import Geo
import LocationModel

/// Why a wait on an ``EmulatorClock`` failed.
public struct EmulatorClockError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What went wrong.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    let name: String
    /// Tasks the clock woke did not suspend again within the clock's stall timeout.
    public static let stalled = Code(name: "stalled")
    /// A task is waiting on the clock and nothing scheduled before the limit can wake it.
    public static let taskWaiting = Code(name: "taskWaiting")
    /// The clock was asked to settle unstructured tasks (the default) and this Swift runtime
    /// does not let it: the runtime hooks' self-test failed (the message says how). Such a
    /// clock refuses to move rather than give flaky results; make it with
    /// `settlesUnstructuredTasks: false` to run without settling.
    public static let cannotSettle = Code(name: "cannotSettle")
    /// The code's name ("stalled", "taskWaiting", "cannotSettle").
    public var description: String { name }
  }

  /// What went wrong.
  public var code: Code
  /// What went wrong, in words: the tasks involved and the clock's time.
  public var message: String

  init(_ code: Code, _ message: String) {
    self.code = code
    self.message = message
  }

  /// The error's message.
  public var description: String { message }
}

extension EmulatorClock {
  // MARK: Moving virtual time

  /// Moves time forward by `duration`: see ``advance(to:)``.
  public func advance(by duration: Duration) async throws(EmulatorClockError) {
    try await advance(to: now.advanced(by: duration))
  }

  /// Moves time to `deadline`, firing every timer due by then in order, waking the tasks they
  /// resolve one at a time and waiting for each to suspend again; returns when all of that has
  /// happened and the clock reads `deadline` (never earlier than it read before).
  ///
  /// Called from a task the clock started, this is a sleep until `deadline`. On a real-time
  /// clock it sleeps.
  ///
  /// - Throws: ``EmulatorClockError/Code/stalled`` when a task the clock woke did not suspend
  ///   within ``stallTimeout`` of real time.
  public func advance(to deadline: Instant) async throws(EmulatorClockError) {
    if mode == .realTime || isTrackedHere() {
      try? await sleep(until: deadline, tolerance: nil)
      return
    }
    try await reach(target: Swift.max(deadline.offset, nowOffset), until: nil)
  }

  /// Runs what is due now and everything it sets off, without moving time.
  ///
  /// From a task the clock started, this lets everything queued before it run first.
  public func runUntilIdle() async throws(EmulatorClockError) {
    switch mode {
    case .realTime:
      drive()
    case .virtual where isTrackedHere():
      let waiter = makeWaiter(of: Void.self)
      await waiter.wait(register: { _ = waiter.resolve(()) }, onCancel: {})
    case .virtual:
      try await reach(target: nowOffset, until: nil)
    }
  }

  /// Moves time as far as `task` needs to finish, and no further, then returns its result.
  ///
  /// - Parameters:
  ///   - task: the task to run to its end, one started with ``spawn(_:_:)``.
  ///   - limit: how far time may move at most.
  /// - Throws: ``EmulatorClockError/Code/taskWaiting`` when nothing scheduled before the
  ///   limit can wake the task; ``EmulatorClockError/Code/stalled`` as ``advance(to:)``.
  @discardableResult
  public func advance<Success: Sendable>(
    until task: ClockTask<Success>, limit: Duration = .seconds(86_400)
  )
    async throws(EmulatorClockError) -> Success
  {
    if mode == .virtual && !isTrackedHere() {
      try await reach(target: nowOffset + limit, until: task.record)
    }
    return try await task.value
  }

  /// Registers an advance and waits for the loop to settle it.
  private func reach(target: Duration, until task: ClockTaskRecord?) async throws(EmulatorClockError) {
    if let settlingFailure {
      throw EmulatorClockError(
        .cannotSettle,
        "this virtual clock cannot settle unstructured tasks on this Swift runtime: \(settlingFailure) (tested with "
          + "\(TaskQuiescence.testedToolchains)); make the clock with settlesUnstructuredTasks: false to run without settling")
    }
    let goal = storage.withLock { s in
      let goal = ClockGoal(id: s.nextGoalID, target: target, until: task)
      s.nextGoalID &+= 1
      return goal
    }
    do {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        storage.withLock { s in
          goal.attach(continuation)
          s.goals.append(goal)
          if task?.isFinished == true { s.untilTaskFinished = true }
        }
        drive()
        // Still open after the loop ran: tasks are running. Bound the wait in real time: a
        // window of the stall timeout with tasks running and not one step of the loop is a stall
        // (a long advance that keeps stepping is not).
        storage.withLock { s in
          guard s.goals.contains(where: { $0 === goal }) else { return }
          let timeout = stallTimeout
          goal.watchdog = Task { [weak self] in
            var seen = self?.storage.withLock { $0.steps }
            var jobsSeen = TaskQuiescence.completedJobs
            while (try? await Task.sleep(for: timeout)) != nil, let clock = self {
              let (steps, running) = clock.storage.withLock { ($0.steps, $0.running) }
              // Untracked work that finishes no job in the window but this watchdog's own wake-up
              // (a job that never returns) stalls too; a busy process, whose jobs keep finishing,
              // does not.
              let jobs = TaskQuiescence.completedJobs
              let untracked = clock.settlesUnstructuredTasks && !TaskQuiescence.isQuiet && jobs &- jobsSeen <= 1
              // A task counted as running may be suspended on something the clock's callbacks
              // resume (an async wrapper's continuation): the loop goes on once the process is
              // quiet. While other jobs keep finishing (other tests, on a busy process) that is
              // waiting, not a stall.
              let busyElsewhere = clock.settlesUnstructuredTasks && jobs &- jobsSeen > 1
              if steps == seen && ((running > 0 && !busyElsewhere) || untracked) {
                clock.stall(goal)
                return
              }
              seen = steps
              jobsSeen = jobs
            }
          }
        }
      }
    } catch let error as EmulatorClockError {
      throw error
    } catch {
      preconditionFailure("unexpected \(error)")
    }
  }

  private func stall(_ goal: ClockGoal) {
    let found = storage.withLock { s -> Bool in
      guard let index = s.goals.firstIndex(where: { $0 === goal }) else { return false }
      s.goals.remove(at: index)
      let names = s.tasks.values.map(\.name).sorted().joined(separator: ", ")
      goal.settle(
        .failure(
          EmulatorClockError(
            .stalled,
            "the clock waited \(stallTimeout) of real time at t=\(s.now.seconds)s for tasks to suspend (\(s.running) running; "
              + "started and unfinished: \(names.isEmpty ? "none" : names); Swift jobs of the process not yet run: "
              + "\(settlesUnstructuredTasks ? "\(TaskQuiescence.pendingJobs)" : "not counted")); a task awaiting something other "
              + "than the clock, or a job that blocks its thread, stalls it")))
      return true
    }
    if found { goal.finish() }
  }

  // MARK: Clock

  /// Suspends until the clock reaches `deadline`.
  ///
  /// On a virtual clock the sleep is a timer: it ends when an advance reaches it (or at once,
  /// for a task the clock does not track, when `deadline` has passed). On a real-time clock it
  /// is `ContinuousClock`'s sleep.
  ///
  /// - Throws: `CancellationError` when the task is cancelled.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    if mode == .realTime {
      try await Task.sleep(until: origin.advanced(by: deadline.offset), tolerance: tolerance, clock: .continuous)
      return
    }
    try Task.checkCancellation()
    let waiter = makeWaiter(of: Bool.self)
    if !waiter.isTracked && deadline.offset <= nowOffset { return }
    let timer = Locked<Timer?>(nil)
    let completed = await waiter.wait(
      register: {
        let set = schedule(at: deadline) { waiter.resolve(true) }
        timer.withLock { $0 = set }
      },
      onCancel: { [self] in
        if let set = timer.withLock({ $0 }) { cancel(set) }
        if waiter.resolve(false) { drive() }
      })
    if !completed { throw CancellationError() }
  }

  // MARK: Real time

  /// Runs until cancelled: on a real-time clock, fires each timer when it is due. On a virtual
  /// clock (advances fire the timers), or when another `run()` already drives this clock (the
  /// phones of a fleet share one), it only waits for the cancellation.
  public func run() async {
    let drives =
      mode == .realTime
      && storage.withLock { s -> Bool in
        guard !s.driverRunning else { return false }
        s.driverRunning = true
        return true
      }
    guard drives else {
      let waiter = ClockWaiter<Void>(clock: self, tracked: false)
      await waiter.wait(register: { if Task.isCancelled { waiter.resolve(()) } }, onCancel: { waiter.resolve(()) })
      return
    }
    defer { storage.withLock { $0.driverRunning = false } }
    while !Task.isCancelled {
      drive()
      await withTaskCancellationHandler {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
          enum Next {
            case goOn
            case sleep(until: Duration?)
          }
          let now = origin.duration(to: .now)
          let next: Next = storage.withLock { s in
            let deadline = s.nextLiveDeadline()
            if Task.isCancelled || deadline.map({ $0 <= now }) == true { return .goOn }
            s.driverWakeup = ClockDriverWakeup(deadline: deadline, continuation: continuation, sleeper: nil)
            return .sleep(until: deadline)
          }
          guard case .sleep(let deadline) = next else {
            continuation.resume()
            return
          }
          // No timer: sleep until one is set (its `schedule` wakes the driver) or cancelled.
          guard let deadline else { return }
          let sleeper = Task { [weak self] in
            guard let self, (try? await Task.sleep(until: origin.advanced(by: deadline), clock: .continuous)) != nil else {
              return
            }
            wakeDriver()
          }
          let sleeping = storage.withLock { s -> Bool in
            guard s.driverWakeup != nil else { return false }
            s.driverWakeup?.sleeper = sleeper
            return true
          }
          if !sleeping { sleeper.cancel() }
        }
      } onCancel: {
        wakeDriver()
      }
    }
  }

  private func wakeDriver() {
    let wakeup = storage.withLock { s in
      let wakeup = s.driverWakeup
      s.driverWakeup = nil
      return wakeup
    }
    wakeup?.resume()
  }
}
