import Emulator
import Foundation
import Geo
import PermissionHandling
import Testing
import LocationModel

/// A service as a suspended app sees it: its streams say the current value and nothing more.
struct SuspendedService: LocationServiceProtocol {
  let base: LocationService
  var authorizationStatus: LocationPermissionStatus { get async { await base.authorizationStatus } }
  var authorizationStatusStream: AsyncStream<LocationPermissionStatus> {
    let (stream, continuation) = AsyncStream.makeStream(of: LocationPermissionStatus.self)
    continuation.yield(base.phone.status)
    continuation.finish()
    return stream
  }
  var locationServicesStream: AsyncStream<Bool> { AsyncStream { $0.finish() } }
  func requestWhenInUseAuthorization() async -> LocationPermissionStatus { await base.requestWhenInUseAuthorization() }
  func requestLocation() async -> Coordinate? { await base.requestLocation() }
  var locationServicesEnabled: Bool { get async { await base.locationServicesEnabled } }
  func locations() -> AsyncStream<LocationFix> { base.locations() }
}

@Suite("LocationPermissionHandler: the flow, status checks, observers (FR-005, FR-007, FR-013)")
struct LocationPermissionHandlerTests {
  @Test func requestLocationWithPermissionsPromptsThenLocates() async throws {
    let phone = makePhone()
    let handler = LocationPermissionHandler(service: phone.service)
    let flow = phone.start { await handler.requestLocationWithPermissions() }
    try await phone.advance(by: .seconds(1))  // the user allows after 1 s; the fix at 1 s is the next
    let r = try await flow.value
    #expect(r.status == .authorizedWhenInUse && r.reason == nil)
    #expect(r.location == warsaw)
    #expect(r.fix?.timestamp == Date(timeIntervalSince1970: 1_767_225_601) && r.fix?.horizontalAccuracy == 5)
    #expect(r.accuracy == .full)
  }

  @Test func theResultCarriesTheAccuracyAuthorization() async throws {
    let phone = EmulatedPhone(
      .init(permission: PermissionState(appStatus: .authorizedWhenInUse, accuracy: .reduced), source: .fixed(warsaw)), clock: makeClock())
    let handler = LocationPermissionHandler(service: phone.service)
    let r = try await phone.advance(until: phone.start { await handler.requestLocationWithPermissions() })
    #expect(r.accuracy == .reduced && r.fix!.horizontalAccuracy! >= 3000)
  }

  @Test func requestLocationWithPermissionsReportsADenial() async throws {
    let phone = makePhone(answer: .deny)
    let handler = LocationPermissionHandler(service: phone.service)
    let result = try await phone.advance(until: phone.start { await handler.requestLocationWithPermissions() })
    #expect(result == LocationRequestResult(status: .denied, fix: nil, reason: .denied))
    #expect(phone.elapsed == .seconds(1))
  }

  @Test func aRevocationWhileTheFlowWaitsForAFixIsReportedAsSuch() async throws {
    let phone = makePhone(.authorizedWhenInUse, source: .none)
    let handler = LocationPermissionHandler(service: phone.service)
    let flow = phone.start { await handler.requestLocationWithPermissions() }
    try await phone.advance(by: .seconds(2))
    await phone.setAuthorization(.denied)
    #expect(try await flow.value == LocationRequestResult(status: .denied, fix: nil, reason: .revoked))
  }

  @Test func servicesOffIsItsOwnReasonAndNeverPrompts() async {
    let phone = makePhone(services: false)
    let r = await LocationPermissionHandler(service: phone.service).requestLocationWithPermissions()
    #expect(r == LocationRequestResult(status: .denied, fix: nil, reason: .servicesDisabled))
    #expect(!phone.state.promptShown)
  }

  @Test func checkPermissionStatusChangeTellsWhenItBecameAuthorized() async {
    let phone = makePhone(.denied)
    let handler = LocationPermissionHandler(service: phone.service)
    #expect(await handler.checkPermissionStatusChange() == (.denied, false))
    await phone.setAuthorization(.authorizedWhenInUse)
    #expect(await handler.checkPermissionStatusChange() == (.authorizedWhenInUse, true))
    #expect(await handler.checkPermissionStatusChange() == (.authorizedWhenInUse, false))
  }

