import CoreLocation
import SwiftUI
import XCTest

@testable import Almanac

final class DayLengthTests2: XCTestCase {
  func testEquinox2() {
    XCTAssertEqual(equinoxDaylightHours(at: CLLocationCoordinate2D(latitude: 60.17 - Double(2), longitude: 24.94)), 12)
  }
}
