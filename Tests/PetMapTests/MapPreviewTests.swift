import Emulator
import Foundation
import Geo
import PermissionHandling
import PetMap
import Testing
import LocationModel

/// The landing-page map preview spec (ios-landing-page-map-preview.spec.md), on a phone's
/// virtual clock: each test steps time and asserts right after.
@Suite struct MapPreviewTests {
  @Test func mapPreview_FR001_sitsBetweenDescriptionAndRecentlyLostPets() {
    let sections = LandingPageSection.allCases
    let index = sections.firstIndex(of: .mapPreview)!
    #expect(sections[index - 1] == .description)
    #expect(sections[index + 1] == .recentlyLostPets)
  }

  @Test func mapPreview_US1_AS2_FR003_centersOnTheUserWithA10kmRadius() async throws {
    let h = PreviewHarness()
    #expect(try await h.startLoaded(at: warsaw))
    let region = try #require(h.state.region)
    #expect(region.center == warsaw)
    // At least 10 km to every side: 20 km of latitude (the 16:9 frame widens the longitude).
    #expect(abs(region.latitudeDelta * 111_195 - 20_000) < 50)
    #expect(region.contains(north(of: warsaw, 9_900)))
    #expect(!region.contains(north(of: warsaw, 10_100)))
    #expect(h.preview.userLocation == warsaw)
  }

  @Test func mapPreview_FR001a_regionIsFramed16by9() async throws {
    let h = PreviewHarness()
    #expect(try await h.startLoaded())
    let region = try #require(h.state.region)
    let frame = WebMercator.frame(of: region)
    #expect(abs(frame.width / frame.height - 16.0 / 9.0) < 0.01)
  }

  @Test func mapPreview_US2_AS3_authorizedShowsTheMapWithoutAPrompt() async throws {
    let h = PreviewHarness(status: .authorizedAlways)
    #expect(try await h.startLoaded())
    #expect(h.stateNames == ["loading", "map"])
    #expect(!h.phone.state.promptShown)
  }

  @Test(arguments: [LocationPermissionStatus.notDetermined, .denied, .restricted])
  func mapPreview_US2_AS1_FR006_notAuthorizedShowsPermissionRequired(status: LocationPermissionStatus) async throws {
    let h = PreviewHarness(status: status)
    try await h.start()
    guard case .permissionRequired(let message) = h.state else {
      Issue.record("expected permissionRequired, got \(h.state)")
      return
    }
    #expect(message == MapStrings().permissionRequiredMessage)
    #expect(h.preview.goToSettings())
    #expect(h.settingsTaps.all.count == 1)
  }

  @Test func mapPreview_FR013_neverRequestsPermission() async throws {
    let h = PreviewHarness(status: .notDetermined, source: .fixed(warsaw))
    let prompts = Recorder<PhoneEvent>()
    let observation = h.phone.observe { if case .permission = $0 { prompts.append($0) } }
    try await h.start()
    try await h.phone.advance(by: .seconds(30))
    #expect(h.state.name == "permissionRequired")
    #expect(prompts.all.isEmpty)
    #expect(!h.phone.state.promptShown && h.phone.status == .notDetermined)
    observation.cancel()
  }

  @Test func mapPreview_US2_AS2_FR007_grantThroughAPromptElsewhereLoadsTheMap() async throws {
    let h = PreviewHarness(status: .notDetermined, source: .fixed(warsaw))
    try await h.start()
    #expect(h.state.name == "permissionRequired")
    // Another screen asks; the user allows after a second, and the preview loads at once.
    let asking = h.phone.start { await h.phone.service.requestWhenInUseAuthorization() }
    try await h.phone.advance(by: .seconds(1))
    #expect(try await asking.value == .authorizedWhenInUse)
    // The fix at 1 s came before the answer at 1 s: the load waits for the one at 2 s.
    #expect(h.state == .loading)
    try await h.phone.advance(by: .seconds(1))
    #expect(h.state.name == "map")
    #expect(h.stateNames == ["permissionRequired", "loading", "map"])
  }

