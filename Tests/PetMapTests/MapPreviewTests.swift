import Clocks
import Emulator
import Foundation
import Geo
import PermissionHandling
import PetMap
import Testing

/// The landing-page map preview spec (ios-landing-page-map-preview.spec.md), on a TestClock.
@Suite struct MapPreviewTests {
  @Test func mapPreview_FR001_sitsBetweenDescriptionAndRecentlyLostPets() {
    let sections = LandingPageSection.allCases
    let index = sections.firstIndex(of: .mapPreview)!
    #expect(sections[index - 1] == .description)
    #expect(sections[index + 1] == .recentlyLostPets)
  }

  @Test func mapPreview_US1_AS2_FR003_centersOnTheUserWithA10kmRadius() async {
    let h = PreviewHarness()
    #expect(await h.startLoaded(at: warsaw))
    let region = try! #require(await h.state.region)
    #expect(region.center == warsaw)
    // At least 10 km to every side: 20 km of latitude (the 16:9 frame widens the longitude).
    #expect(abs(region.latitudeDelta * 111_195 - 20_000) < 50)
    #expect(region.contains(north(of: warsaw, 9_900)))
    #expect(!region.contains(north(of: warsaw, 10_100)))
    #expect(await h.preview.userLocation == warsaw)
  }

  @Test func mapPreview_FR001a_regionIsFramed16by9() async {
    let h = PreviewHarness()
    #expect(await h.startLoaded())
    let region = try! #require(await h.state.region)
    let frame = WebMercator.frame(of: region)
    #expect(abs(frame.width / frame.height - 16.0 / 9.0) < 0.01)
  }

  @Test func mapPreview_US2_AS3_authorizedShowsTheMapWithoutAPrompt() async {
    let h = PreviewHarness(status: .authorizedAlways)
    #expect(await h.startLoaded())
    #expect(h.stateNames == ["loading", "map"])
    #expect(h.emulator.state.promptShown == false)
  }

  @Test(arguments: [LocationPermissionStatus.notDetermined, .denied, .restricted])
  func mapPreview_US2_AS1_FR006_notAuthorizedShowsPermissionRequired(status: LocationPermissionStatus) async {
    let h = PreviewHarness(status: status)
    await h.preview.start()
    guard case .permissionRequired(let message) = await h.state else {
      Issue.record("expected permissionRequired, got \(await h.state)")
      return
    }
    #expect(message == MapStrings().permissionRequiredMessage)
    #expect(await h.preview.goToSettings())
    #expect(h.settingsTaps.all.count == 1)
  }

  @Test func mapPreview_FR013_neverRequestsPermission() async {
    let events = Recorder<PermissionEvent>()
    let clock = TestClock()
    let emulator = PermissionEmulator(clock: clock, onEvent: { events.append($0) })
    let service = LocationService(emulator: emulator, source: ManualLocationSource())
    let preview = MapPreviewModel(handler: LocationPermissionHandler(service: service, lifecycle: emulator), clock: clock, log: { _ in })
    await preview.start()
    await clock.advance(by: .seconds(30))
    await settle()
    #expect(await preview.state.name == "permissionRequired")
    #expect(events.all.isEmpty)
    #expect(emulator.state.promptShown == false)
    #expect(emulator.status == .notDetermined)
  }

  @Test func mapPreview_US2_AS2_FR007_grantThroughAPromptElsewhereLoadsTheMap() async {
    let h = PreviewHarness(status: .notDetermined)
    await h.preview.start()
    #expect(await h.state.name == "permissionRequired")
    // Another screen asks; the user allows after a second.
    let asking = Task { await h.service.requestWhenInUseAuthorization() }
    await untilSleeping(h.clock)
    await h.clock.advance(by: .seconds(1))
    #expect(await asking.value == .authorizedWhenInUse)
    #expect(await h.until("loading"))
    #expect(await h.deliverFix())
    #expect(await h.state.name == "map")
    #expect(h.stateNames == ["permissionRequired", "loading", "map"])
  }

