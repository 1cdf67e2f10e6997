import Clocks
import Emulator
import Geo
import PetMap
import Testing

/// Navigation to the fullscreen map and back (ios-navigation-to-fullscreen-map.spec.md).
@Suite struct NavigationTests {
  /// A loaded landing page, the coordinator, and the preview's tap wired to it.
  final class Fixture: Sendable {
    let h = PreviewHarness()
    let changes = Recorder<NavigationChange>()
    let navigation: NavigationCoordinator<TestClock<Duration>>
    let landing: LandingPageViewModel<TestClock<Duration>>

    init() {
      landing = LandingPageViewModel(preview: h.preview)
      let h = self.h, changes = self.changes
      navigation = NavigationCoordinator(
        landing: landing, clock: h.clock,
        makeFullscreenMap: {
          FullscreenMapViewModel(userLocation: await h.preview.userLocation, permissionGranted: true)
        },
        onChange: { changes.append($0) })
    }

    /// The user's tap on the preview, as the landing page delivers it.
    func tap() async {
      if await h.preview.tap() { navigation.showFullscreenMap() }
    }

    /// Lets the push animation finish.
    func finishTransition() async {
      await untilSleeping(h.clock)
      await h.clock.advance(by: navigation.transitionDuration)
      await waitUntil { !self.navigation.isTransitioning }
    }
  }

  @Test func navigation_US1_AS1_FR001_FR002_tapOnThePreviewPushesTheFullscreenMap() async {
    let f = Fixture()
    #expect(await f.h.startLoaded())
    #expect(f.navigation.stack == [.landing])
    await f.tap()
    #expect(f.navigation.stack == [.landing, .fullscreenMap])
    await f.finishTransition()
    #expect(f.navigation.fullscreenMap?.isCenteredOnUser == true)
    #expect(f.changes.all.map(\.action) == [.push])
  }

  @Test func navigation_tapBeforeTheMapLoadedDoesNotNavigate() async {
    let f = Fixture()
    await f.h.preview.start()
    await f.tap()
    #expect(f.navigation.stack == [.landing])
    #expect(f.navigation.pushCount == 0)
  }

  @Test func navigation_US1_AS2_FR003_FR004_backButtonReturnsToTheLandingPage() async {
    let f = Fixture()
    #expect(await f.h.startLoaded())
    await f.tap()
    await f.finishTransition()
    #expect(f.navigation.back())
    #expect(f.navigation.stack == [.landing])
    #expect(f.navigation.fullscreenMap == nil)
    #expect(f.changes.all.map(\.trigger) == ["tap", "back"])
    // Nothing to go back to on the landing page.
    #expect(f.navigation.back() == false)
  }

  @Test func navigation_US1_AS4_FR005_edgeSwipeReturnsToTheLandingPage() async {
    let f = Fixture()
    #expect(await f.h.startLoaded())
    await f.tap()
    await f.finishTransition()
    #expect(f.navigation.swipeBack())
    #expect(f.navigation.topScreen == .landing)
    #expect(f.changes.all.last?.trigger == "swipeBack")
  }

  @Test func navigation_FR007_rapidTapsPushExactlyOnce() async {
    let f = Fixture()
    #expect(await f.h.startLoaded())
    // Twenty taps at once, from concurrent tasks, before the push completes.
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<20 { group.addTask { await f.tap() } }
    }
    #expect(f.navigation.pushCount == 1)
    #expect(f.navigation.stack == [.landing, .fullscreenMap])
    await f.finishTransition()
    #expect(f.navigation.pushCount == 1)
    #expect(f.changes.all.count == 1)
  }

  @Test func navigation_FR007_backDuringThePushIsIgnored() async {
    let f = Fixture()
    #expect(await f.h.startLoaded())
    await f.tap()
    #expect(f.navigation.back() == false)
    await f.finishTransition()
    #expect(f.navigation.back())
  }

  @Test func navigation_US1_AS3_FR006_landingPageKeepsScrollAndStateWithoutReload() async {
    let f = Fixture()
    #expect(await f.h.startLoaded())
    f.landing.scroll(to: 420)
    let stateBefore = await f.h.preview.state
    await f.tap()
    await f.finishTransition()
    #expect(f.navigation.back())
    #expect(f.landing.scrollOffset == 420)
    #expect(await f.h.preview.state == stateBefore)
    #expect(await f.h.preview.loadCount == 1)
    // And again: a second round trip works the same way.
    await f.tap()
    await f.finishTransition()
    #expect(f.navigation.swipeBack())
    #expect(f.navigation.pushCount == 2)
    #expect(await f.h.preview.loadCount == 1)
  }

  @Test func navigation_FR008_fullscreenMapHasATitle() async {
    let f = Fixture()
    #expect(await f.h.startLoaded())
    await f.tap()
    await f.finishTransition()
    #expect(f.navigation.fullscreenMap?.title == "Pet Locations")
  }

  @Test func navigation_edge_rotationOnTheFullscreenMapKeepsBackWorking() async {
    let f = Fixture()
    #expect(await f.h.startLoaded())
    await f.tap()
    await f.finishTransition()
    let map = try! #require(f.navigation.fullscreenMap)
    map.resize(to: ScreenSize(width: 844, height: 390))
    #expect(f.navigation.back())
    #expect(f.navigation.stack == [.landing])
  }
}
