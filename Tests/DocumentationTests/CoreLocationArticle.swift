import CoreLocation
import Emulator
import LocationModel
import Testing

/// The app's delegate, as on iOS: it keeps what it is told.
final class LocationsKept: NSObject, CLLocationManagerDelegate {
  var locations: [CLLocation] = []

  func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
    self.locations += locations
  }
}

@MainActor
@Test func theAppAsksOnceThenGetsALocation() async throws {
  let helsinki = Coordinate(latitude: 60.1699, longitude: 24.9384)!
  try await withEmulatedPhone(.init(promptAnswer: .allowWhileUsing, source: .fixed(helsinki))) { phone in
    let manager = CLLocationManager()
    let delegate = LocationsKept()
    manager.delegate = delegate
    manager.requestWhenInUseAuthorization()
    try await phone.advance(by: .seconds(1))  // the scripted user answers after 1 s
    #expect(manager.authorizationStatus == .authorizedWhenInUse)
    manager.requestLocation()
    try await phone.advance(by: .seconds(1))  // the next fix
    #expect(delegate.locations.count == 1)
  }
}
