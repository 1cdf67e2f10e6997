import DequeModule
import Geo
import LocationModel

/// Which code a phone made by ``withEmulatedPhone(_:clock:binding:isolation:_:)`` belongs to:
/// whose `CLLocationManager`, `CLLocationManager.authorizationStatus()`, `liveUpdates` and
/// `CLMonitor` read it.
public enum PhoneBinding: Sendable, Hashable {
  /// The body and every task it starts in the task tree (`Task {}`, `async let`, task groups),
  /// through ``EmulatedPhone/current``. Phones of tests that run in parallel stay apart. Code
  /// that leaves the task tree (`Task.detached`, a `DispatchQueue`, a thread) does not see it.
  case task
  /// The whole process while the body runs, as the one device of an iPhone: also code that
  /// leaves the task tree (`Task.detached`, `DispatchQueue` work, threads) and code of no phone.
  /// One process binding at a time: a second one waits until the first body has returned, so
  /// tests that use it run one after another while the others go on in parallel.
  case process
}

extension EmulatedPhone {
  /// The phone bound to the whole process (``PhoneBinding/process``) while such a body runs;
  /// nil otherwise.
  public static var processBound: EmulatedPhone? { ProcessBindingSlot.shared.phone }

  /// The phone of the code running now: the task's (``current``), else the one bound to the
  /// process (``processBound``); nil when neither is set.
  public static var ofRunningCode: EmulatedPhone? { current ?? processBound }
}

/// The process's one slot for a ``PhoneBinding/process`` binding: who holds it, and who waits
/// for it, in order.
final class ProcessBindingSlot: Sendable {
  static let shared = ProcessBindingSlot()

  private struct State {
    var phone: EmulatedPhone?
    var held = false
    var waiters = Deque<CheckedContinuation<Void, Never>>()
  }

  private let state = Locked(State())

  var phone: EmulatedPhone? { state.withLock { $0.phone } }

  /// Runs `body` with `phone` bound to the process, after any binding before it has ended.
  func withBinding<Result>(
    _ phone: EmulatedPhone, isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Result
  ) async rethrows -> Result {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let now = state.withLock { s -> Bool in
        guard s.held else {
          s.held = true
          return true
        }
        s.waiters.append(continuation)
        return false
      }
      if now { continuation.resume() }
    }
    state.withLock { $0.phone = phone }
    defer {
      let next = state.withLock { s -> CheckedContinuation<Void, Never>? in
        s.phone = nil
        guard let next = s.waiters.popFirst() else {
          s.held = false
          return nil
        }
        return next
      }
      next?.resume()
    }
    return try await body()
  }
}
