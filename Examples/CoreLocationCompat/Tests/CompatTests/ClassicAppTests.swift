import ClassicApp
import Combine
import CoreLocation
import Emulator
import Foundation
import MapKit
import Testing

/// Swift 5 code of the delegate era, unchanged, on emulated phones.
@MainActor
@Suite("Classic iOS location code (Swift 5): a singleton ObservableObject, geofences, geocoding")
struct ClassicAppTests {
  @Test("LOC-COMPAT-01: the permission flow and updates reach @Published properties, in order")
  func permissionThenUpdates() async throws {
    try await withEmulatedPhone(phone(.notDetermined, source: walkNorth(from: 0, to: 200, step: 20))) { phone in
      let model = LocationManager()
      var statuses: [CLAuthorizationStatus] = []
      let subscription = model.$authorizationStatus.sink { statuses.append($0) }
      defer { subscription.cancel() }
      try await phone.runUntilIdle()
      #expect(model.statusText == "notDetermined")
      model.requestPermission()
      try await phone.advance(by: .seconds(1))  // the user allows
      #expect(model.statusText == "authorizedWhenInUse")
      try await phone.advance(by: .seconds(3))
      let last = try #require(model.lastLocation)
      #expect(abs(last.coordinate.latitude - north(80).latitude) < 1e-6, "the fix at t=4 s, 80 m north")
      // @Published sends every assignment: the initial value, the delegate's first call (the same
      // status, as iOS calls it once the manager is made), then the answer.
      #expect(statuses == [.notDetermined, .notDetermined, .authorizedWhenInUse])
      #expect(model.lastError == nil)
    }
  }

  @Test("LOC-COMPAT-02: a denied app's one-shot request fails with CLError.denied, matched by code")
  func deniedRequestFails() async throws {
    try await withEmulatedPhone(phone(.denied)) { phone in
      let model = LocationManager()
      model.manager.requestLocation()
      try await phone.runUntilIdle()
      #expect(model.lastError == "denied")
      #expect(model.statusText == "denied")
    }
  }

  @Test("LOC-COMPAT-03: standing still pauses fitness updates (25 m for 15 minutes) and moving resumes them")
  func pausesWhenStill() async throws {
    let still = (0...960).map { ScriptedFix(at: .seconds($0), coordinate(home)) }
    let moving = (1...30).map { ScriptedFix(at: .seconds(960 + $0), coordinate(north(Double($0) * 5))) }
    try await withEmulatedPhone(phone(.authorizedWhenInUse, source: .script(still + moving))) { phone in
      let model = LocationManager()
      model.start()
      try await phone.advance(by: .seconds(14 * 60))
      #expect(!model.isPaused)
      try await phone.advance(by: .seconds(2 * 60))
      #expect(model.isPaused, "15 minutes within 25 m")
    }
  }

  @Test("LOC-COMPAT-04: geofences: 20 of 25 places are monitored; walking in and staying is an entry")
  func geofences() async throws {
    try await withEmulatedPhone(phone(.authorizedAlways, source: walkNorth(from: -300, to: 0, step: 10))) { phone in
      let geofences = GeofenceManager()
      var places = [(id: "home", center: home, radius: 100.0)]
      for i in 1...24 { places.append((id: "far\(i)", center: north(Double(i) * 5_000), radius: 100.0)) }
      let count = geofences.monitor(places, near: CLLocation(latitude: home.latitude, longitude: home.longitude))
      #expect(count == 20)
      #expect(geofences.locationManager.monitoredRegions.count == 20)
      #expect(geofences.locationManager.monitoredRegions.contains { $0.identifier == "home" })
      try await phone.advance(by: .seconds(60))
      #expect(geofences.events.contains("enter home"), "\(geofences.events)")
      #expect(!geofences.events.contains { $0.hasPrefix("enter far") })
    }
  }

  @Test("LOC-COMPAT-05: conformances apps add, MapKit's helpers, associated objects, reverse geocoding")
  func extensions() async throws {
    // Equatable, Hashable, Codable added by the app.
    let data = try JSONEncoder().encode(home)
    #expect(try JSONDecoder().decode(CLLocationCoordinate2D.self, from: data) == home)
    #expect(Set([home, home, north(1)]).count == 2)
    // MKDistanceFormatter and MKCoordinateRegion.
    let here = CLLocation(latitude: home.latitude, longitude: home.longitude)
    let there = CLLocation(latitude: north(1_200).latitude, longitude: home.longitude)
    #expect(here.formattedDistance(to: there) == "1.2 km away")
    let region = MKCoordinateRegion.around(home, radius: 10_000)
    #expect(abs(region.span.latitudeDelta * 111_195.08 - 20_000) < 100)
    // Associated objects on the manager.
    await withEmulatedPhone(phone()) { _ in
      let manager = CLLocationManager()
      #expect(manager.screenName == nil)
      manager.screenName = "landing"
      #expect(manager.screenName == "landing")
    }
    // CLGeocoder answers from the placemarks a test registered.
    LocationEmulatorGeocoding.register([
      CLPlacemark(location: here, name: "Rautatientori", thoroughfare: "Kaivokatu", locality: "Helsinki")
    ])
    defer { LocationEmulatorGeocoding.removeAll() }
    let line = await withCheckedContinuation { continuation in addressLine(for: here) { continuation.resume(returning: $0) } }
    #expect(line == "Kaivokatu, Helsinki")
  }
}
