import Emulator
import Geo
import LocationServices
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
}
