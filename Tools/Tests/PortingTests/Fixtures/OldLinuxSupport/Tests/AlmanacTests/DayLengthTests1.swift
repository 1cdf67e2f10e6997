import CoreLocation
import SwiftUI
import XCTest

@testable import Almanac

final class DayLengthTests1: XCTestCase {
  func testEquinox1() {
    XCTAssertEqual(equinoxDaylightHours(at: CLLocationCoordinate2D(latitude: 60.17 - Double(1), longitude: 24.94)), 12)
  }
}