  @Test func mapPreview_US2_AS4_returningFromSettingsUpdatesTheState() async {
    let h = PreviewHarness(status: .denied)
    await h.preview.start()
    await h.emulator.setAppState(.background)
    await h.emulator.setAuthorization(.authorizedWhenInUse)
    await h.emulator.setAppState(.foreground)
    #expect(await h.until("loading"))
    #expect(await h.deliverFix())
    #expect(await h.state.name == "map")
    // And back: revoked in Settings, noticed on return.
    await h.emulator.setAppState(.background)
    await h.emulator.setAuthorization(.denied)
    await h.emulator.setAppState(.foreground)
    #expect(await h.until("permissionRequired"))
  }

  @Test func mapPreview_edge_servicesOffShowsThePermissionState() async {
    let h = PreviewHarness(status: .authorizedWhenInUse, servicesEnabled: false)
    await h.preview.start()
    #expect(await h.state.name == "permissionRequired")
    await h.emulator.setServicesEnabled(true)
    #expect(await h.until("loading"))
    #expect(await h.deliverFix())
    #expect(await h.state.name == "map")
    await h.emulator.setServicesEnabled(false)
    #expect(await h.until("permissionRequired"))
  }

  @Test func mapPreview_US1_AS4_FR004a_FR004b_tapOnTheMapCallsBackAndLogs() async {
    let h = PreviewHarness()
    #expect(await h.startLoaded())
    #expect(await h.preview.tap())
    #expect(h.taps.all.count == 1)
    #expect(h.logs.all.contains("map preview tapped"))
  }

  @Test func mapPreview_US1_AS5_FR004c_tapIgnoredWhileLoading() async {
    let h = PreviewHarness()
    await h.preview.start()
    #expect(await h.state == .loading)
    #expect(await h.preview.tap() == false)
    #expect(h.taps.all.isEmpty)
    #expect(!h.logs.all.contains("map preview tapped"))
  }

  @Test func mapPreview_FR004c_tapIgnoredInTheErrorAndPermissionStates() async {
    let h = PreviewHarness()
    await h.preview.start()
    await untilSleeping(h.clock)
    await h.clock.advance(by: .seconds(10))
    #expect(await h.until("error"))
    #expect(await h.preview.tap() == false)
    let denied = PreviewHarness(status: .denied)
    await denied.preview.start()
    #expect(await denied.preview.tap() == false)
    #expect(h.taps.all.isEmpty && denied.taps.all.isEmpty)
  }

  @Test func mapPreview_US1_AS6_FR008_slowLoadingShowsTheLoadingState() async {
    let h = PreviewHarness(repository: SlowRepository(clock: TestClock(), delay: .seconds(1), answer: []))
    await h.preview.start()
    #expect(await h.deliverFixToService())
    // The repository sleeps on a clock nobody advances: the preview shows loading meanwhile.
    await settle()
    #expect(await h.state == .loading)
    #expect(h.stateNames == ["loading"])
  }

  @Test func mapPreview_edge_slowNetworkTimesOutAfter10Seconds() async {
    let h = PreviewHarness(repository: SlowRepository(clock: TestClock(), delay: .seconds(60), answer: []))
    await h.preview.start()
    #expect(await h.deliverFixToService())
    await h.clock.advance(by: .milliseconds(9_999))
    await settle()
    #expect(await h.state == .loading)
    await h.clock.advance(by: .milliseconds(1))
    #expect(await h.until("error"))
    #expect(await h.preview.lastError == .timedOut)
  }

  @Test func mapPreview_US1_AS7_FR009_failureShowsAMessageAndRetry() async {
    let h = PreviewHarness(snapshotter: BrokenSnapshotter(mode: .fail))
    await h.preview.start()
    #expect(await h.deliverFix())
    #expect(await h.until("error"))
    guard case .error(let message) = await h.state else { return }
    #expect(message == MapStrings().loadErrorMessage)
    #expect(MapStrings().retry == "Retry")
    if case .snapshotFailed = await h.preview.lastError {} else { Issue.record("expected a snapshot failure") }
  }

