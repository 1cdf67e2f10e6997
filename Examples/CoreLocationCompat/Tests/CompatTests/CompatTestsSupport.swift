import CoreLocation
import Emulator
import Foundation
import LocationModel

/// Central Helsinki.
let home = CLLocationCoordinate2D(latitude: 60.1699, longitude: 24.9384)

/// A point `north` metres north of `home`.
func north(_ metres: Double, of origin: CLLocationCoordinate2D = home) -> CLLocationCoordinate2D {
  CLLocationCoordinate2D(latitude: origin.latitude + metres / 111_195.08, longitude: origin.longitude)
}

func coordinate(_ c: CLLocationCoordinate2D) -> LocationModel.Coordinate {
  LocationModel.Coordinate(latitude: c.latitude, longitude: c.longitude)!
}

/// A walk north from `from` metres to `to` metres, one fix a second, `step` metres apart.
func walkNorth(from: Double, to: Double, step: Double) -> PhoneSource {
  let count = Int((to - from) / step)
  return .script((0...count).map { i in ScriptedFix(at: .seconds(i), coordinate(north(from + Double(i) * step))) })
}

/// A phone with the given permission, answer to the prompt and source.
func phone(
  _ status: LocationModel.LocationPermissionStatus = .notDetermined, answer: PromptAnswer = .allowWhileUsing,
  source: PhoneSource = .fixed(coordinate(home))
) -> EmulatedPhone.Configuration {
  EmulatedPhone.Configuration(permission: PermissionState(appStatus: status), promptAnswer: answer, source: source)
}
