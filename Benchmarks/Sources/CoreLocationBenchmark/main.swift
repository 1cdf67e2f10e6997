// CoreLocation benchmark (prints figures; run by scripts/bench-corelocation.sh):
//
//   corelocation-benchmark [MANAGERS] [SECONDS]
//
// MANAGERS CLLocationManagers (default 1,000), each on a phone of its own, all phones on one
// virtual EmulatorClock, as a test process with many apps' managers would have them. Each phone
// walks north at 1.4 m/s with a fix a second; each manager has a delegate that counts its
// calls, a distance filter of 5 m, and updates started. The clock advances SECONDS (default
// 600) of virtual time; half the managers are made on the main actor (their calls are tasks of
// the clock that hop to it), half elsewhere (their calls run on the clock's loop).
//
// Prints: delegate calls and calls per second of real time; resident memory per manager (phone
// included) after they were made and at the end.
import CoreLocation
import Emulator
import Foundation
import LocationModel
import Synchronization

/// Resident memory now, bytes (/proc/self/statm).
func residentBytes() -> Int {
  guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
  let fields = text.split(separator: " ")
  return fields.count > 1 ? (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) : 0
}

/// Counts every call it gets.
final class CountingDelegate: NSObject, CLLocationManagerDelegate, Sendable {
  static let calls = Atomic<Int>(0)
  static let locations = Atomic<Int>(0)
  func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) { Self.calls.add(1, ordering: .relaxed) }
  func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
    Self.calls.add(1, ordering: .relaxed)
    Self.locations.add(locations.count, ordering: .relaxed)
  }
}

let arguments = Array(CommandLine.arguments.dropFirst())
let count = arguments.first.flatMap(Int.init) ?? 1_000
let seconds = arguments.dropFirst().first.flatMap(Int64.init) ?? 600

let delegate = CountingDelegate()
let start = Coordinate(latitude: 60.1699, longitude: 24.9384)!
let walk: [ScriptedFix] = (0...seconds).map { t in
  ScriptedFix(at: .seconds(t), Coordinate(latitude: start.latitude + Double(t) * 1.4 / 111_195.08, longitude: start.longitude)!)
}

/// A manager on `phone`, walking with a 5 m filter; made where the caller runs (the main actor
/// or not decides where its delegate is called).
func makeManager(on phone: EmulatedPhone) -> CLLocationManager {
  EmulatedPhone.$current.withValue(phone) {
    let manager = CLLocationManager()
    manager.delegate = delegate
    manager.distanceFilter = 5
    manager.startUpdatingLocation()
    return manager
  }
}

@MainActor
func makeManagerOnMain(on phone: EmulatedPhone) -> CLLocationManager { makeManager(on: phone) }

let before = residentBytes()
let clock = EmulatorClock()
var phones: [EmulatedPhone] = []
var managers: [CLLocationManager] = []
let made = ContinuousClock.now
for i in 0..<count {
  let phone = EmulatedPhone(
    .init(name: "phone \(i)", permission: PermissionState(appStatus: .authorizedWhenInUse), source: .script(walk)), clock: clock)
  phones.append(phone)
  managers.append(i.isMultiple(of: 2) ? await makeManagerOnMain(on: phone) : makeManager(on: phone))
}
try await clock.runUntilIdle()
let madeSeconds = (ContinuousClock.now - made) / .seconds(1)
let afterMaking = residentBytes()

let callsBefore = CountingDelegate.calls.load(ordering: .relaxed)
let started = ContinuousClock.now
try await clock.advance(by: .seconds(seconds))
let runSeconds = (ContinuousClock.now - started) / .seconds(1)
let afterRun = residentBytes()
let calls = CountingDelegate.calls.load(ordering: .relaxed) - callsBefore
let locations = CountingDelegate.locations.load(ordering: .relaxed)

print(
  String(
    format: "%d managers (each on its own phone, one virtual clock): made in %.2f s, %.1f KB resident per manager",
    count, madeSeconds, Double(afterMaking - before) / Double(count) / 1024))
print(
  String(
    format: "%lld s of virtual time: %d delegate calls (%d locations) in %.2f s: %.0f calls/s; %.1f KB resident per manager at the end",
    seconds, calls, locations, runSeconds, Double(calls) / runSeconds, Double(afterRun - before) / Double(count) / 1024))
let expected = count * Int(seconds) / 5  // a 5 m filter at 1.4 m/s: every fourth fix
if locations < expected {
  FileHandle.standardError.write(Data("corelocation-benchmark: \(locations) locations, expected at least \(expected)\n".utf8))
  exit(1)
}
withExtendedLifetime((phones, managers)) {}
