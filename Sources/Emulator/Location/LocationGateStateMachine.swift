import Foundation
import Geo
public import LocationModel

/// What reduced (approximate) accuracy does to locations, as on iOS: positions snapped to a
/// grid of `gridMeters`, horizontal accuracy at least that, no altitude, speed or course, and
/// at most one update per `minimumInterval`.
public struct ReducedAccuracy: Sendable, Hashable {
  /// The size of the grid's cells, in metres: positions move to a cell's centre, and accuracy is at least this.
  public var gridMeters: Double
  /// The shortest time between two fixes of the continuous stream.
  public var minimumInterval: Duration

  /// iOS documents approximate locations as good to roughly 1–20 km, updated a few times an hour.
  public init(gridMeters: Double = 3000, minimumInterval: Duration = .seconds(15 * 60)) {
    self.gridMeters = gridMeters
    self.minimumInterval = minimumInterval
  }

  /// The coarsened fix: the centre of its grid cell.
  public func coarsen(_ fix: LocationFix) -> LocationFix {
    guard let c = fix.coordinate else { return fix }
    let cellLatitude = gridMeters / 111_195.0
    let latitude = (c.latitude / cellLatitude).rounded(.down) * cellLatitude + cellLatitude / 2
    let cellLongitude = min(360, cellLatitude / max(0.01, cos(min(89.9, abs(latitude)) * .pi / 180)))
    let longitude = (c.longitude / cellLongitude).rounded(.down) * cellLongitude + cellLongitude / 2
    var out = LocationFix(timestamp: fix.timestamp, mode: .twoD)
    out.coordinate = Coordinate(
      latitude: Swift.max(-90, Swift.min(90, latitude)), longitude: Swift.max(-180, Swift.min(180, longitude)))
    out.horizontalAccuracy = Swift.max(fix.horizontalAccuracy ?? 0, gridMeters)
    return out
  }
}

