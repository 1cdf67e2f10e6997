import CoreLocation
import XCTest
@testable import App

final class LocationStoreTests: XCTestCase {
  func testDeniedByTheSimulator() {
    XCTAssertEqual(CLLocationManager().authorizationStatus, .denied)
    _ = LocationStore()
  }
}
