import Geo
import LocationModel

/// One suspended wait on an ``EmulatorClock`` (a sleep, a prompt, a location request, a
/// stream's next value), resumed exactly once by whoever owns what it waits for.
///
/// A waiter created in a task the clock tracks is resumed through the clock's loop, which
/// counts the task as running again until it suspends next: that is how an advance knows
/// when everything it set off has happened. Others are resumed at once.
///
/// Use: create it with ``EmulatorClock/makeWaiter(of:)``, register it wherever the value
/// will come from inside ``wait(register:onCancel:)``, and call ``resolve(_:)`` (from any
/// thread, any number of times: only the first counts).
package final class ClockWaiter<Value: Sendable>: Sendable {
  private enum State {
    case idle
    case parked(CheckedContinuation<Value, Never>)
    /// Resolved before it parked (say, cancelled at once): the value to return.
    case early(Value)
    /// Resolved while parked; the clock's loop resumes it.
    case resolving(CheckedContinuation<Value, Never>, Value)
    case done
  }

  package let clock: EmulatorClock
  /// Whether the clock waits for the waiting task (it was started by the clock).
  package let isTracked: Bool
  private let state = Locked(State.idle)

  init(clock: EmulatorClock, tracked: Bool) {
    self.clock = clock
    isTracked = tracked
  }

  /// Suspends until ``resolve(_:)``. `register` runs once the waiter can be resolved (it is
  /// not called when the waiter was resolved before, e.g. by a cancellation); `onCancel`
  /// runs when the waiting task is cancelled, and should resolve the waiter.
  package func wait(register: () -> Void, onCancel: @escaping @Sendable () -> Void) async -> Value {
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Value, Never>) in
        let early: Value? = state.withLock { s in
          switch s {
          case .idle:
            s = .parked(continuation)
            return nil
          case .early(let value):
            s = .done
            return value
          case .parked, .resolving, .done:
            preconditionFailure("a ClockWaiter waits once")
          }
        }
        if let early {
          continuation.resume(returning: early)
          return
        }
        register()
        if isTracked { clock.taskSuspended() }
      }
    } onCancel: {
      onCancel()
    }
  }

  /// Resolves the wait with `value`, if it is not resolved yet; returns whether this call did.
  /// A tracked waiter is queued on the clock's loop, after everything queued before, and the
  /// caller should call ``EmulatorClock/drive()`` once it holds no lock.
  @discardableResult
  package func resolve(_ value: Value) -> Bool {
    let next: ResolveStep<Value> = state.withLock { s in
      switch s {
      case .idle:
        s = .early(value)
        return .nothing
      case .parked(let continuation):
        if isTracked {
          s = .resolving(continuation, value)
          return .queue
        }
        s = .done
        return .now(continuation)
      case .early, .resolving, .done:
        return .nothing
      }
    }
    switch next {
    case .nothing: return false
    case .now(let continuation): continuation.resume(returning: value)
    case .queue: clock.queueWake { [self] in wakeNow() }
    }
    return true
  }

  /// Whether the wait has been resolved.
  package var isResolved: Bool {
    state.withLock { s in
      if case .idle = s { return false }
      if case .parked = s { return false }
      return true
    }
  }

  private func wakeNow() -> Bool {
    let resume: (CheckedContinuation<Value, Never>, Value)? = state.withLock { s in
      guard case .resolving(let continuation, let value) = s else { return nil }
      s = .done
      return (continuation, value)
    }
    guard let (continuation, value) = resume else { return false }
    continuation.resume(returning: value)
    return true
  }
}

private enum ResolveStep<Value: Sendable> {
  case nothing
  case now(CheckedContinuation<Value, Never>)
  case queue
}
