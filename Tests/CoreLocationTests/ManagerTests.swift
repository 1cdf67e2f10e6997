import CoreLocation
import Emulator
import Foundation
import Geo
import LocationModel
import TestSupport
import Testing

/// A point `north` and `east` metres from central Helsinki.
func helsinki(north: Double = 0, east: Double = 0) -> Coordinate {
  let base = (latitude: 60.1699, longitude: 24.9384)
  return Coordinate(
    latitude: base.latitude + north / 111_195.08,
    longitude: base.longitude + east / (111_195.08 * cos(base.latitude * .pi / 180)))!
}

@Suite("CLLocationManager on an emulated phone (virtual time)")
struct ManagerTests {
  @Test("LOC-CL-01: the delegate hears the authorization once the manager is made, and each change after")
  @MainActor func authorizationOnCreationAndChange() async throws {
    try await withEmulatedPhone { phone in
      let manager = CLLocationManager()
      let delegate = DelegateRecorder()
      manager.delegate = delegate
      #expect(delegate.events.isEmpty, "the first call comes asynchronously, as on iOS")
      try await phone.runUntilIdle()
      #expect(delegate.events == ["auth notDetermined full"])
      #expect(delegate.calledOnMainThread == [true], "made on the main actor, called there")

      manager.requestWhenInUseAuthorization()
      try await phone.advance(by: .seconds(1))  // the scripted user answers after 1 s
      #expect(delegate.events == ["auth notDetermined full", "auth whenInUse full"])
      #expect(manager.authorizationStatus == .authorizedWhenInUse)

      await phone.setAccuracy(.reduced)
      try await phone.runUntilIdle()
      #expect(delegate.events.last == "auth whenInUse reduced", "an accuracy change is an authorization change")
      await phone.setServicesEnabled(false)
      try await phone.runUntilIdle()
      #expect(delegate.events.last == "auth denied reduced")
      #expect(CLLocationManager.locationServicesEnabled() == false)
    }
  }

  @Test("LOC-CL-02: a prompt only from notDetermined and in the foreground; nothing after Allow Once")
  @MainActor func promptRules() async throws {
    var configuration = EmulatedPhone.Configuration()
    configuration.promptAnswer = .allowOnce
    try await withEmulatedPhone(configuration) { phone in
      let manager = CLLocationManager()
      let delegate = DelegateRecorder()
      manager.delegate = delegate
      await phone.setAppState(.background)
      manager.requestWhenInUseAuthorization()
      try await phone.advance(by: .seconds(5))
      #expect(manager.authorizationStatus == .notDetermined, "no prompt in the background")

      await phone.setAppState(.foreground)
      manager.requestWhenInUseAuthorization()
      try await phone.advance(by: .seconds(1))
      #expect(manager.authorizationStatus == .authorizedWhenInUse, "Allow Once is when in use for the session")
      manager.requestAlwaysAuthorization()
      try await phone.advance(by: .seconds(5))
      #expect(manager.authorizationStatus == .authorizedWhenInUse, "no Always prompt after Allow Once")
      delegate.clear()
      await phone.setAppState(.background)
      try await phone.advance(by: .seconds(3600))
      #expect(delegate.events.contains("auth notDetermined full"), "Allow Once lapses back to notDetermined")
    }
  }

  @Test("LOC-CL-03: requestAlwaysAuthorization from notDetermined grants a provisional Always, confirmed on the background prompt")
  @MainActor func provisionalAlways() async throws {
    try await withEmulatedPhone { phone in
      phone.setPromptAnswer(.allowWhileUsing)
      let manager = CLLocationManager()
      let delegate = DelegateRecorder()
      manager.delegate = delegate
      manager.requestAlwaysAuthorization()
      try await phone.advance(by: .seconds(1))
      #expect(manager.authorizationStatus == .authorizedAlways, "provisional Always while in the foreground")
      phone.setPromptAnswer(.allowAlways)
      await phone.setAppState(.background)
      try await phone.advance(by: .seconds(2))
      #expect(manager.authorizationStatus == .authorizedAlways)
      manager.requestAlwaysAuthorization()
      try await phone.advance(by: .seconds(2))
      #expect(manager.authorizationStatus == .authorizedAlways, "once per app")
    }
  }

  @Test("LOC-CL-04: updates honour distanceFilter, measured from the last delivered location")
  @MainActor func distanceFilter() async throws {
    try await withEmulatedPhone(authorizedPhone()) { phone in
      let manager = CLLocationManager()
      let delegate = DelegateRecorder()
      manager.delegate = delegate
      manager.distanceFilter = 100
      manager.startUpdatingLocation()
      for metres in [0.0, 60, 120, 150, 230] {
        await phone.send(helsinki(north: metres))
        try await phone.advance(by: .seconds(1))
      }
      // 0 → delivered; 60 (60 from 0) no; 120 (120 from 0) yes; 150 (30) no; 230 (110) yes.
      let north = delegate.locations.map { ($0.coordinate.latitude - 60.1699) * 111_195.08 }
      #expect(north.map { $0.rounded() } == [0, 120, 230])
      #expect(manager.location.map { ($0.coordinate.latitude - 60.1699) * 111_195.08 }?.rounded() == 230)
      manager.stopUpdatingLocation()
      await phone.send(helsinki(north: 900))
      try await phone.advance(by: .seconds(1))
      #expect(delegate.locations.count == 3, "nothing after stop")
    }
  }