  @Test func mapPreview_FR010_retryReattemptsWithoutRestart() async {
    let h = PreviewHarness()
    await h.preview.start()
    await untilSleeping(h.clock)
    await h.clock.advance(by: .seconds(10))  // no fix arrives: error
    #expect(await h.until("error"))
    #expect(await h.preview.retry())
    #expect(await h.state == .loading)
    #expect(await h.deliverFix())
    #expect(await h.state.name == "map")
    #expect(await h.preview.loadCount == 2)
    #expect(h.stateNames == ["loading", "error", "loading", "map"])
    // Retry does nothing outside the error state.
    #expect(await h.preview.retry() == false)
  }

  @Test func mapPreview_edge_userMovesButTheMapKeepsTheEntryLocation() async {
    let h = PreviewHarness()
    #expect(await h.startLoaded(at: warsaw))
    for _ in 0..<5 {
      h.source.send(krakow)
      await settle()
    }
    #expect(await h.state.region?.center == warsaw)
    #expect(await h.preview.loadCount == 1)
  }

  @Test func mapPreview_edge_backgroundForegroundKeepsTheState() async {
    let h = PreviewHarness()
    #expect(await h.startLoaded())
    let before = await h.state
    await h.emulator.setAppState(.background)
    await h.emulator.setAppState(.foreground)
    await settle()
    #expect(await h.state == before)
    #expect(await h.preview.loadCount == 1)
    #expect(h.stateNames == ["loading", "map"])
  }

  @Test func mapPreview_edge_lowAccuracyStillCentersOnTheApproximateLocation() async {
    let h = PreviewHarness()
    await h.emulator.setAccuracy(.reduced)
    #expect(await h.startLoaded(at: warsaw))
    let center = try! #require(await h.state.region?.center)
    // Reduced accuracy moves the point to its 3 km grid cell's centre: near, not exact.
    #expect(center != warsaw)
    #expect(center.distance(to: warsaw) < 3_000)
  }

  @Test func mapPreview_FR002a_snapshotRendersAsynchronously() async {
    let clock = TestClock()
    let h = PreviewHarness(snapshotter: BrokenSnapshotter(mode: .hang(clock)))
    await h.preview.start()
    #expect(await h.deliverFixToService())
    // The snapshot is still rendering; the model answers meanwhile.
    #expect(await h.preview.tap() == false)
    #expect(await h.state == .loading)
    await h.clock.advance(by: .seconds(10))
    #expect(await h.until("error"))
    #expect(await h.preview.lastError == .timedOut)
  }

  @Test func mapPreview_SC001_mapVisibleWithin3SecondsOfEntry() async {
    let clock = TestClock()
    let emulator = PermissionEmulator(initial: PermissionState(appStatus: .authorizedWhenInUse), clock: clock)
    let service = LocationService(
      emulator: emulator, source: FixedPointSource(coordinate: warsaw, interval: .seconds(1), clock: clock))
    let file = FileAnnouncementRepository([announcement("a", north(of: warsaw, 500))])
    let times = Recorder<Duration>()
    let start = clock.now
    let preview = MapPreviewModel(
      handler: LocationPermissionHandler(service: service), repository: file, clock: clock,
      onStateChange: { state in if state.name == "map" { times.append(start.duration(to: clock.now)) } }, log: { _ in })
    await preview.start()
    for _ in 0..<30 where times.all.isEmpty {
      await untilSleeping(clock)
      await clock.advance(by: .milliseconds(100))
      await settle()
    }
    let elapsed = try! #require(times.all.first)
    #expect(elapsed <= .seconds(3))
    #expect(await preview.state.pins.map(\.id) == ["a"])
  }

  @Test func mapPreview_stopEndsObservationAndLoading() async {
    let h = PreviewHarness()
    await h.preview.start()
    await h.preview.stop()
    #expect(await h.handler.isObserving == false)
    await h.emulator.setAuthorization(.denied)
    await settle()
    #expect(h.stateNames == ["loading"])
  }
}
