import Clocks
import Emulator
import Foundation
import Geo
import PermissionHandling
import Testing

/// A service as a suspended app sees it: its status stream never speaks after the first value.
struct SuspendedService: LocationServiceProtocol {
  let base: LocationService<TestClock<Duration>>
  var authorizationStatus: LocationPermissionStatus { get async { await base.authorizationStatus } }
  var authorizationStatusStream: AsyncStream<LocationPermissionStatus> {
    let (stream, continuation) = AsyncStream.makeStream(of: LocationPermissionStatus.self)
    continuation.yield(base.emulator.status)
    return stream
  }
  var locationServicesStream: AsyncStream<Bool> { AsyncStream { _ in } }
  func requestWhenInUseAuthorization() async -> LocationPermissionStatus { await base.requestWhenInUseAuthorization() }
  func requestLocation() async -> Coordinate? { await base.requestLocation() }
  var locationServicesEnabled: Bool { get async { await base.locationServicesEnabled } }
}

@Suite("LocationPermissionHandler: the flow, status checks, observers (FR-005, FR-007, FR-013)")
struct LocationPermissionHandlerTests {
  func make(
    _ status: LocationPermissionStatus = .notDetermined, services: Bool = true, answer: PromptAnswer = .allowWhileUsing,
    clock: TestClock<Duration>
  ) -> (PermissionEmulator<TestClock<Duration>>, LocationService<TestClock<Duration>>, LocationPermissionHandler) {
    let os = PermissionEmulator(
      initial: PermissionState(appStatus: status, servicesEnabled: services), promptAnswer: answer, promptDelay: .seconds(1),
      clock: clock)
    let service = LocationService(emulator: os, source: fixedSource(clock))
    return (os, service, LocationPermissionHandler(service: service, lifecycle: os))
  }

  @Test func requestLocationWithPermissionsPromptsThenLocates() async {
    let clock = TestClock()
    let (_, _, handler) = make(clock: clock)
    let r = await advancing(clock, by: .milliseconds(500)) { await handler.requestLocationWithPermissions() }
    #expect(r.status == .authorizedWhenInUse)
    #expect(r.location == warsaw)
    #expect(r.reason == nil)
  }

  @Test func requestLocationWithPermissionsReportsADenial() async {
    let clock = TestClock()
    let (_, _, handler) = make(answer: .deny, clock: clock)
    let result = Task { await handler.requestLocationWithPermissions() }
    await untilSleeping(clock)
    await clock.advance(by: .seconds(1))
    #expect(await result.value == LocationRequestResult(status: .denied, location: nil, reason: .denied))
  }

  @Test func servicesOffIsItsOwnReasonAndNeverPrompts() async {
    let clock = TestClock()
    let (os, _, handler) = make(services: false, clock: clock)
    let r = await handler.requestLocationWithPermissions()
    #expect(r == LocationRequestResult(status: .denied, location: nil, reason: .servicesDisabled))
    #expect(!os.state.promptShown)
  }

  @Test func checkPermissionStatusChangeTellsWhenItBecameAuthorized() async {
    let clock = TestClock()
    let (os, _, handler) = make(.denied, clock: clock)
    #expect(await handler.checkPermissionStatusChange() == (.denied, false))
    await os.setAuthorization(.authorizedWhenInUse)
    #expect(await handler.checkPermissionStatusChange() == (.authorizedWhenInUse, true))
    #expect(await handler.checkPermissionStatusChange() == (.authorizedWhenInUse, false))
  }

  @Test func observersHearEachChangeWithItsReason() async {
    let clock = TestClock()
    let (os, _, handler) = make(.denied, clock: clock)
    let changes = Recorder<PermissionChange>()
    await handler.startObservingLocationPermissionChanges { changes.append($0) }
    await settle()
    #expect(changes.all.isEmpty)  // no call for the state at the start
    await os.setAuthorization(.authorizedWhenInUse)
    await settle()
    await os.setServicesEnabled(false)
    await settle()
    await os.setServicesEnabled(true)
    await settle()
    await os.setAccuracy(.reduced)  // not a permission change
    await settle()
    #expect(changes.all.map(\.status) == [.authorizedWhenInUse, .denied, .authorizedWhenInUse])
    #expect(changes.all.map(\.reason) == [nil, .servicesDisabled, nil])
    #expect(changes.all.map(\.didBecomeAuthorized) == [true, false, true])
    #expect(changes.all.map(\.isAuthorized) == [true, false, true])
  }

  @Test func servicesOffWhileDeniedStillChangesTheReason() async {
    let clock = TestClock()
    let (os, _, handler) = make(.denied, clock: clock)
    let changes = Recorder<PermissionChange>()
    await handler.startObservingLocationPermissionChanges { changes.append($0) }
    await settle()
    await os.setServicesEnabled(false)
    await settle()
    #expect(changes.all.map(\.reason) == [.servicesDisabled])
  }

  @Test func aChangeMadeInSettingsWhileAwayIsCaughtOnReturnToTheForeground() async {
    let clock = TestClock()
    let (os, service, _) = make(.denied, clock: clock)
    // A suspended app hears nothing from the status stream; only the foreground re-check can catch it.
    let handler = LocationPermissionHandler(service: SuspendedService(base: service), lifecycle: os)
    let changes = Recorder<PermissionChange>()
    await handler.startObservingLocationPermissionChanges { changes.append($0) }
    await settle()
    await os.setAppState(.background)
    await os.setAuthorization(.authorizedAlways)
    await settle()
    #expect(changes.all.isEmpty)
    await os.setAppState(.foreground)
    await settle()
    #expect(changes.all.map(\.status) == [.authorizedAlways])
    #expect(changes.all.first?.didBecomeAuthorized == true)
  }

  @Test func noCallbackAfterStopAndStopIsIdempotent() async {
    let clock = TestClock()
    let (os, _, handler) = make(.denied, clock: clock)
    let changes = Recorder<PermissionChange>()
    await handler.startObservingLocationPermissionChanges { changes.append($0) }
    await settle()
    await os.setAuthorization(.authorizedWhenInUse)
    await settle()
    await handler.stopObservingLocationPermissionChanges()
    await handler.stopObservingLocationPermissionChanges()
    #expect(await !handler.isObserving)
    await os.setAuthorization(.denied)
    await os.setAppState(.background)
    await os.setAppState(.foreground)
    await settle()
    #expect(changes.all.map(\.status) == [.authorizedWhenInUse])
    // Its subscriptions are gone too.
    for _ in 0..<100 where os.subscriberCount > 0 { await Task.yield() }
    #expect(os.subscriberCount == 0)
  }

  @Test func stopRacingAChangeNeverCallsBackAfterItReturns() async {
    for _ in 0..<50 {
      let clock = TestClock()
      let (os, _, handler) = make(.denied, clock: clock)
      let stopped = Recorder<Bool>()
      let late = Recorder<Bool>()
      await handler.startObservingLocationPermissionChanges { _ in
        if !stopped.all.isEmpty { late.append(true) }
      }
      let flipper = Task {
        for i in 0..<200 { await os.setAuthorization(i % 2 == 0 ? .authorizedWhenInUse : .denied) }
      }
      await Task.yield()
      await handler.stopObservingLocationPermissionChanges()
      stopped.append(true)
      await flipper.value
      await settle()
      #expect(late.all.isEmpty)
    }
  }
}
