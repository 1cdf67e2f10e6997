import Foundation
import GPSD
import LocationModel
import Testing

@Suite("Collapsing gpsd's reports into epochs; backoff")
struct EpochCollapserTests {
  let t0 = Date(timeIntervalSince1970: 1_800_000_000)
  let here = Coordinate(latitude: 52.2, longitude: 21.0)!

  @Test func reportsOfOneEpochMergeIntoOneFix() {
    var c = EpochCollapser()
    #expect(c.add(LocationFix(timestamp: t0, mode: .twoD, coordinate: here, speed: 1.5)) == nil)
    #expect(c.add(LocationFix(timestamp: t0, mode: .threeD, coordinate: here, altitudeMSL: 90)) == nil)
    let next = LocationFix(timestamp: t0 + 1, mode: .threeD, coordinate: here)
    let merged = c.add(next)
    #expect(merged?.mode == .threeD)
    #expect(merged?.altitudeMSL == 90)
    #expect(c.flush() == next)
    #expect(c.flush() == nil)
  }

  @Test func aLateReportForADeliveredEpochPassesOnlyWhenItAddsSomething() {
    var c = EpochCollapser()
    let fix = LocationFix(timestamp: t0, mode: .twoD, coordinate: here)
    _ = c.add(fix)
    #expect(c.flush() == fix)
    _ = c.add(fix)
    #expect(c.flush() == nil)  // the same again: dropped
    _ = c.add(LocationFix(timestamp: t0, mode: .twoD, coordinate: here, speed: 3))
    #expect(c.flush()?.speed == 3)  // something new: passed on, merged
  }

  @Test func aLowerModeNeverReplacesAHigherOne() {
    var c = EpochCollapser()
    _ = c.add(LocationFix(timestamp: t0, mode: .threeD, coordinate: here, altitudeMSL: 90))
    _ = c.add(LocationFix(timestamp: t0, mode: .noFix))
    #expect(c.flush()?.mode == .threeD)
  }

  @Test func backoffDoublesUpToItsCapAndResets() {
    var b = Backoff(initial: .milliseconds(100), maximum: .milliseconds(500))
    let delays = (0..<5).map { _ in b.nextDelay() }
    #expect(delays == [.milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(500), .milliseconds(500)])
    b.reset()
    #expect(b.nextDelay() == .milliseconds(100))
  }

  @Test func theShimWasBuiltForASupportedLibgps() {
    #expect((9...14).contains(GPSDSource.libgpsAPIVersion))
  }
}
