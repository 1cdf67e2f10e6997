/// What can go wrong talking to gpsd, with libgps's or gpsd's own message.
public enum GPSDError: Error, Hashable, Sendable, CustomStringConvertible {
  /// No connection to gpsd at `endpoint` within the timeout (gpsd not running, wrong port, host unreachable).
  case cannotConnect(endpoint: String, message: String)
  /// gpsd answered with something libgps could not use, or sent an ERROR message.
  case protocolError(endpoint: String, message: String)
  /// The device gpsd was reading went away (closed, unplugged, or gpsd has no devices).
  case deviceGone(endpoint: String, device: String)

  /// A one-line message naming the endpoint and what went wrong.
  public var description: String {
    switch self {
    case .cannotConnect(let endpoint, let message): "cannot connect to gpsd at \(endpoint): \(message)"
    case .protocolError(let endpoint, let message): "gpsd at \(endpoint): protocol error: \(message)"
    case .deviceGone(let endpoint, let device):
      "gpsd at \(endpoint): device \(device.isEmpty ? "(none)" : device) is gone"
    }
  }
}

/// Waits between reconnection attempts: doubling from `initial` up to `maximum`.
public struct Backoff: Sendable, Hashable {
  /// The first wait, and the wait after a ``reset()``.
  public var initial: Duration
  /// The longest wait: doubling stops here.
  public var maximum: Duration
  private var next: Duration

  /// Creates a backoff whose first wait is `initial`.
  ///
  /// - Parameters:
  ///   - initial: The first wait.
  ///   - maximum: The longest wait.
  public init(initial: Duration = .milliseconds(100), maximum: Duration = .seconds(2)) {
    self.initial = initial
    self.maximum = maximum
    next = initial
  }

  /// The wait before the next attempt; each call doubles the following one, up to ``maximum``.
  public mutating func nextDelay() -> Duration {
    defer { next = min(next * 2, maximum) }
    return next
  }

  /// After a success: the next wait is ``initial`` again.
  public mutating func reset() { next = initial }
}
