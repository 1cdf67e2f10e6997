import CoreLocation
import Failing
import XCTest

final class StatusTests: XCTestCase {
  func testExpectsAlways() { XCTAssertEqual(currentStatus(), .authorizedAlways, "the app expects Always") }
  func testPasses() { XCTAssertTrue(true) }
}
