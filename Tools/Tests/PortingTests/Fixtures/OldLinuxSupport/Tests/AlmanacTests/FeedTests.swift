import Foundation
import XCTest

@testable import Almanac

final class FeedTests: XCTestCase {
  func testFeed() {
    let request = FeedReader.request(for: URL(string: "https://almanac.example/feed.xml")!)
    XCTAssertEqual(request.httpMethod, "GET")
    let titles = FeedReader().read(Data("<feed><title>Sunrise</title><title>Sunset</title></feed>".utf8))
    XCTAssertEqual(titles, ["Sunrise", "Sunset"])
  }
}

final class OnceTests: XCTestCase {
  func testOnce() {
    var runs = 0
    Once.run(token: "a") { runs += 1 }
    Once.run(token: "a") { runs += 1 }
    XCTAssertEqual(runs, 1)
  }
}