  @Test func mapPreview_US2_AS4_returningFromSettingsUpdatesTheState() async throws {
    let h = PreviewHarness(status: .denied)
    try await h.start()
    await h.phone.setAppState(.background)
    await h.phone.setAuthorization(.authorizedWhenInUse)
    await h.phone.setAppState(.foreground)
    #expect(h.state == .loading)
    await h.deliverFix()
    #expect(h.state.name == "map")
    // And back: revoked in Settings, noticed on return.
    await h.phone.setAppState(.background)
    await h.phone.setAuthorization(.denied)
    await h.phone.setAppState(.foreground)
    #expect(h.state.name == "permissionRequired")
  }

  @Test func mapPreview_edge_servicesOffShowsThePermissionState() async throws {
    let h = PreviewHarness(status: .authorizedWhenInUse, servicesEnabled: false)
    try await h.start()
    #expect(h.state.name == "permissionRequired")
    await h.phone.setServicesEnabled(true)
    #expect(h.state == .loading)
    await h.deliverFix()
    #expect(h.state.name == "map")
    await h.phone.setServicesEnabled(false)
    // Read right after the switch: the callback has run.
    #expect(h.state.name == "permissionRequired")
  }

  @Test func mapPreview_US1_AS4_FR004a_FR004b_tapOnTheMapCallsBackAndLogs() async throws {
    let h = PreviewHarness()
    #expect(try await h.startLoaded())
    #expect(h.preview.tap())
    #expect(h.taps.all.count == 1)
    #expect(h.logs.all.contains("map preview tapped"))
  }

  @Test func mapPreview_US1_AS5_FR004c_tapIgnoredWhileLoading() async throws {
    let h = PreviewHarness()
    try await h.start()
    #expect(h.state == .loading)
    #expect(h.preview.tap() == false)
    #expect(h.taps.all.isEmpty)
    #expect(!h.logs.all.contains("map preview tapped"))
  }

  @Test func mapPreview_FR004c_tapIgnoredInTheErrorAndPermissionStates() async throws {
    let h = PreviewHarness()
    try await h.start()
    try await h.phone.advance(by: .seconds(10))
    #expect(h.state.name == "error")
    #expect(h.preview.tap() == false)
    let denied = PreviewHarness(status: .denied)
    try await denied.start()
    #expect(denied.preview.tap() == false)
    #expect(h.taps.all.isEmpty && denied.taps.all.isEmpty)
  }

  @Test func mapPreview_US1_AS6_FR008_slowLoadingShowsTheLoadingState() async throws {
    let clock = makeClock()
    let h = PreviewHarness(clock: clock, repository: SlowRepository(clock: clock, delay: .seconds(1), answer: []))
    try await h.start()
    await h.deliverFix()
    // The repository answers after a second on the phone's clock: loading meanwhile.
    try await h.phone.advance(by: .milliseconds(999))
    #expect(h.state == .loading)
    try await h.phone.advance(by: .milliseconds(1))
    #expect(h.state.name == "map")
    #expect(h.stateNames == ["loading", "map"])
  }

  @Test func mapPreview_edge_slowNetworkTimesOutAfter10Seconds() async throws {
    let clock = makeClock()
    let h = PreviewHarness(clock: clock, repository: SlowRepository(clock: clock, delay: .seconds(60), answer: []))
    try await h.start()
    await h.deliverFix()
    try await h.phone.advance(by: .milliseconds(9_999))
    #expect(h.state == .loading)
    try await h.phone.advance(by: .milliseconds(1))
    #expect(h.state.name == "error")
    #expect(h.preview.lastError == .timedOut)
    // The load was cancelled: nothing of it is left.
    #expect(h.phone.taskCount == 0 && h.clock.pendingTimerCount == 0)
  }

