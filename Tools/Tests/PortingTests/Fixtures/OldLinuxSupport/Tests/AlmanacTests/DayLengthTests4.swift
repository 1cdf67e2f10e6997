import CoreLocation
import SwiftUI
import XCTest

@testable import Almanac

final class DayLengthTests4: XCTestCase {
  func testEquinox4() {
    XCTAssertEqual(equinoxDaylightHours(at: CLLocationCoordinate2D(latitude: 60.17 - Double(4), longitude: 24.94)), 12)
  }
}
