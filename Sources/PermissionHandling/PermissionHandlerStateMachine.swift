public import LocationModel

/// What observers of ``LocationPermissionHandler`` are told.
public struct PermissionChange: Sendable, Hashable {
  public var status: LocationPermissionStatus
  /// The app went from not authorized to authorized with this change, whoever caused it (a
  /// Settings change, a prompt the app itself showed, Location Services coming back).
  public var didBecomeAuthorized: Bool
  /// Why the app is not authorized (nil when it is); services off has its own reason.
  public var reason: LocationUnavailableReason?

  public init(status: LocationPermissionStatus, didBecomeAuthorized: Bool, reason: LocationUnavailableReason?) {
    self.status = status
    self.didBecomeAuthorized = didBecomeAuthorized
    self.reason = reason
  }

  public var isAuthorized: Bool { status.isAuthorized && reason == nil }
}

/// The permission handler's bookkeeping, as a value: what an observer is told for each change
/// it sees, and what ``LocationPermissionHandler/checkPermissionStatusChange()`` answers.
///
/// The observer and the status check keep separate baselines, so that a check, or the
/// location flow's own prompt, never hides a change from the observer: the observer reports
/// `didBecomeAuthorized` whenever the app goes from not authorized (as last reported) to
/// authorized.
package struct PermissionHandlerStateMachine: Sendable, Hashable {
  /// The status the last check (or the location flow) saw.
  package private(set) var lastChecked: LocationPermissionStatus?
  /// What the observer was last told, or the state when it started observing.
  package private(set) var lastReported: PermissionChange?

  package init() {}

  /// Observation starts from `status` and the services switch (not reported).
  package mutating func startObserving(status: LocationPermissionStatus, servicesEnabled: Bool) {
    lastReported = PermissionChange(
      status: status, didBecomeAuthorized: false, reason: Self.reason(status: status, servicesEnabled: servicesEnabled))
  }

  package mutating func stopObserving() { lastReported = nil }

  /// The observer saw `status` (from the stream, a services switch or a return to the
  /// foreground): the change to report, or nil when nothing changed for it.
  package mutating func observed(status: LocationPermissionStatus, servicesEnabled: Bool) -> PermissionChange? {
    guard let last = lastReported else { return nil }
    let reason = Self.reason(status: status, servicesEnabled: servicesEnabled)
    guard status != last.status || reason != last.reason else { return nil }
    let change = PermissionChange(
      status: status, didBecomeAuthorized: reason == nil && status.isAuthorized && !last.isAuthorized, reason: reason)
    lastReported = change
    return change
  }

  /// `checkPermissionStatusChange()`: the status now, and whether it became authorized since
  /// the last check (never on the first).
  package mutating func check(status: LocationPermissionStatus) -> (status: LocationPermissionStatus, didBecomeAuthorized: Bool) {
    let was = lastChecked
    lastChecked = status
    return (status, status.isAuthorized && was.map { !$0.isAuthorized } == true)
  }

  /// The location flow saw `status` (after its prompt): the next check compares with it.
  package mutating func flowSaw(_ status: LocationPermissionStatus) { lastChecked = status }

  /// Why the app is not authorized with `status` and the services switch; nil when it is.
  package static func reason(status: LocationPermissionStatus, servicesEnabled: Bool) -> LocationUnavailableReason? {
    LocationUnavailableReason(status: status, servicesEnabled: servicesEnabled)
  }
}
