import Emulator
import Foundation
import Geo
import Testing
import LocationModel

/// The location service's rules as a value: gating, reduced accuracy, one-shot requests.
@Suite("LocationGateStateMachine: gating, reduced accuracy, one-shot requests")
struct LocationGateStateMachineTests {
  let warsaw = Coordinate(latitude: 52.2297, longitude: 21.0122)!
  let authorized = PermissionState(appStatus: .authorizedWhenInUse)

  func fix(_ second: Double) -> LocationFix {
    LocationFix(timestamp: Date(timeIntervalSince1970: 1_767_225_600 + second), mode: .twoD, coordinate: warsaw, horizontalAccuracy: 5)
  }

  @Test func fixesReachTheAppOnlyWhileAuthorizedWithServicesOn() {
    var gate = LocationGateStateMachine()
    #expect(gate.receive(fix(0), now: .zero, permission: authorized) == [.deliver(fix(0))])
    #expect(gate.receive(fix(1), now: .seconds(1), permission: PermissionState(appStatus: .denied)) == [])
    #expect(gate.receive(fix(2), now: .seconds(2), permission: PermissionState(appStatus: .authorizedAlways, servicesEnabled: false)) == [])
    // The source's newest fix is known whatever the permission.
    #expect(gate.latestFix == fix(2))
  }

  /// The phone's path for a fix while no request waits gives what `receive` gives, and leaves
  /// the gate in the same state: over precise and approximate accuracy (throttled, by the fixes'
  /// times and, for fixes without one, by the clock), denial, Location Services off, the
  /// background, a paused source and no-fix reports.
  @Test func receiveForStreamIsReceiveWithoutRequests() {
    let states: [PermissionState] = [
      authorized, PermissionState(appStatus: .authorizedWhenInUse, accuracy: .reduced), PermissionState(appStatus: .denied),
      PermissionState(appStatus: .authorizedAlways, servicesEnabled: false),
      PermissionState(appStatus: .authorizedWhenInUse, app: .background),
    ]
    var a = LocationGateStateMachine(), b = LocationGateStateMachine()
    for second in 0..<4_000 {
      let state = states[(second / 300) % states.count]
      var fix = fix(Double(second))
      if second % 7 == 0 { fix.timestamp = nil }
      if second % 11 == 0 { fix.mode = .noFix }
      if second % 500 == 0 {
        a.setSourcePaused(second % 1000 == 0)
        b.setSourcePaused(second % 1000 == 0)
      }
      let now = Duration.seconds(second)
      let viaActions = a.receive(fix, now: now, permission: state)
      var streamed = fix
      let delivered = b.receiveForStream(&streamed, now: now, permission: state)
      #expect(viaActions == (delivered ? [.deliver(streamed)] : []), "second \(second)")
    }
    #expect(a == b)
  }

  // MARK: iOS's background rule (issue 16, item 13)

  @Test func aWhenInUseAppGetsNoLocationsInTheBackgroundAndGetsThemBackInTheForeground() {
    var gate = LocationGateStateMachine()
    var state = authorized
    state.app = .background
    #expect(!state.isDelivering && state.unavailableReason == .inBackground)
    #expect(gate.receive(fix(0), now: .zero, permission: state) == [])
    state.app = .foreground
    #expect(gate.receive(fix(1), now: .seconds(1), permission: state) == [.deliver(fix(1))])
  }

  @Test(arguments: [
    PermissionState(appStatus: .authorizedAlways, app: .background),
    PermissionState(appStatus: .authorizedWhenInUse, app: .background, backgroundLocationUpdates: true),
  ])
  func alwaysOrBackgroundUpdatesKeepDeliveringInTheBackground(state: PermissionState) {
    var gate = LocationGateStateMachine()
    #expect(state.isDelivering)
    #expect(gate.receive(fix(0), now: .zero, permission: state) == [.deliver(fix(0))])
  }

