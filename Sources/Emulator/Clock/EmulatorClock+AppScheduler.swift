public import LocationModel

/// A phone's clock is where the app's timers and tasks run on the phone: a timer is a deadline
/// the clock keeps and fires from its advance, a task is one the clock waits for.
extension EmulatorClock: AppScheduler {
  /// Sets a timer on the clock that runs `action` after `delay` from now.
  /// - Parameters:
  ///   - delay: how long from the clock's now.
  ///   - action: what the timer runs, on the clock's loop.
  /// - Returns: a cancellation that cancels the timer if it has not fired.
  public func run(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> Cancellation {
    let timer = schedule(after: delay, action)
    return Cancellation { [weak self] in self?.cancel(timer) }
  }

  /// Starts `body` as a task the clock waits for (see ``spawn(_:_:)``).
  /// - Parameters:
  ///   - name: the task's name, as ``activeTaskNames`` and stall errors show it.
  ///   - body: the task's work.
  /// - Returns: a cancellation that cancels the task.
  public func startTask(_ name: String, _ body: @escaping @Sendable () async -> Void) -> Cancellation {
    let task = spawn(name, body)
    return Cancellation { task.cancel() }
  }

  /// A stream of signals whose consumer waits on this clock (see ``makeStream(of:bufferingNewest:)``).
  /// - Returns: the stream, a function that sends one signal, and one that ends the stream.
  public func makeSignals() -> (signals: AsyncStream<Void>, signal: @Sendable () -> Void, finish: @Sendable () -> Void) {
    let (stream, continuation) = makeStream(of: Void.self)
    return (stream, { continuation.yield(()) }, { continuation.finish() })
  }
}
