import Geo
import LocationModel
import PetMap
import Testing

/// The map preview as a value: every event's actions and state, with no task and no clock.
@Suite struct MapPreviewStateMachineTests {
  let loaded = LoadedMap(location: warsaw, region: warsaw.mapRegion(radiusMeters: 10_000), pins: [], snapshot: nil)
  let strings = MapStrings()

  @Test func mapPreview_FR006_startingWithoutPermissionShowsThePermissionState() {
    var m = MapPreviewStateMachine()
    #expect(m.start(authorized: false) == [.publish(.permissionRequired(message: strings.permissionRequiredMessage))])
    #expect(m.start(authorized: true) == [])  // once
  }

  @Test func mapPreview_FR009_aLoadArmsItsTimeoutAndEndsInTheMap() {
    var m = MapPreviewStateMachine(loadTimeout: .seconds(10))
    #expect(m.start(authorized: true) == [.publish(.loading), .armTimeout(id: 1, after: .seconds(10)), .startLoad(id: 1)])
    #expect(m.loadFinished(1, .success(loaded)) == [.cancelTimeout(id: 1), .publish(.map(region: loaded.region, pins: []))])
    #expect(m.loaded == loaded && m.lastError == nil)
  }

  @Test func mapPreview_FR009_aTimeoutCancelsTheLoadAndALateOutcomeIsIgnored() {
    var m = MapPreviewStateMachine()
    _ = m.start(authorized: true)
    #expect(
      m.timeoutFired(1) == [.cancelLoad(id: 1), .log("map preview failed: timed out"), .publish(.error(message: strings.loadErrorMessage))])
    #expect(m.loadFinished(1, .success(loaded)) == [])
    #expect(m.state.name == "error")
  }

  @Test func mapPreview_FR010_retryWorksOnlyInTheErrorStateAndPublishesLoadingAgain() {
    var m = MapPreviewStateMachine()
    #expect(m.retry().accepted == false)
    _ = m.start(authorized: true)
    #expect(m.retry().accepted == false)
    _ = m.loadFinished(1, .failure(.locationUnavailable))
    #expect(m.retry() == (true, [.publish(.loading), .armTimeout(id: 2, after: .seconds(10)), .startLoad(id: 2)]))
    #expect(m.loadCount == 2)
  }

  @Test func mapPreview_FR004c_tapsReachTheCallbackOnlyOnTheMap() {
    var m = MapPreviewStateMachine()
    _ = m.start(authorized: true)
    #expect(m.tap() == (false, []))
    _ = m.loadFinished(1, .success(loaded))
    #expect(m.tap() == (true, [.log("map preview tapped"), .callTap]))
    #expect(m.tapCount == 1)
  }

  @Test func mapPreview_FR007_aRevocationCancelsTheLoadAndALaterGrantLoadsAgain() {
    var m = MapPreviewStateMachine()
    _ = m.start(authorized: true)
    #expect(
      m.permissionChanged(authorized: false)
        == [.cancelTimeout(id: 1), .cancelLoad(id: 1), .publish(.permissionRequired(message: strings.permissionRequiredMessage))])
    #expect(m.loadFinished(1, .success(loaded)) == [])
    #expect(m.permissionChanged(authorized: true).last == .startLoad(id: 2))
    // A grant while loading or showing the map changes nothing.
    #expect(m.permissionChanged(authorized: true) == [])
  }

  @Test func aStoppedPreviewCancelsItsLoadAndIgnoresEverything() {
    var m = MapPreviewStateMachine()
    _ = m.start(authorized: true)
    #expect(m.stop() == [.cancelTimeout(id: 1), .cancelLoad(id: 1)])
    #expect(m.permissionChanged(authorized: false) == [])
    #expect(m.loadFinished(1, .success(loaded)) == [])
    #expect(m.goToSettings().accepted == false)
  }
}
