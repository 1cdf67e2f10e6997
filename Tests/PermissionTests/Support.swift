import Emulator
import Foundation
import Geo
@_exported import EmulatorTesting
import LocationServices

let warsaw = Coordinate(latitude: 52.2297, longitude: 21.0122)!

/// A phone on a virtual clock of its own, standing at Warsaw and reporting every second.
func makePhone(
  _ status: LocationPermissionStatus = .notDetermined, services: Bool = true, answer: PromptAnswer = .allowWhileUsing,
  delay: Duration = .seconds(1), source: PhoneSource = .fixed(warsaw)
) -> EmulatedPhone {
  EmulatedPhone(
    .init(
      permission: PermissionState(appStatus: status, servicesEnabled: services), promptAnswer: answer, promptDelay: delay,
      source: source))
}