  @Test("LOC-CL-05: a desired accuracy of a kilometre or coarser gets network fixes: the position, that accuracy, no speed or course")
  @MainActor func desiredAccuracy() async throws {
    try await withEmulatedPhone(authorizedPhone()) { phone in
      let manager = CLLocationManager()
      let delegate = DelegateRecorder()
      manager.delegate = delegate
      #expect(manager.desiredAccuracy == kCLLocationAccuracyBest)
      manager.desiredAccuracy = kCLLocationAccuracyThreeKilometers
      manager.startUpdatingLocation()
      await phone.send(helsinki(north: 10))
      try await phone.advance(by: .seconds(1))
      let location = try #require(delegate.locations.first)
      #expect(location.horizontalAccuracy == 3000)
      // No grid: the device's own position (iOS fuzzes positions only for reduced accuracy).
      // The test moves the phone on the sphere; distance(from:) measures on the ellipsoid, 0.2 %
      // longer along a meridian at this latitude.
      #expect(abs(location.distance(from: CLLocation(latitude: 60.1699, longitude: 24.9384)) - 10 * 1.002) < 0.01)
      #expect(location.speed == -1 && location.course == -1 && location.verticalAccuracy == -1)
      // Moving 40 m moves the fix 40 m, as a network fix follows the device.
      await phone.send(helsinki(north: 50))
      try await phone.advance(by: .seconds(1))
      let moved: CLLocationDistance = delegate.locations.last?.distance(from: location) ?? 0
      #expect(abs(moved - 40 * 1.002) < 0.02)
    }
  }

  @Test("LOC-CL-06: updates pause after five still minutes (activity other), and resume on moving")
  @MainActor func pauseAndResume() async throws {
    try await withEmulatedPhone(authorizedPhone()) { phone in
      let manager = CLLocationManager()
      let delegate = DelegateRecorder()
      manager.delegate = delegate
      manager.startUpdatingLocation()
      for _ in 0...6 {
        await phone.send(helsinki(north: 1))
        try await phone.advance(by: .seconds(60))
      }
      #expect(delegate.events.filter { $0 == "paused" }.count == 1)
      let delivered = delegate.locations.count
      await phone.send(helsinki(north: 2))
      try await phone.advance(by: .seconds(1))
      #expect(delegate.locations.count == delivered, "paused: a still device gets nothing")
      await phone.send(helsinki(north: 400))
      try await phone.advance(by: .seconds(1))
      #expect(delegate.events.suffix(2) == ["resumed", "locations 1"])

      manager.pausesLocationUpdatesAutomatically = false
      delegate.clear()
      for _ in 0...10 {
        await phone.send(helsinki(north: 400))
        try await phone.advance(by: .seconds(60))
      }
      #expect(!delegate.events.contains("paused"), "no pause when the app says so")
    }
  }

  @Test("LOC-CL-07: requestLocation gives one location, .locationUnknown after its timeout, .denied when denied")
  @MainActor func requestLocation() async throws {
    try await withEmulatedPhone(authorizedPhone()) { phone in
      let manager = CLLocationManager()
      let delegate = DelegateRecorder()
      manager.delegate = delegate
      manager.requestLocation()
      try await phone.advance(by: .seconds(10))
      #expect(delegate.errorCodes == [.locationUnknown], "no fix within 10 s")

      manager.requestLocation()
      try await phone.advance(by: .seconds(2))
      await phone.send(helsinki(east: 50))
      try await phone.advance(by: .seconds(1))
      #expect(delegate.locations.count == 1)
      await phone.send(helsinki(east: 80))
      try await phone.advance(by: .seconds(1))
      #expect(delegate.locations.count == 1, "one location only")

      await phone.setAuthorization(.denied)
      manager.requestLocation()
      try await phone.advance(by: .seconds(1))
      #expect(delegate.errorCodes == [.locationUnknown, .denied])
    }
  }

