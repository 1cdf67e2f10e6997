package import Emulator
package import Foundation
package import LocationModel

// What the library's test targets share: the places they stand at, the repository's files, and
// a phone made the way most tests make one. (The tools' tests have ToolsTestSupport.)

/// Warsaw's centre, where most tests stand.
package let warsaw = Coordinate(latitude: 52.2297, longitude: 21.0122)!

/// The repository root (this file is Tests/TestSupport/Fixtures.swift), for the bundled files.
package let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent()

/// A bundled trace (`traces/NAME`).
package func tracePath(_ name: String) -> String { repositoryRoot.appendingPathComponent("traces/\(name)").path }

/// A point `meters` north of `c`.
package func north(of c: Coordinate, _ meters: Double) -> Coordinate {
  Coordinate(latitude: c.latitude + meters / 111_195.08, longitude: c.longitude)!
}

/// How long a test's virtual clock waits, in real time, for the tasks an advance woke to suspend
/// before it reports a stall: a hang guard, not the library's 30 s default. The cooperative pool
/// of this suite was once starved for 61 s (two ThreadSanitizer runs on two cores), and a tracked
/// task that merely waits that long for a thread must not read as stalled. Tests of the stall
/// itself set their own short timeouts.
package let testStallTimeout = Duration.seconds(600)

/// A virtual clock for a test, with ``testStallTimeout``.
package func makeClock() -> EmulatorClock { EmulatorClock(stallTimeout: testStallTimeout) }

/// A phone on a virtual clock of its own (``makeClock()``), standing at Warsaw and reporting
/// every second.
package func makePhone(
  _ status: LocationPermissionStatus = .notDetermined, services: Bool = true, accuracy: LocationAccuracyAuthorization = .full,
  answer: PromptAnswer = .allowWhileUsing, delay: Duration = .seconds(1), source: PhoneSource = .fixed(warsaw)
) -> EmulatedPhone {
  EmulatedPhone(
    .init(
      permission: PermissionState(appStatus: status, servicesEnabled: services, accuracy: accuracy), promptAnswer: answer,
      promptDelay: delay, source: source),
    clock: makeClock())
}

/// A phone already authorized when in use (the CoreLocation and MapKit tests' usual start).
package func authorizedPhone(_ accuracy: LocationAccuracyAuthorization = .full) -> EmulatedPhone.Configuration {
  EmulatedPhone.Configuration(permission: PermissionState(appStatus: .authorizedWhenInUse, accuracy: accuracy))
}

private let mainQueueKey: DispatchSpecificKey<UInt8> = {
  let key = DispatchSpecificKey<UInt8>()
  DispatchQueue.main.setSpecific(key: key, value: 1)
  return key
}()

/// Whether the code running now is on the main actor (its jobs run on the main queue, not
/// always on the main thread on Linux).
package var isOnMainQueue: Bool { Thread.isMainThread || DispatchQueue.getSpecific(key: mainQueueKey) == 1 }