  @Test func aRequestInTheBackgroundWaitsForTheForeground() {
    var gate = LocationGateStateMachine()
    var state = authorized
    state.app = .background
    let (id, actions) = gate.request(now: .zero, permission: state)
    #expect(id == 0 && actions == [.armRequestTimer(request: 0, deadline: .seconds(10))])
    #expect(gate.receive(fix(1), now: .seconds(1), permission: state) == [])
    #expect(gate.permissionChanged(to: state) == [])
    state.app = .foreground
    let result = LocationRequestResult(status: .authorizedWhenInUse, fix: fix(2), accuracy: .full, reason: nil)
    #expect(
      gate.receive(fix(2), now: .seconds(2), permission: state)
        == [.cancelRequestTimer(request: 0), .resolve(request: 0, result), .deliver(fix(2))])
  }

  @Test func aRequestStillInTheBackgroundAtItsDeadlineSaysWhy() {
    var gate = LocationGateStateMachine()
    var state = authorized
    state.app = .background
    _ = gate.request(now: .zero, permission: state)
    #expect(gate.requestTimedOut(0, permission: state) == [.resolve(request: 0, .unavailable(.inBackground, in: state))])
  }

  @Test func aPausedSourceAndNoFixReportsDeliverNothing() {
    var gate = LocationGateStateMachine()
    gate.setSourcePaused(true)
    #expect(gate.receive(fix(0), now: .zero, permission: authorized) == [])
    gate.setSourcePaused(false)
    #expect(gate.receive(LocationFix(mode: .noFix), now: .seconds(1), permission: authorized) == [])
    #expect(gate.latestFix == nil)
  }

  @Test(arguments: [
    (PermissionState(appStatus: .denied), LocationUnavailableReason.denied),
    (PermissionState(appStatus: .restricted), .restricted),
    (PermissionState(appStatus: .notDetermined), .notDetermined),
    (PermissionState(appStatus: .authorizedWhenInUse, servicesEnabled: false), .servicesDisabled),
  ])
  func aRequestEndsAtOnceWhenTheAppMayNotHaveALocation(permission: PermissionState, reason: LocationUnavailableReason) {
    var gate = LocationGateStateMachine()
    let (id, actions) = gate.request(now: .zero, permission: permission)
    #expect(id == nil)
    #expect(actions == [.resolve(request: 0, .unavailable(reason, in: permission))])
  }

  @Test func aRequestGetsTheNextFixWithItsAccuracyAuthorization() {
    var gate = LocationGateStateMachine(requestTimeout: .seconds(10))
    let (id, actions) = gate.request(now: .seconds(3), permission: authorized)
    #expect(actions == [.armRequestTimer(request: id!, deadline: .seconds(13))])
    let result = LocationRequestResult(status: .authorizedWhenInUse, fix: fix(4), accuracy: .full, reason: nil)
    #expect(
      gate.receive(fix(4), now: .seconds(4), permission: authorized)
        == [.cancelRequestTimer(request: id!), .resolve(request: id!, result), .deliver(fix(4))])
    #expect(gate.pendingRequests.isEmpty)
  }

  @Test func aRequestTimesOutWithItsOwnReason() {
    var gate = LocationGateStateMachine()
    let id = gate.request(now: .zero, permission: authorized).id!
    #expect(gate.requestTimedOut(id, permission: authorized) == [.resolve(request: id, .unavailable(.locationUnavailable, in: authorized))])
    #expect(gate.requestTimedOut(id, permission: authorized) == [])
  }

  @Test func aRevocationWhileWaitingEndsTheRequestAsRevokedWithTheNewStatus() {
    var gate = LocationGateStateMachine()
    let id = gate.request(now: .zero, permission: authorized).id!
    let denied = PermissionState(appStatus: .denied)
    #expect(
      gate.permissionChanged(to: denied)
        == [.cancelRequestTimer(request: id), .resolve(request: id, LocationRequestResult(status: .denied, fix: nil, reason: .revoked))])
    let other = gate.request(now: .zero, permission: authorized).id!
    let off = PermissionState(appStatus: .authorizedWhenInUse, servicesEnabled: false)
    #expect(gate.permissionChanged(to: off).last == .resolve(request: other, .unavailable(.servicesDisabled, in: off)))
  }

  @Test func reducedAccuracyCoarsensEveryFixAndThrottlesOnlyTheStream() {
    var gate = LocationGateStateMachine()
    var reduced = authorized
    reduced.accuracy = .reduced
    guard case .deliver(let first) = gate.receive(fix(0), now: .zero, permission: reduced).last else {
      Issue.record("the first fix is delivered")
      return
    }
    #expect(first.horizontalAccuracy! >= 3000 && first.coordinate != warsaw && first.speed == nil)
    // Within 15 minutes of fix time: nothing on the stream, but a request still gets it.
    let id = gate.request(now: .seconds(60), permission: reduced).id!
    let actions = gate.receive(fix(60), now: .seconds(60), permission: reduced)
    #expect(actions.count == 2)
    #expect(
      actions.contains { if case .resolve(id, let r) = $0 { r.fix?.horizontalAccuracy == 3000 && r.accuracy == .reduced } else { false } })
    #expect(gate.receive(fix(899), now: .seconds(899), permission: reduced) == [])
    #expect(gate.receive(fix(900), now: .seconds(900), permission: reduced).count == 1)
  }

  @Test func theThrottleFollowsTheFixesOwnTimesNotTheClock() {
    // A replay at 100×: 15 minutes of fix time pass in 9 s on the clock.
    var gate = LocationGateStateMachine()
    var reduced = authorized
    reduced.accuracy = .reduced
    var delivered = 0
    for step in 0...20 {
      let second = Double(step) * 60
      delivered += gate.receive(fix(second), now: .milliseconds(Int64(second * 10)), permission: reduced).count
    }
    #expect(delivered == 2)  // at 0 and at 900 s of fix time
  }

  @Test func coarseningKeepsPositionsValidAtTheEdges() {
    let grid = ReducedAccuracy()
    for (lat, lon) in [(89.99, 179.99), (-89.99, -179.99), (0.0, 0.0), (-33.86, 151.21)] {
      #expect(grid.coarsen(LocationFix(mode: .threeD, coordinate: Coordinate(latitude: lat, longitude: lon))).coordinate != nil)
    }
  }
}
