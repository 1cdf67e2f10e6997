import Emulator
import Foundation
import Geo
@_exported import EmulatorTesting
import LocationServices

let warsaw = Coordinate(latitude: 52.2297, longitude: 21.0122)!
let startDate = Date(timeIntervalSince1970: 1_767_225_600)

/// The repository root, for the bundled traces.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent()

func tracePath(_ name: String) -> String { repositoryRoot.appendingPathComponent("traces/\(name)").path }

/// A phone on a virtual clock of its own, standing at Warsaw and reporting every second.
func makePhone(
  _ status: LocationPermissionStatus = .notDetermined, services: Bool = true, accuracy: LocationAccuracyAuthorization = .full,
  answer: PromptAnswer = .allowWhileUsing, delay: Duration = .seconds(1), source: PhoneSource = .fixed(warsaw)
) -> EmulatedPhone {
  EmulatedPhone(
    .init(
      permission: PermissionState(appStatus: status, servicesEnabled: services, accuracy: accuracy), promptAnswer: answer,
      promptDelay: delay, source: source))
}

/// Seconds since the start date of a fix's timestamp.
func second(_ fix: LocationFix?) -> Double? { fix?.timestamp.map { $0.timeIntervalSince(startDate) } }

/// The paths of this process's open file descriptors.
func openFilePaths() -> [String] {
  let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
  return fds.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)") }
}