  @Test("LOC-CL-08: updating loses its permission: .denied once; a lost fix: .locationUnknown once")
  @MainActor func failures() async throws {
    try await withEmulatedPhone(authorizedPhone()) { phone in
      let manager = CLLocationManager()
      let delegate = DelegateRecorder()
      manager.delegate = delegate
      manager.startUpdatingLocation()
      await phone.send(helsinki())
      try await phone.advance(by: .seconds(1))
      await phone.send(LocationFix(mode: .noFix))
      await phone.send(LocationFix(mode: .noFix))
      try await phone.advance(by: .seconds(1))
      #expect(delegate.errorCodes == [.locationUnknown])
      await phone.setAuthorization(.denied)
      try await phone.advance(by: .seconds(1))
      await phone.setServicesEnabled(false)
      try await phone.advance(by: .seconds(1))
      #expect(delegate.errorCodes == [.locationUnknown, .denied])
    }
  }

  @Test("LOC-CL-09: made off the main actor, the delegate is called on the phone's clock, in order")
  func offMainActor() async throws {
    try await withEmulatedPhone(authorizedPhone()) { phone in
      let manager = CLLocationManager()
      let delegate = DelegateRecorder()
      manager.delegate = delegate
      manager.startUpdatingLocation()
      for metres in stride(from: 0.0, to: 500, by: 50) { await phone.send(helsinki(north: metres)) }
      try await phone.runUntilIdle()
      #expect(delegate.locations.count == 10)
      #expect(delegate.locations.map(\.coordinate.latitude) == delegate.locations.map(\.coordinate.latitude).sorted())
      #expect(delegate.events.first == "auth whenInUse full")
    }
  }

  @Test("LOC-CL-10: two phones in one process stay apart")
  @MainActor func twoPhones() async throws {
    try await withEmulatedPhone(authorizedPhone()) { first in
      let one = CLLocationManager()
      let oneDelegate = DelegateRecorder()
      one.delegate = oneDelegate
      try await withEmulatedPhone { second in
        let two = CLLocationManager()
        let twoDelegate = DelegateRecorder()
        two.delegate = twoDelegate
        try await second.runUntilIdle()
        try await first.runUntilIdle()
        #expect(one.authorizationStatus == .authorizedWhenInUse)
        #expect(two.authorizationStatus == .notDetermined)
        one.startUpdatingLocation()
        two.startUpdatingLocation()
        await first.send(helsinki())
        try await first.advance(by: .seconds(1))
        try await second.advance(by: .seconds(1))
        #expect(oneDelegate.locations.count == 1)
        #expect(twoDelegate.locations.isEmpty)
      }
    }
  }

  @Test("LOC-CL-11: a manager that goes away leaves no observer behind and is told nothing")
  @MainActor func managerLifetime() async throws {
    try await withEmulatedPhone(authorizedPhone()) { phone in
      let delegate = DelegateRecorder()
      let before = phone.observerCount
      do {
        let manager = CLLocationManager()
        manager.delegate = delegate
        manager.startUpdatingLocation()
        #expect(phone.observerCount == before + 1)
      }
      #expect(phone.observerCount == before)
      await phone.send(helsinki())
      try await phone.runUntilIdle()
      #expect(delegate.locations.isEmpty)
    }
  }

  @Test("LOC-CL-12: temporary full accuracy: declined without a key or with full accuracy; granted for the foreground")
  @MainActor func temporaryFullAccuracy() async throws {
    try await withEmulatedPhone(authorizedPhone(.reduced)) { phone in
      let manager = CLLocationManager()
      await #expect {
        try await manager.requestTemporaryFullAccuracyAuthorization(withPurposeKey: "")
      } throws: {
        ($0 as? CLError)?.code == .promptDeclined
      }
      try await manager.requestTemporaryFullAccuracyAuthorization(withPurposeKey: "Finding")
      try await phone.advance(by: .seconds(1))
      #expect(manager.accuracyAuthorization == .fullAccuracy)
      do {
        try await manager.requestTemporaryFullAccuracyAuthorization(withPurposeKey: "Finding")
        Issue.record("declined when full accuracy is on already")
      } catch CLError.promptDeclined {
      }
      await phone.setAppState(.background)
      try await phone.runUntilIdle()
      #expect(manager.accuracyAuthorization == .reducedAccuracy, "it lasts while the app is in use")
    }
  }

  @Test("LOC-CL-13: significant changes: the first at once, then ~500 m and ~5 minutes")
  @MainActor func significantChanges() async throws {
    try await withEmulatedPhone(authorizedPhone()) { phone in
      await phone.send(helsinki())
      try await phone.runUntilIdle()
      let manager = CLLocationManager()
      let delegate = DelegateRecorder()
      manager.delegate = delegate
      manager.startMonitoringSignificantLocationChanges()
      try await phone.runUntilIdle()
      #expect(delegate.locations.count == 1)
      // 100 m a minute: 500 m after 5 minutes.
      for minute in 1...12 {
        await phone.send(helsinki(north: Double(minute) * 100))
        try await phone.advance(by: .seconds(60))
      }
      let north = delegate.locations.map { (($0.coordinate.latitude - 60.1699) * 111_195.08).rounded() }
      #expect(north == [0, 600, 1100], "600 m at 5 minutes, then 500 m and 5 minutes after")
    }
  }
}
