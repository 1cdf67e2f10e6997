import Emulator
import Foundation
import Geo
import LocationModel
import Testing

/// A route walked as `simctl location start` walks a simulator: along the legs at a constant
/// speed, one fix per interval, then the last waypoint standing still.
@Suite("PhoneSource.route")
struct RouteTests {
  @Test func aRouteIsWalkedAtItsSpeedThenStandsAtItsEnd() async throws {
    let end = north(of: warsaw, 100)
    let source = try #require(PhoneSource.route([warsaw, end], speed: 10, interval: .seconds(1)))
    let phone = makePhone(.authorizedWhenInUse, source: source)
    defer { phone.shutdown() }
    try await phone.advance(by: .seconds(5))
    let walking = try #require(phone.latestFix)
    let walked = try #require(walking.coordinate).distance(to: warsaw)
    #expect(abs(walked - 50) < 0.5, "\(walked) m after 5 s at 10 m/s")
    #expect(walking.speed == 10)
    #expect(abs((walking.course ?? 99) - 0) < 0.01 || abs((walking.course ?? 0) - 360) < 0.01)
    try await phone.advance(by: .seconds(20))
    let standing = try #require(phone.latestFix)
    #expect(try #require(standing.coordinate).distance(to: end) < 0.01)
    #expect(standing.speed == 0)
  }

  @Test func aRouteOfMoreThanADayOfFixesIsRefused() {
    let far = north(of: warsaw, 1_000_000)
    #expect(PhoneSource.route([warsaw, far], speed: 1, interval: .seconds(1)) == nil)
    #expect(RouteWalk(waypoints: [warsaw, far], speed: 1, interval: .seconds(1)).fixes() == nil)
  }

  /// What a phone plays can be stepped without one (`locemu simulate` does, through a
  /// receiver): the same fixes, times and stamps as the phone gets them, as fast as it reads.
  @Test func aSourcesTimelineSteppedWithoutAPhone() throws {
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    let end = north(of: warsaw, 20)
    let source = try #require(PhoneSource.route([warsaw, end], speed: 10, interval: .seconds(1)))
    let timeline = try #require(try source.makeTimeline(startDate: start))
    defer { timeline.close() }
    var steps: [(at: Duration, fix: LocationFix)] = []
    while let step = try timeline.next() { steps.append(step) }
    #expect(steps.map(\.at) == [.zero, .seconds(1), .seconds(2), .seconds(3)])
    #expect(steps.map { $0.fix.timestamp } == [0, 1, 2, 3].map { start.addingTimeInterval($0) })
    #expect(steps.map { $0.fix.speed } == [10, 10, 10, 0])
    #expect(try #require(steps.last?.fix.coordinate).distance(to: end) < 0.01)

    let fixed = try #require(try PhoneSource.fixed(warsaw, interval: .milliseconds(500), count: 3).makeTimeline(startDate: start))
    var times: [Duration] = []
    while let (at, fix) = try fixed.next() {
      #expect(fix.coordinate == warsaw && fix.timestamp == start.addingTimeInterval(at.seconds))
      times.append(at)
    }
    #expect(times == [.zero, .milliseconds(500), .seconds(1)])
    // No source has no timeline (nor has a live one: it is read as the LocationSource it is).
    #expect(try PhoneSource.none.makeTimeline(startDate: start) == nil)
  }
}
