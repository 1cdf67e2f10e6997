/// Where an app's own timers and tasks run: on an emulated phone, as deadlines and tasks of its
/// clock (so a test advances time and checks right after: every timer due has fired, every
/// task woken has run); elsewhere, on the system's clock (``SystemScheduler``).
///
/// The map features take one, so that the same code runs on a phone in a test and in a process
/// on real time.
public protocol AppScheduler: Sendable {
  /// Runs `action` once after `delay`, unless cancelled first.
  func run(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> Cancellation

  /// Starts `body` as a task the scheduler knows of; cancelling cancels the task.
  func startTask(_ name: String, _ body: @escaping @Sendable () async -> Void) -> Cancellation

  /// A stream of signals to hand work between the app's own tasks: the scheduler sees its
  /// consumer waiting (a plain `AsyncStream` would be invisible to a phone's clock).
  func makeSignals() -> (signals: AsyncStream<Void>, signal: @Sendable () -> Void, finish: @Sendable () -> Void)
}

/// The system's clock and plain tasks: timers are tasks that sleep on `ContinuousClock`.
public struct SystemScheduler: AppScheduler {
  /// The system scheduler (it holds no state).
  public init() {}

  /// Runs `action` once after `delay`, in a task that sleeps on `ContinuousClock`, unless cancelled first.
  ///
  /// - Parameters:
  ///   - delay: How long to wait.
  ///   - action: What to run then.
  /// - Returns: A cancellation that cancels the sleeping task.
  public func run(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> Cancellation {
    let task = Task {
      guard (try? await Task.sleep(for: delay)) != nil else { return }
      action()
    }
    return Cancellation { task.cancel() }
  }

  /// Starts `body` as a plain task.
  ///
  /// - Parameters:
  ///   - name: The task's name (not used here).
  ///   - body: The task's work.
  /// - Returns: A cancellation that cancels the task.
  public func startTask(_ name: String, _ body: @escaping @Sendable () async -> Void) -> Cancellation {
    let task = Task { await body() }
    return Cancellation { task.cancel() }
  }

  /// A plain `AsyncStream` of signals and its two ends.
  ///
  /// - Returns: The stream, a closure that yields a signal to it, and one that finishes it.
  public func makeSignals() -> (signals: AsyncStream<Void>, signal: @Sendable () -> Void, finish: @Sendable () -> Void) {
    let (stream, continuation) = AsyncStream.makeStream(of: Void.self)
    return (stream, { continuation.yield(()) }, { continuation.finish() })
  }
}

/// The scheduler of the code running now: set by an emulated phone for the tasks of its clock,
/// so that code on the seam (the permission handler, say) puts its own tasks on the phone's
/// clock when its caller runs there; ``SystemScheduler`` otherwise.
public enum CurrentScheduler {
  /// The scheduler bound for the running task, or nil when none is (then `current` is the system's).
  @TaskLocal public static var scheduler: (any AppScheduler)?

  /// The scheduler of the code running now, or the system's.
  public static var current: any AppScheduler { scheduler ?? SystemScheduler() }
}
