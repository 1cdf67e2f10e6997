import Emulator
import Geo
import LocationModel
import PetMap
import Testing

/// Navigation to the fullscreen map and back (ios-navigation-to-fullscreen-map.spec.md), on
/// a phone's virtual clock.
@Suite struct NavigationTests {
  /// A loaded landing page, the coordinator, and the preview's tap wired to it.
  final class Fixture: Sendable {
    let h = PreviewHarness()
    let changes = Recorder<NavigationChange>()
    let navigation: NavigationCoordinator
    let landing: LandingPageViewModel

    init() {
      landing = LandingPageViewModel(preview: h.preview)
      let h = self.h, changes = self.changes
      navigation = NavigationCoordinator(
        landing: landing, scheduler: h.phone.clock,
        makeFullscreenMap: { FullscreenMapViewModel(userLocation: h.preview.userLocation, permissionGranted: true) },
        onChange: { changes.append($0) })
    }

    /// The user's tap on the preview, as the landing page delivers it.
    func tap() {
      if h.preview.tap() { navigation.showFullscreenMap() }
    }

    /// Lets the push animation finish.
    func finishTransition() async throws {
      try await h.phone.advance(by: navigation.transitionDuration)
    }
  }

  @Test func navigation_US1_AS1_FR001_FR002_tapOnThePreviewPushesTheFullscreenMap() async throws {
    let f = Fixture()
    #expect(try await f.h.startLoaded())
    #expect(f.navigation.stack == [.landing])
    f.tap()
    #expect(f.navigation.stack == [.landing, .fullscreenMap])
    #expect(f.navigation.fullscreenMap == nil && f.navigation.isTransitioning)
    try await f.h.phone.advance(by: .milliseconds(349))
    #expect(f.navigation.isTransitioning)
    try await f.h.phone.advance(by: .milliseconds(1))
    #expect(!f.navigation.isTransitioning)
    #expect(f.navigation.fullscreenMap?.isCenteredOnUser == true)
    #expect(f.changes.all.map(\.action) == [.push])
  }

  @Test func navigation_tapBeforeTheMapLoadedDoesNotNavigate() async throws {
    let f = Fixture()
    try await f.h.start()
    f.tap()
    #expect(f.navigation.stack == [.landing])
    #expect(f.navigation.pushCount == 0)
  }

  @Test func navigation_US1_AS2_FR003_FR004_backButtonReturnsToTheLandingPage() async throws {
    let f = Fixture()
    #expect(try await f.h.startLoaded())
    f.tap()
    try await f.finishTransition()
    #expect(f.navigation.back())
    #expect(f.navigation.stack == [.landing])
    #expect(f.navigation.fullscreenMap == nil)
    #expect(f.changes.all.map(\.trigger) == ["tap", "back"])
    // Nothing to go back to on the landing page.
    #expect(f.navigation.back() == false)
  }

  @Test func navigation_US1_AS4_FR005_edgeSwipeReturnsToTheLandingPage() async throws {
    let f = Fixture()
    #expect(try await f.h.startLoaded())
    f.tap()
    try await f.finishTransition()
    #expect(f.navigation.swipeBack())
    #expect(f.navigation.topScreen == .landing)
    #expect(f.changes.all.last?.trigger == "swipeBack")
  }

  @Test func navigation_FR007_rapidTapsPushExactlyOnce() async throws {
    let f = Fixture()
    #expect(try await f.h.startLoaded())
    // Twenty taps at once, from concurrent tasks, before the push completes.
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<20 { group.addTask { f.tap() } }
    }
    #expect(f.navigation.pushCount == 1)
    #expect(f.navigation.stack == [.landing, .fullscreenMap])
    try await f.finishTransition()
    #expect(f.navigation.pushCount == 1)
    #expect(f.changes.all.count == 1)
  }

  @Test func navigation_FR007_backDuringThePushIsIgnored() async throws {
    let f = Fixture()
    #expect(try await f.h.startLoaded())
    f.tap()
    #expect(f.navigation.back() == false)
    try await f.finishTransition()
    #expect(f.navigation.back())
  }

  @Test func navigation_US1_AS3_FR006_landingPageKeepsScrollAndStateWithoutReload() async throws {
    let f = Fixture()
    #expect(try await f.h.startLoaded())
    f.landing.scroll(to: 420)
    let stateBefore = f.h.preview.state
    f.tap()
    try await f.finishTransition()
    #expect(f.navigation.back())
    #expect(f.landing.scrollOffset == 420)
    #expect(f.h.preview.state == stateBefore)
    #expect(f.h.preview.loadCount == 1)
    // And again: a second round trip works the same way.
    f.tap()
    try await f.finishTransition()
    #expect(f.navigation.swipeBack())
    #expect(f.navigation.pushCount == 2)
    #expect(f.h.preview.loadCount == 1)
  }

  @Test func navigation_FR008_fullscreenMapHasATitle() async throws {
    let f = Fixture()
    #expect(try await f.h.startLoaded())
    f.tap()
    try await f.finishTransition()
    #expect(f.navigation.fullscreenMap?.title == "Pet Locations")
  }

  @Test func navigation_edge_rotationOnTheFullscreenMapKeepsBackWorking() async throws {
    let f = Fixture()
    #expect(try await f.h.startLoaded())
    f.tap()
    try await f.finishTransition()
    let map = try #require(f.navigation.fullscreenMap)
    map.resize(to: ScreenSize(width: 844, height: 390))
    #expect(f.navigation.back())
    #expect(f.navigation.stack == [.landing])
  }
}

/// The navigation stack as a value.
@Suite struct NavigationStateMachineTests {
  @Test func navigation_FR007_aPushIgnoresEveryTapUntilItsTransitionEnds() {
    var m = NavigationStateMachine(transitionDuration: .milliseconds(350))
    let (pushed, actions) = m.push()
    #expect(pushed)
    #expect(
      actions == [
        .changed(NavigationChange(action: .push, trigger: "tap", stack: [.landing, .fullscreenMap])), .buildFullscreenMap(push: 1),
        .armTransition(push: 1, after: .milliseconds(350)),
      ])
    for _ in 0..<5 { #expect(m.push() == (false, [])) }
    #expect(m.pop(trigger: "back") == (false, []))  // not during the transition
    #expect(m.transitionEnded(1) == [.showFullscreenMap(push: 1)])
    #expect(m.push() == (false, []))  // the map is on top
    #expect(
      m.pop(trigger: "swipeBack") == (
        true, [.changed(NavigationChange(action: .pop, trigger: "swipeBack", stack: [.landing])), .dropFullscreenMap]
      ))
    #expect(m.pushCount == 1)
  }

  @Test func aStaleTransitionEndDoesNothing() {
    var m = NavigationStateMachine()
    _ = m.push()
    _ = m.transitionEnded(1)
    _ = m.pop(trigger: "back")
    _ = m.push()
    #expect(m.transitionEnded(1) == [])
    #expect(m.isTransitioning)
    #expect(m.transitionEnded(2) == [.showFullscreenMap(push: 2)])
  }
}
