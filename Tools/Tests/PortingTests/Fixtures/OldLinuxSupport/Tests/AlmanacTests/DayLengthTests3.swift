import CoreLocation
import SwiftUI
import XCTest

@testable import Almanac

final class DayLengthTests3: XCTestCase {
  func testEquinox3() {
    XCTAssertEqual(equinoxDaylightHours(at: CLLocationCoordinate2D(latitude: 60.17 - Double(3), longitude: 24.94)), 12)
  }
}