  @Test func mapPreview_US1_AS7_FR009_failureShowsAMessageAndRetry() async throws {
    let h = PreviewHarness(snapshotter: BrokenSnapshotter(mode: .fail))
    try await h.start()
    await h.deliverFix()
    guard case .error(let message) = h.state else {
      Issue.record("expected the error state, got \(h.state)")
      return
    }
    #expect(message == MapStrings().loadErrorMessage)
    #expect(MapStrings().retry == "Retry")
    if case .snapshotFailed = h.preview.lastError {} else { Issue.record("expected a snapshot failure") }
  }

  @Test func mapPreview_FR010_retryReattemptsWithoutRestart() async throws {
    let h = PreviewHarness()
    try await h.start()
    try await h.phone.advance(by: .seconds(10))  // no fix arrives: error
    #expect(h.state.name == "error")
    #expect(h.preview.retry())
    #expect(h.state == .loading)
    await h.deliverFix()
    #expect(h.state.name == "map")
    #expect(h.preview.loadCount == 2)
    #expect(h.stateNames == ["loading", "error", "loading", "map"])
    // Retry does nothing outside the error state.
    #expect(h.preview.retry() == false)
  }

  @Test func mapPreview_edge_userMovesButTheMapKeepsTheEntryLocation() async throws {
    let h = PreviewHarness()
    #expect(try await h.startLoaded(at: warsaw))
    for _ in 0..<5 { await h.deliverFix(at: krakow) }
    #expect(h.state.region?.center == warsaw)
    #expect(h.preview.loadCount == 1)
  }

  @Test func mapPreview_edge_backgroundForegroundKeepsTheState() async throws {
    let h = PreviewHarness()
    #expect(try await h.startLoaded())
    let before = h.state
    await h.phone.setAppState(.background)
    await h.phone.setAppState(.foreground)
    #expect(h.state == before)
    #expect(h.preview.loadCount == 1)
    #expect(h.stateNames == ["loading", "map"])
  }

  @Test func mapPreview_edge_lowAccuracyStillCentersOnTheApproximateLocation() async throws {
    let h = PreviewHarness(accuracy: .reduced)
    #expect(try await h.startLoaded(at: warsaw))
    let center = try #require(h.state.region?.center)
    // Reduced accuracy moves the point to its 3 km grid cell's centre: near, not exact.
    #expect(center != warsaw)
    #expect(center.distance(to: warsaw) < 3_000)
  }

  @Test func mapPreview_FR002a_snapshotRendersAsynchronously() async throws {
    let clock = makeClock()
    let h = PreviewHarness(clock: clock, snapshotter: BrokenSnapshotter(mode: .hang(clock)))
    try await h.start()
    await h.deliverFix()
    // The snapshot is still rendering; the model answers meanwhile.
    #expect(h.preview.tap() == false)
    #expect(h.state == .loading)
    try await h.phone.advance(by: .seconds(10))
    #expect(h.state.name == "error")
    #expect(h.preview.lastError == .timedOut)
  }

  @Test func mapPreview_SC001_mapVisibleWithin3SecondsOfEntry() async throws {
    let h = PreviewHarness(repository: FileAnnouncementRepository([announcement("a", north(of: warsaw, 500))]), source: .fixed(warsaw))
    try await h.start()
    try await h.phone.advance(by: .seconds(3))
    #expect(h.stateNames == ["loading", "map"])
    #expect(try #require(h.stateTimes.all.last) <= .seconds(3))
    #expect(h.state.pins.map(\.id) == ["a"])
  }

  @Test func mapPreview_stopEndsObservationAndLoading() async throws {
    let h = PreviewHarness()
    try await h.start()
    h.preview.stop()
    #expect(!h.preview.handler.isObserving)
    await h.phone.setAuthorization(.denied)
    #expect(h.stateNames == ["loading"])
    #expect(h.phone.taskCount == 0 && h.phone.waitingCallCount == 0)
  }
}
