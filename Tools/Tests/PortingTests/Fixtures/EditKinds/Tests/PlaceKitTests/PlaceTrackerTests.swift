import CoreLocation
import XCTest
@testable import PlaceKit

final class Recorder: NSObject, PlaceTrackerDelegate {
  let found: XCTestExpectation
  init(found: XCTestExpectation) { self.found = found }
  func tracker(_ tracker: PlaceTracker, didFind location: CLLocation) { found.fulfill() }
}

final class PlaceTrackerTests: XCTestCase {
  func testTheSimulatorsPermissionAndLocation() async throws {
    let found = expectation(description: "a location")
    let tracker = PlaceTracker()
    let recorder = Recorder(found: found)
    tracker.delegate = recorder
    tracker.locate()
    await fulfillment(of: [found])
    XCTAssertEqual(CLLocationManager().authorizationStatus, .authorizedWhenInUse)
  }

  func testNotificationsReachTheTracker() {
    let tracker = PlaceTracker()
    NotificationCenter.default.post(name: PlaceTracker.didBecomeActive, object: nil)
    XCTAssertEqual(tracker.becameActive, 1)
    XCTAssertEqual(PlaceKitNotifications.refreshed.rawValue, "PlaceKitRefreshed")
  }

  func testDistanceHelper() {
    let a = CLLocation(latitude: 60, longitude: 25), b = CLLocation(latitude: 60.001, longitude: 25)
    XCTAssertEqual(a.roundedDistance(to: b), 111)
  }
}