/// The location service's rules, as a value: which of the source's fixes reach the app, and
/// how one-shot requests end. Each event returns the actions its runtime must perform, in
/// order; time comes in as an argument.
///
/// - Fixes reach the app only while it is authorized with Location Services on and, as on iOS,
///   an app authorized only when in use gets none in the background unless it declared
///   background location updates (``PermissionState/isDelivering``,
///   ``PermissionState/backgroundLocationUpdates``); it gets them again in the foreground.
///   Nor while the source is paused (a lost fix).
///   A no-fix report is no location.
/// - Reduced accuracy coarsens every fix (``ReducedAccuracy``) and throttles the continuous
///   stream to one fix per ``ReducedAccuracy/minimumInterval``, measured by the fixes' own
///   times when they have them (a sped-up replay keeps the pattern), else by the clock. A
///   one-shot request is coarsened but not throttled.
/// - A one-shot request ends with the next fix that reaches the app; at once when the app may
///   not have one (but one made, or waiting, in the background waits for the foreground, and
///   ends with ``LocationUnavailableReason/inBackground`` if its deadline comes first);
///   with ``LocationUnavailableReason/locationUnavailable`` after
///   ``requestTimeout``; with ``LocationUnavailableReason/revoked`` (or
///   ``LocationUnavailableReason/servicesDisabled``) when permission goes while it waits.
package struct LocationGateStateMachine: Sendable, Hashable {
  /// What the runtime does, in the order given.
  package enum Action: Sendable, Hashable {
    /// End request `id` with `result`.
    case resolve(request: UInt64, LocationRequestResult)
    /// Call ``requestTimedOut(_:permission:)`` for `request` at `deadline`.
    case armRequestTimer(request: UInt64, deadline: Duration)
    /// Disarm the request's timer.
    case cancelRequestTimer(request: UInt64)
    /// Deliver the fix to the app's continuous location stream.
    case deliver(LocationFix)
  }

  package let requestTimeout: Duration
  package let reducedAccuracy: ReducedAccuracy
  /// Whether the source's fixes are held back (a tunnel, a lost fix).
  package private(set) var isSourcePaused = false
  /// The newest fix from the source while not paused, whatever the permission (for diagnostics).
  package private(set) var latestFix: LocationFix?
  /// Requests waiting for a fix, oldest first.
  package private(set) var pendingRequests: [UInt64] = []
  private var nextRequest: UInt64 = 0
  private var lastReducedDelivery: ReducedDelivery?

  private struct ReducedDelivery: Sendable, Hashable {
    var at: Duration
    var timestamp: Date?
  }

  package init(requestTimeout: Duration = .seconds(10), reducedAccuracy: ReducedAccuracy = ReducedAccuracy()) {
    self.requestTimeout = requestTimeout
    self.reducedAccuracy = reducedAccuracy
  }

  /// The app asks for one location at `now`. Returns the request's id, or nil when it ended at once.
  package mutating func request(now: Duration, permission: PermissionState) -> (id: UInt64?, actions: [Action]) {
    let id = nextRequest
    nextRequest &+= 1
    // A request made in the background waits for the foreground (or its deadline).
    if let reason = permission.unavailableReason, reason != .inBackground {
      return (nil, [.resolve(request: id, .unavailable(reason, in: permission))])
    }
    pendingRequests.append(id)
    return (id, [.armRequestTimer(request: id, deadline: now + requestTimeout)])
  }

  /// Request `id`'s timer fired: no fix arrived in time.
  package mutating func requestTimedOut(_ id: UInt64, permission: PermissionState) -> [Action] {
    guard let index = pendingRequests.firstIndex(of: id) else { return [] }
    pendingRequests.remove(at: index)
    let reason: LocationUnavailableReason = permission.isHeldInBackground ? .inBackground : .locationUnavailable
    return [.resolve(request: id, .unavailable(reason, in: permission))]
  }

  /// Request `id`'s caller gave up (its task was cancelled).
  package mutating func cancelRequest(_ id: UInt64, permission: PermissionState) -> [Action] {
    guard let index = pendingRequests.firstIndex(of: id) else { return [] }
    pendingRequests.remove(at: index)
    return [.cancelRequestTimer(request: id), .resolve(request: id, .unavailable(.cancelled, in: permission))]
  }

  /// A fix from the source at `now`.
  package mutating func receive(_ fix: LocationFix, now: Duration, permission: PermissionState) -> [Action] {
    var fix = fix
    guard let toStream = admit(&fix, now: now, permission: permission) else { return [] }
    guard !pendingRequests.isEmpty else { return toStream ? [.deliver(fix)] : [] }
    var actions: [Action] = []
    let result = LocationRequestResult(status: permission.status, fix: fix, accuracy: permission.accuracy, reason: nil)
    for id in pendingRequests { actions += [.cancelRequestTimer(request: id), .resolve(request: id, result)] }
    pendingRequests.removeAll()
    if toStream { actions.append(.deliver(fix)) }
    return actions
  }

  /// ``receive(_:now:permission:)`` while no request waits (``pendingRequests`` is empty: the
  /// usual case, a fix on its way to the app's stream), without an array of actions and without
  /// a copy of the fix: whether to deliver `fix`, as it is left (coarsened under reduced
  /// accuracy); the same state changes.
  ///
  /// `now` is read only when reduced accuracy needs it (a phone's clock takes a lock for it).
  package mutating func receiveForStream(
    _ fix: inout LocationFix, now: @autoclosure () -> Duration, permission: PermissionState
  ) -> Bool {
    precondition(pendingRequests.isEmpty, "receive(_:now:permission:) ends the waiting requests")
    return admit(&fix, now: now(), permission: permission) == true
  }

  /// Whether `fix` reaches the app (nil: it does not), coarsened in place under reduced
  /// accuracy, and whether it goes to the stream (reduced accuracy throttles it).
  private mutating func admit(
    _ fix: inout LocationFix, now: @autoclosure () -> Duration, permission: PermissionState
  ) -> Bool? {
    guard !isSourcePaused, fix.hasFix else { return nil }
    latestFix = fix
    guard permission.isDelivering else { return nil }
    guard permission.accuracy == .reduced else { return true }
    fix = reducedAccuracy.coarsen(fix)
    let now = now()
    var toStream = true
    if let last = lastReducedDelivery {
      let since: Duration =
        if let a = last.timestamp, let b = fix.timestamp {
          .milliseconds(Int64((b.timeIntervalSince(a) * 1000).rounded()))
        } else {
          now - last.at
        }
      toStream = since >= reducedAccuracy.minimumInterval
    }
    if toStream { lastReducedDelivery = ReducedDelivery(at: now, timestamp: fix.timestamp) }
    return toStream
  }

  /// Permission changed: requests waiting while the app lost it end now.
  package mutating func permissionChanged(to permission: PermissionState) -> [Action] {
    // Held in the background, requests wait for the foreground or their deadline.
    guard !permission.isDelivering, !permission.isHeldInBackground, !pendingRequests.isEmpty else { return [] }
    let reason: LocationUnavailableReason = permission.servicesEnabled ? .revoked : .servicesDisabled
    var actions: [Action] = []
    for id in pendingRequests {
      actions += [.cancelRequestTimer(request: id), .resolve(request: id, .unavailable(reason, in: permission))]
    }
    pendingRequests.removeAll()
    return actions
  }

  /// Holds back (true) or lets through (false) the source's fixes.
  package mutating func setSourcePaused(_ paused: Bool) { isSourcePaused = paused }

  /// Ends every waiting request (the phone shuts down).
  package mutating func cancelAll(permission: PermissionState) -> [Action] {
    var actions: [Action] = []
    for id in pendingRequests {
      actions += [.cancelRequestTimer(request: id), .resolve(request: id, .unavailable(.cancelled, in: permission))]
    }
    pendingRequests.removeAll()
    return actions
  }
}
