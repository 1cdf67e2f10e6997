import Geo
import LocationModel

/// A task started by ``EmulatorClock/spawn(_:_:)``: the clock waits for it whenever it runs.
public struct ClockTask<Success: Sendable>: Sendable {
  let record: ClockTaskRecord
  let task: Task<Success, Never>

  /// The name given at the start, for messages.
  public var name: String { record.name }
  /// Whether the task has returned.
  public var isFinished: Bool { record.clock.storage.withLock { _ in record.isFinished } }

  /// Cancels the task.
  public func cancel() { task.cancel() }

  /// The task's result.
  ///
  /// From a task the clock tracks, this waits on the clock like any other wait. From
  /// elsewhere (a test), it first runs everything due now; if the task is then still
  /// waiting on the clock, nothing but an advance can finish it, and this throws
  /// ``EmulatorClockError/Code/taskWaiting`` rather than wait for good (use
  /// ``EmulatorClock/advance(until:limit:)`` to move time as far as the task needs).
  public var value: Success {
    get async throws(EmulatorClockError) {
      let clock = record.clock
      if clock.mode == .realTime { return await task.value }
      if clock.isTrackedHere() {
        let waiter = clock.makeWaiter(of: Void.self)
        await waiter.wait(
          register: {
            let finished = clock.storage.withLock { _ -> Bool in
              if record.isFinished { return true }
              record.finishWaiters.append { waiter.resolve(()) }
              return false
            }
            if finished { waiter.resolve(()) }
          },
          onCancel: {})
        return await task.value
      }
      try await clock.runUntilIdle()
      guard isFinished else {
        throw EmulatorClockError(
          .taskWaiting,
          "\(name) is still waiting at \(clock.now); advance the clock (the next timer: \(clock.nextDeadline.map(\.description) ?? "none"))"
        )
      }
      return await task.value
    }
  }
}

/// The clock's record of a task it started.
final class ClockTaskRecord: @unchecked Sendable {
  let id: UInt64
  let name: String
  let clock: EmulatorClock
  // Set once by the task itself before its body runs; read under the clock's lock.
  var taskHash: Int = 0
  // Under the clock's lock.
  var isFinished = false
  var finishWaiters: [() -> Void] = []

  init(id: UInt64, name: String, clock: EmulatorClock) {
    self.id = id
    self.name = name
    self.clock = clock
  }
}

extension EmulatorClock {
  /// The task the clock started that the current code runs in, if any (inherited by child
  /// tasks, which the clock then tells apart by their identity).
  @TaskLocal static var currentTask: ClockTaskRecord?

  static func currentTaskHash() -> Int { withUnsafeCurrentTask { $0?.hashValue ?? 0 } }

  /// Whether the current code runs in a task this virtual clock started (not a child of it).
  func isTrackedHere() -> Bool {
    guard mode == .virtual, let record = Self.currentTask, record.clock === self else { return false }
    return record.taskHash == Self.currentTaskHash()
  }

  /// The clock whose task the current code runs in (a task started by ``spawn(_:_:)``, itself
  /// and not a child of it), if any.
  public static var current: EmulatorClock? {
    guard let record = currentTask, record.clock.isTrackedHere() else { return nil }
    return record.clock
  }

  /// Starts `body` as a task of the clock the current code runs in (see ``current``), so that
  /// the clock waits for it too; elsewhere, as a plain task. For libraries whose own tasks
  /// should be deterministic when their caller runs on an emulated phone.
  /// - Returns: a call that cancels the task.
  @discardableResult
  public static func startTask(_ name: String, _ body: @escaping @Sendable () async -> Void) -> @Sendable () -> Void {
    if let clock = current {
      let task = clock.spawn(name, body)
      return { task.cancel() }
    }
    let task = Task { await body() }
    return { task.cancel() }
  }

  /// A waiter for the current task (tracked when the clock started this task).
  package func makeWaiter<Value: Sendable>(of: Value.Type = Value.self) -> ClockWaiter<Value> {
    ClockWaiter(clock: self, tracked: isTrackedHere())
  }

  /// Starts `body` in a new task that the clock waits for whenever it runs: it counts as
  /// running from now until it first suspends on the clock, and again each time the clock
  /// wakes it. On a real-time clock it is a plain task.
  ///
  /// One flow per task: a child task (`async let`, a task group) is not tracked, so the
  /// clock would take its parent, waiting on the child, for a task that never suspends.
  /// Spawn each concurrent flow.
  @discardableResult
  public func spawn<Success: Sendable>(_ name: String, _ body: @escaping @Sendable () async -> Success) -> ClockTask<Success> {
    let gate = ClockStartGate()
    let record = storage.withLock { s in
      let record = ClockTaskRecord(id: s.nextTaskID, name: name, clock: self)
      s.nextTaskID &+= 1
      s.tasks[record.id] = record
      // On a virtual clock the task starts as a step of the loop, so that tasks spawned
      // together start one at a time, in order; it counts as running from that step on.
      if mode == .virtual {
        s.queue.append(
          .wake {
            gate.open()
            return true
          })
      }
      return record
    }
    if mode == .realTime { gate.open() }
    let task = Task {
      record.taskHash = Self.currentTaskHash()
      await gate.pass()
      // Code on the seam (the permission handler, say) that runs here puts its own tasks on this clock.
      let value = await Self.$currentTask.withValue(record) { await CurrentScheduler.$scheduler.withValue(self) { await body() } }
      taskFinished(record)
      return value
    }
    drive()
    return ClockTask(record: record, task: task)
  }

  private func taskFinished(_ record: ClockTaskRecord) {
    let waiters = storage.withLock { s in
      s.tasks.removeValue(forKey: record.id)
      record.isFinished = true
      if mode == .virtual { s.running -= 1 }
      if s.goals.contains(where: { $0.until === record }) { s.untilTaskFinished = true }
      let waiters = record.finishWaiters
      record.finishWaiters = []
      return waiters
    }
    for waiter in waiters { waiter() }
    drive()
  }

  /// A tracked task suspended on the clock: the loop may go on.
  func taskSuspended() {
    storage.withLock { $0.running -= 1 }
    drive()
  }

  /// Queues the resumption of a tracked task.
  func queueWake(_ wake: @escaping @Sendable () -> Bool) {
    storage.withLock { $0.queue.append(.wake(wake)) }
  }
}

/// Holds a spawned task back until the clock's loop starts it.
final class ClockStartGate: Sendable {
  private let state = Locked<(open: Bool, waiting: CheckedContinuation<Void, Never>?)>((false, nil))

  func open() {
    let waiting = state.withLock { s in
      s.open = true
      let waiting = s.waiting
      s.waiting = nil
      return waiting
    }
    waiting?.resume()
  }

  func pass() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let open = state.withLock { s -> Bool in
        if s.open { return true }
        s.waiting = continuation
        return false
      }
      if open { continuation.resume() }
    }
  }
}
