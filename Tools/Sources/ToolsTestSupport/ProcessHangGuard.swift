import EmulatorTesting
import Foundation
import Geo
public import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The hang guard of a wait for a child process (its output, its first line, its end): once
/// `bound` has passed and it is not yet disarmed, it looks at the child, and at the processes the
/// child talks to, before it kills the child and its process group
/// (``examineHang(of:frames:limit:)``: the threads waiting on the runtime's locks with their
/// holders, gdb's backtraces). A child stalled on a lost wakeup below its code, which the look
/// ends (gdb's attach restarts the sleeping call), gets a second bound, `grace`, to go on.
///
/// Disarm it once the wait is over and before the child's pid may be reused (after the child has
/// been waited for); ``disarm()`` says whether the child was killed or went on after a look, with
/// the look either way.
public final class ProcessHangGuard: Sendable {
  /// What the guard did.
  public enum Outcome: Sendable, Equatable {
    /// Disarmed before its bound.
    case quiet
    /// It looked, then killed the child: the look says what the threads were doing.
    case killed(look: String)
    /// It looked, and the child went on before its second bound (or during the look).
    case wentOn(look: String)

    /// The guard killed the child.
    public var killed: Bool {
      if case .killed = self { true } else { false }
    }

    /// The look, when the guard looked.
    public var look: String? {
      switch self {
      case .quiet: nil
      case .killed(let look), .wentOn(let look): look
      }
    }
  }

  private enum State {
    case armed
    /// At its bound, looking; `ended`: disarmed during the look (the child had ended).
    case looking(ended: Bool)
    /// Looked; a lost wakeup: the child has its second bound.
    case graced(look: String)
    /// Disarmed: `look` when it had looked.
    case disarmed(look: String?)
    case fired(look: String)
  }
  private let state = Locked(State.armed)
  /// Signalled when a look is done: a disarm during the look waits for its text.
  private let looked = DispatchSemaphore(value: 0)
  private let pid: Int32

  public init(
    _ pid: Int32, bound: Duration, also: [Int32] = [], grace: Duration = .seconds(300),
    examine: @escaping @Sendable (Int32) -> HangReport = { examineHang(of: $0) }
  ) {
    self.pid = pid
    DispatchQueue.global().asyncAfter(deadline: .now() + bound.seconds) { [self] in
      let look = state.withLock { state -> Bool in
        guard case .armed = state else { return false }
        state = .looking(ended: false)
        return true
      }
      guard look else { return }
      // On a thread of its own: gdb takes seconds, and this queue's threads run Swift's tasks too.
      Thread { [self] in
        let reports = ([pid] + also).map(examine)
        let text = reports.map(\.text).joined(separator: "\n")
        let ended = childHasEnded()
        let graced = state.withLock { state -> Bool in
          // Disarmed during the look, or ended during it with its waiter not yet told: no kill
          // (its pid may be reused by now); ``disarm()`` says it went on.
          let disarmed = if case .looking(ended: true) = state { true } else { false }
          if disarmed || ended {
            state = .disarmed(look: text)
            return false
          }
          if reports.contains(where: \.lostHandover) {
            state = .graced(look: text)
            return true
          }
          state = .fired(look: text)
          killChild()
          return false
        }
        looked.signal()
        if graced {
          DispatchQueue.global().asyncAfter(deadline: .now() + grace.seconds) { [self] in
            let ended = childHasEnded()
            state.withLock { state in
              guard case .graced(let look) = state, !ended else { return }
              state = .fired(look: look)
              killChild()
            }
          }
        }
      }.start()
    }
  }

  /// The child has ended: it is a zombie not yet waited for, or Foundation has reaped it already
  /// (it is no child of ours any more). Asked without reaping it: Foundation does that.
  private func childHasEnded() -> Bool {
    var info = siginfo_t()
    guard waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 else { return errno == ECHILD }
    return info._sifields._sigchld.si_pid == pid
  }

  /// SIGKILL to the child and its group (Foundation makes a child lead one of its own): a
  /// grandchild (locemu under GNU time) would otherwise live on and keep the pipes open. Called
  /// with the state locked, before any disarm.
  private func killChild() {
    Glibc.kill(pid, SIGKILL)
    Glibc.kill(-pid, SIGKILL)
  }

  /// Disarms the guard of a wait on `command` (as ``disarm()``), and says so as a test should:
  /// a child killed at `bound` throws ``LoopbackError`` ("`command` `failure` within `bound`:
  /// killed", and the look); a child that went on after a look is a warning with the look
  /// at `sourceLocation` (``recordEndAfterLook(_:bound:look:sourceLocation:)``).
  public func disarm(
    waitingOn command: String, bound: Duration, failure: String = "did not end", sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    switch disarm() {
    case .quiet: break
    case .killed(let look): throw LoopbackError(description: "\(command) \(failure) within \(bound): killed\n\(look)")
    case .wentOn(let look): recordEndAfterLook(command, bound: bound, look: look, sourceLocation: sourceLocation)
    }
  }

  /// Disarms the guard (no kill after this) and says what it did. During a look it waits for
  /// the look to end (gdb's own hang guard bounds it).
  public func disarm() -> Outcome {
    let during = state.withLock { state -> Bool in
      guard case .looking = state else { return false }
      state = .looking(ended: true)
      return true
    }
    if during {
      looked.wait()
      looked.signal()
    }
    return state.withLock { state -> Outcome in
      switch state {
      case .armed, .looking:
        state = .disarmed(look: nil)
        return .quiet
      case .disarmed(let look):
        return look.map { .wentOn(look: $0) } ?? .quiet
      case .graced(let look):
        state = .disarmed(look: look)
        return .wentOn(look: look)
      case .fired(let look):
        return .killed(look: look)
      }
    }
  }
}
