import CoreLocation
import Emulator
import Foundation
import LocationModel

/// Written as for iOS: each location the delegate is told is handed to the main actor in a
/// `Task`, which the virtual clock knows nothing of: it must run before an advance returns.
final class HoppingTracker: NSObject, CLLocationManagerDelegate, @unchecked Sendable {
  let manager = CLLocationManager()
  @MainActor var lastLocation: CLLocation?

  override init() {
    super.init()
    manager.delegate = self
  }

  func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
    guard let location = locations.last else { return }
    Task { @MainActor in self.lastLocation = location }
  }
}

/// Walks north for ten seconds of virtual time on an emulated phone and checks that the last
/// location reached the main actor; exits 1, saying why, otherwise.
@MainActor
func check() async throws {
  let start = Coordinate(latitude: 60.1710, longitude: 24.9414)!
  let walk = (0...10).map { second in
    ScriptedFix(at: .seconds(second), Coordinate(latitude: start.latitude + Double(second) * 0.0001, longitude: start.longitude)!)
  }
  try await withEmulatedPhone(.init(promptAnswer: .allowWhileUsing, source: .script(walk))) { phone in
    let tracker = HoppingTracker()
    tracker.manager.requestWhenInUseAuthorization()
    tracker.manager.startUpdatingLocation()
    try await phone.advance(by: .seconds(10))
    guard let latitude = tracker.lastLocation?.coordinate.latitude, abs(latitude - 60.1720) < 1e-9 else {
      throw CheckFailure("after 10 s the main actor had \(String(describing: tracker.lastLocation)), not the walk's last fix")
    }
  }
}

struct CheckFailure: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

do {
  try await check()
  print("static-clock-check: a statically linked program settled its virtual clock")
} catch {
  FileHandle.standardError.write(Data("static-clock-check: \(error)\n".utf8))
  exit(1)
}
