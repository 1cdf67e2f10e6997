import Foundation

/// A service that reports permission changes synchronously, in the order they happen: the
/// capability an observer (the permission handler) uses when a service has it, instead of
/// watching streams from tasks of its own. An emulated phone's service has it: its callbacks run
/// on the phone's clock, before the call or advance that caused the change returns.
public protocol PermissionObserving: LocationServiceProtocol {
  /// The status the app reads and whether Location Services are on, now.
  var currentPermission: (status: LocationPermissionStatus, servicesEnabled: Bool) { get }

  /// Calls `onChange` with the status and the services switch on every change of either,
  /// synchronously and in order, until the returned observation is cancelled.
  func observePermission(
    _ onChange: @escaping @Sendable (_ status: LocationPermissionStatus, _ servicesEnabled: Bool) -> Void
  ) -> Cancellation
}

/// A cancellation that may be asked for before the work it cancels exists: ``attach(_:)``
/// gives it the work's cancel (called at once when ``cancel()`` came first).
public final class CancellationHandle: @unchecked Sendable {
  // An NSLock (a pthread mutex), not Synchronization.Mutex: on Linux that is a futex, which
  // ThreadSanitizer does not model, and it reported a race here between two cancels that both
  // held the lock (a fresh-clone run of the test command, CancellationTests).
  private let lock = NSLock()
  /// Guarded by `lock`.
  private var action: (@Sendable () -> Void)?
  /// Guarded by `lock`.
  private var cancelled = false

  /// A handle with no work attached, not cancelled.
  public init() {}

  /// The work's cancellation; called at once when ``cancel()`` came first.
  public func attach(_ cancel: @escaping @Sendable () -> Void) {
    lock.lock()
    let now = cancelled
    if !now { action = cancel }
    lock.unlock()
    if now { cancel() }
  }

  /// Cancels: calls the attached work's cancel, if any; a cancel attached later is called at once.
  public func cancel() {
    lock.lock()
    cancelled = true
    let attached = action
    action = nil
    lock.unlock()
    attached?()
  }
}

/// Ends what it was made for (an observation, a timer, a task) when ``cancel()`` is called;
/// later calls do nothing.
public struct Cancellation: Sendable {
  /// The closure, attached: its first ``cancel()`` runs it and lets it go.
  private let handle = CancellationHandle()

  /// A cancellation that runs `body` when cancelled.
  ///
  /// - Parameter body: What ends the work.
  public init(_ body: @escaping @Sendable () -> Void) { handle.attach(body) }

  /// Ends the work: runs the closure this was made with, the first time only (copies of this
  /// value share it).
  public func cancel() { handle.cancel() }
}
