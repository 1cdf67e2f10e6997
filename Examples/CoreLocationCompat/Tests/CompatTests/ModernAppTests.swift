import CoreLocation
import Emulator
import Foundation
import ModernApp
import Testing

/// Swift 6 code (an async wrapper over the delegate, live updates, CLMonitor), unchanged.
@MainActor
@Suite("Modern iOS location code (Swift 6): async wrappers, live updates, CLMonitor")
struct ModernAppTests {
  @Test("LOC-COMPAT-10: the async wrapper asks, then returns the location; assumeIsolated holds in the callbacks")
  func fetcherAsksThenLocates() async throws {
    try await withEmulatedPhone(phone(.notDetermined, answer: .allowWhileUsing)) { phone in
      let fetcher = LocationFetcher()
      let fetching = Task { try await fetcher.currentLocation() }
      try await phone.advance(by: .seconds(2))  // the prompt's answer, then the next fix
      let location = try await fetching.value
      #expect(abs(location.coordinate.latitude - home.latitude) < 1e-6)
      #expect(location.sourceInformation?.isSimulatedBySoftware == true)
    }
  }

  @Test("LOC-COMPAT-11: denied at the prompt, the wrapper throws; no fix within 10 s is CLError.locationUnknown")
  func fetcherErrors() async throws {
    try await withEmulatedPhone(phone(.notDetermined, answer: .deny)) { phone in
      let fetcher = LocationFetcher()
      let fetching = Task { try await fetcher.currentLocation() }
      try await phone.advance(by: .seconds(1))
      await #expect(throws: LocationFetcher.FetchError.denied) { try await fetching.value }
    }
    try await withEmulatedPhone(phone(.authorizedWhenInUse, source: .none)) { phone in
      let fetcher = LocationFetcher()
      let fetching = Task { try await fetcher.currentLocation() }
      try await phone.advance(by: .seconds(11))
      do {
        _ = try await fetching.value
        Issue.record("no fix, no location")
      } catch CLError.locationUnknown {
        // As on iOS: caught by its code.
      }
    }
  }

  @Test("LOC-COMPAT-12: an @Observable tracker over liveUpdates records a walk and stops")
  func walkTracker() async throws {
    try await withEmulatedPhone(phone(.authorizedWhenInUse, source: walkNorth(from: 0, to: 100, step: 10))) { phone in
      let tracker = WalkTracker()
      tracker.start()
      #expect(tracker.isRecording)
      try await phone.advance(by: .seconds(10))
      #expect(tracker.points.count == 11, "a fix a second for 10 s, the first at once")
      #expect(abs(tracker.distance - 100) < 1)
      #expect(tracker.problem == nil)
      tracker.stop()
      #expect(!tracker.isRecording)
    }
  }

  @Test("LOC-COMPAT-13: live updates say when authorization is denied")
  func walkTrackerDenied() async throws {
    try await withEmulatedPhone(phone(.denied)) { phone in
      let tracker = WalkTracker()
      tracker.start()
      try await phone.advance(by: .seconds(2))
      #expect(tracker.problem == "denied")
      #expect(tracker.points.isEmpty)
      tracker.stop()
    }
  }

  @Test("LOC-COMPAT-14: CLMonitor reports arriving at a place and leaving it")
  func regionWatcher() async throws {
    // A walk at 2 m/s through a 100 m circle: iOS's criteria (50 m past the boundary, held
    // 20 s) are met once inside and once beyond it.
    let route = walkNorth(from: -400, to: 400, step: 2)
    try await withEmulatedPhone(phone(.authorizedAlways, source: route)) { phone in
      let watcher = RegionWatcher()
      await watcher.watch(["home": (home, 100)])
      try await phone.advance(by: .seconds(420))
      let log = await watcher.log
      // The first state (outside), then the arrival and the departure, in order.
      #expect(log == ["left home", "arrived home", "left home"], "\(log)")
      await watcher.stop()
    }
  }
}
