public import LocationServices

/// A phone's clock is where the app's timers and tasks run on the phone: a timer is a deadline
/// the clock keeps and fires from its advance, a task is one the clock waits for.
extension EmulatorClock: AppScheduler {
  public func run(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> Cancellation {
    let timer = schedule(after: delay, action)
    return Cancellation { [weak self] in self?.cancel(timer) }
  }

  public func startTask(_ name: String, _ body: @escaping @Sendable () async -> Void) -> Cancellation {
    let task = spawn(name, body)
    return Cancellation { task.cancel() }
  }

  public func makeSignals() -> (signals: AsyncStream<Void>, signal: @Sendable () -> Void, finish: @Sendable () -> Void) {
    let (stream, continuation) = makeStream(of: Void.self)
    return (stream, { continuation.yield(()) }, { continuation.finish() })
  }
}
