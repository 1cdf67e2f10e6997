import Foundation
import Geo
import LocationModel

// The app's tasks on the phone's clock, stepping time, and the phone's run and shutdown.
extension EmulatedPhone {
  // MARK: Tasks

  /// Starts `body` as one of the app's flows, on the phone's clock: the clock waits for it
  /// whenever it runs (see ``EmulatorClock/spawn(_:_:)``), and ``shutdown()`` cancels it.
  @discardableResult
  public func start<Success: Sendable>(_ name: String = "app", _ body: @escaping @Sendable () async -> Success) -> ClockTask<Success> {
    let entry = PhoneTaskEntry()
    let (id, shutDown) = core.withLock { s in
      let id = s.nextID()
      if !s.isShutDown { s.tasks[id] = entry }
      return (id, s.isShutDown)
    }
    let task = clock.spawn("\(configuration.name): \(name)") { [weak self] in
      // Code in the phone's tasks belongs to the phone (a CLLocationManager made there, say).
      let value = await EmulatedPhone.$current.withValue(self) { await body() }
      self?.core.withLock { _ = $0.tasks.removeValue(forKey: id) }
      return value
    }
    entry.attach(task)
    if shutDown { task.cancel() }
    return task
  }

  /// The phone the code running now belongs to: set by ``withEmulatedPhone(_:clock:binding:isolation:_:)``
  /// for its body and by ``start(_:_:)`` for the phone's tasks, inherited by their child tasks.
  /// The `CoreLocation` module binds a location manager made here to this phone.
  @TaskLocal public static var current: EmulatedPhone?

  /// Runs `body` as code of this phone (``current``), as its own tasks run.
  public func withCurrent<Result>(isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Result) async rethrows -> Result
  {
    try await EmulatedPhone.$current.withValue(self, operation: body, isolation: isolation)
  }

  // MARK: Time

  /// Moves the clock forward: see ``EmulatorClock/advance(by:)``.
  public func advance(by duration: Duration) async throws(EmulatorClockError) { try await clock.advance(by: duration) }
  /// Moves the clock to `elapsed` since the phone started: see ``EmulatorClock/advance(to:)``.
  public func advance(toElapsed elapsed: Duration) async throws(EmulatorClockError) {
    try await clock.advance(to: startedAt.advanced(by: elapsed))
  }
  /// Runs what is due now: see ``EmulatorClock/runUntilIdle()``.
  public func runUntilIdle() async throws(EmulatorClockError) { try await clock.runUntilIdle() }
  /// Moves the clock as far as `task` needs: see ``EmulatorClock/advance(until:limit:)``.
  @discardableResult
  public func advance<Success: Sendable>(
    until task: ClockTask<Success>, limit: Duration = .seconds(86_400)
  )
    async throws(EmulatorClockError) -> Success
  {
    try await clock.advance(until: task, limit: limit)
  }

  // MARK: Lifetime

  /// Runs the phone until the task is cancelled: a live source is read, and a real-time clock
  /// fires its timers (unless another `run()` drives it already); then ``shutdown()``, and
  /// waits for the phone's tasks to end.
  public func run() async {
    await withDiscardingTaskGroup { group in
      // Drives a real-time clock's timers unless another run() does (a fleet's shared clock).
      group.addTask { await self.clock.run() }
      if case .live(let source) = configuration.source.kind {
        group.addTask { await self.read(source) }
      }
    }
    let tasks = shutdownCore()
    clock.drive()
    await waitForEnd(of: tasks)
  }

  /// Waits for the phone's tasks, which end with their cancellation, so that nothing outlives
  /// `run()`; but not for good. A task suspended on something the phone cannot end (a
  /// continuation that only a delegate callback would resume, for a request the shutdown
  /// cancelled) would never return: on a virtual clock, once no Swift job of the process is left
  /// to run, the clock's loop has nothing more to do, and such tasks have still not returned,
  /// they are left behind and `run()` returns.
  func waitForEnd(of tasks: [PhoneTaskEntry]) async {
    guard clock.isVirtual, TaskQuiescence.isInstalled, !tasks.isEmpty else {
      for task in tasks { await task.finished() }
      return
    }
    let clock = self.clock
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let waiting = Locked<CheckedContinuation<Void, Never>?>(continuation)
      let left = Locked(tasks.count)
      let end: @Sendable () -> Void = {
        waiting.withLock { w in
          defer { w = nil }
          return w
        }?.resume()
      }
      Task {
        for task in tasks {
          await task.finished()
          left.withLock { $0 -= 1 }
        }
        end()
      }
      Task {
        // Suspended for good: three rounds in a row in which the process went quiet, the clock's
        // loop was run from outside any job (so that it counts nothing of this task's as
        // running) with the process still idle and the loop then at rest, and no step of the
        // loop and no task's end came. (In a busy process another job can arrive first, and the
        // loop then waits for it instead of running: such a round does not count.)
        var stillRounds = 0
        let idleRun = Locked(false)
        while stillRounds < 3 {
          let before = (clock.stepsRun, left.withLock { $0 })
          await TaskQuiescence.untilQuiet(then: {
            let idle = TaskQuiescence.isIdle
            clock.drive()
            idleRun.withLock { $0 = idle && TaskQuiescence.isIdle && clock.loopIsAtRest }
          })
          let after = (clock.stepsRun, left.withLock { $0 })
          if after.1 == 0 { return }
          stillRounds = after == before && idleRun.withLock({ $0 }) ? stillRounds + 1 : 0
        }
        end()
      }
    }
  }

  /// Ends the phone: the prompt and every request return (requests with
  /// `LocationUnavailableReason.cancelled`), streams finish, observers stop, timers are
  /// cancelled, the source's file is closed, tasks started with ``start(_:_:)`` are cancelled.
  /// Later calls return at once. Idempotent.
  public func shutdown() {
    shutdownCore()
    clock.drive()
  }

  @discardableResult
  func shutdownCore() -> [PhoneTaskEntry] {
    let (subscriptions, tasks, observers): ([() -> Void], [PhoneTaskEntry], [PhoneObservation]) = core.withLock { s in
      guard !s.isShutDown else { return ([], [], []) }
      s.isShutDown = true
      if let timer = s.promptTimer { clock.cancel(timer) }
      s.promptTimer = nil
      let status = s.permission.state.status
      for (_, waiter) in s.promptWaiters { waiter.resolve(status) }
      s.promptWaiters.removeAll()
      for action in s.gate.cancelAll(permission: s.permission.state) { engine.perform(action, &s) }
      if let timer = s.sourceTimer { clock.cancel(timer) }
      s.sourceTimer = nil
      s.timeline?.close()
      s.timeline = nil
      let observers = s.observers
      s.observers.removeAll()
      s.observedKinds = []
      let tasks = Array(s.tasks.values)
      s.tasks.removeAll()
      return (s.finishAllSubscriptions(), tasks, observers)
    }
    for observer in observers { observer.deactivate() }
    for finish in subscriptions { finish() }
    for task in tasks { task.cancellation.cancel() }
    return tasks
  }

  func read(_ source: any LocationSource) async {
    var failure: String?
    do {
      for try await fix in source { receiveNow(fix) }
    } catch is CancellationError {
      return
    } catch {
      failure = String(describing: error)
    }
    if Task.isCancelled { return }
    core.withLock { s in engine.emit(.sourceEnded(error: failure), &s) }
    clock.drive()
  }
}
