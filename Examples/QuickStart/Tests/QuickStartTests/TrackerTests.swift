import CoreLocation
import Emulator
import LocationModel
import QuickStart
import Testing

@MainActor
@Test func theTrackerAsksThenFollowsTheWalk() async throws {
  // A phone whose user answers "Allow While Using App" at the prompt (after 1 s, by default),
  // walking north from Helsinki's railway station, one fix a second; on a virtual clock.
  let start = Coordinate(latitude: 60.1710, longitude: 24.9414)!
  let walk = (0...10).map { second in
    ScriptedFix(at: .seconds(second), Coordinate(latitude: start.latitude + Double(second) * 0.0001, longitude: start.longitude)!)
  }
  try await withEmulatedPhone(.init(promptAnswer: .allowWhileUsing, source: .script(walk))) { phone in
    let tracker = Tracker()
    tracker.start()
    #expect(CLLocationManager().authorizationStatus == .notDetermined)

    try await phone.advance(by: .seconds(1))  // the user answers; the fix of second 1 arrives
    #expect(CLLocationManager().authorizationStatus == .authorizedWhenInUse)

    try await phone.advance(by: .seconds(9))  // nine more seconds of the walk, at once
    let latitude = try #require(tracker.lastLocation?.coordinate.latitude)
    #expect(abs(latitude - 60.1720) < 1e-9)
  }
}