  @Test func observersHearEachChangeWithItsReasonBeforeTheCallReturns() async {
    let phone = makePhone(.denied)
    let handler = LocationPermissionHandler(service: phone.service)
    let changes = Recorder<PermissionChange>()
    await handler.startObservingLocationPermissionChanges { changes.append($0) }
    #expect(changes.all.isEmpty)  // no call for the state at the start
    await phone.setAuthorization(.authorizedWhenInUse)
    #expect(changes.all.map(\.status) == [.authorizedWhenInUse])  // read right after: no waiting
    await phone.setServicesEnabled(false)
    await phone.setServicesEnabled(true)
    await phone.setAccuracy(.reduced)  // not a permission change
    #expect(changes.all.map(\.status) == [.authorizedWhenInUse, .denied, .authorizedWhenInUse])
    #expect(changes.all.map(\.reason) == [nil, .servicesDisabled, nil])
    #expect(changes.all.map(\.didBecomeAuthorized) == [true, false, true])
    #expect(changes.all.map(\.isAuthorized) == [true, false, true])
  }

  @Test func aPromptTheAppItselfShowedStillCountsAsBecomingAuthorized() async throws {
    let phone = makePhone(.notDetermined, answer: .allowWhileUsing)
    let handler = LocationPermissionHandler(service: phone.service)
    let changes = Recorder<PermissionChange>()
    await handler.startObservingLocationPermissionChanges { changes.append($0) }
    _ = try await phone.advance(until: phone.start { await handler.requestLocationWithPermissions() })
    #expect(changes.all == [PermissionChange(status: .authorizedWhenInUse, didBecomeAuthorized: true, reason: nil)])
  }

  @Test func servicesOffWhileDeniedStillChangesTheReason() async {
    let phone = makePhone(.denied)
    let handler = LocationPermissionHandler(service: phone.service)
    let changes = Recorder<PermissionChange>()
    await handler.startObservingLocationPermissionChanges { changes.append($0) }
    await phone.setServicesEnabled(false)
    #expect(changes.all.map(\.reason) == [.servicesDisabled])
  }

  @Test func aChangeMadeInSettingsWhileAwayIsCaughtOnReturnToTheForeground() async throws {
    let phone = makePhone(.denied)
    // A suspended app hears nothing from the status stream; only the foreground re-check can catch it.
    let handler = LocationPermissionHandler(service: SuspendedService(base: phone.service), lifecycle: phone.service)
    let changes = Recorder<PermissionChange>()
    // Not the phone's own service: the handler watches its streams from tasks, which run on the
    // phone's clock because the observation starts in one of the phone's tasks.
    _ = try await phone.start { await handler.startObservingLocationPermissionChanges { changes.append($0) } }.value
    await phone.setAppState(.background)
    await phone.setAuthorization(.authorizedAlways)
    #expect(changes.all.isEmpty)
    await phone.setAppState(.foreground)
    #expect(changes.all.map(\.status) == [.authorizedAlways])
    #expect(changes.all.first?.didBecomeAuthorized == true)
    handler.stopObservingLocationPermissionChanges()
  }

  @Test func noCallbackAfterStopAndStopIsIdempotent() async {
    let phone = makePhone(.denied)
    let handler = LocationPermissionHandler(service: phone.service)
    let changes = Recorder<PermissionChange>()
    await handler.startObservingLocationPermissionChanges { changes.append($0) }
    await phone.setAuthorization(.authorizedWhenInUse)
    handler.stopObservingLocationPermissionChanges()
    handler.stopObservingLocationPermissionChanges()
    #expect(!handler.isObserving)
    await phone.setAuthorization(.denied)
    await phone.setAppState(.background)
    await phone.setAppState(.foreground)
    #expect(changes.all.map(\.status) == [.authorizedWhenInUse])
    #expect(phone.observerCount == 0 && phone.subscriberCount == 0)
  }

  @Test func stopRacingAChangeNeverCallsBackAfterItReturns() async {
    for _ in 0..<50 {
      let phone = makePhone(.denied, source: .none)
      let handler = LocationPermissionHandler(service: phone.service)
      let stopped = Recorder<Bool>()
      let late = Recorder<Bool>()
      await handler.startObservingLocationPermissionChanges { _ in
        if !stopped.all.isEmpty { late.append(true) }
      }
      // Changes applied from another thread while the test stops.
      let flipper = Task.detached {
        for i in 0..<200 { phone.apply(.permission(i % 2 == 0 ? .authorizedWhenInUse : .denied)) }
      }
      await Task.yield()
      handler.stopObservingLocationPermissionChanges()
      stopped.append(true)
      await flipper.value
      phone.apply(.permission(.authorizedAlways))
      #expect(late.all.isEmpty)
    }
  }
}
