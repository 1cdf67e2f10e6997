@testable import CoreLocation
import Emulator
import Foundation
import Geo
import LocationModel
import TestSupport
import Testing

/// Behaviours Apple's documentation states, each checked on an emulated phone on virtual time:
/// a start with no fix to be had, a one-shot request across the background, and the model the
/// distance between two locations is measured on.
@Suite("CoreLocation as Apple documents it")
struct AppleDocumentedBehaviourTests {
  @Test("LOC-CL-08b: updating with no fix to be had reports .locationUnknown once, at 10 s, and keeps trying")
  @MainActor func noFixAfterAStart() async throws {
    try await withEmulatedPhone(authorizedPhone()) { phone in
      let manager = CLLocationManager()
      let delegate = DelegateRecorder()
      manager.delegate = delegate
      manager.startUpdatingLocation()
      try await phone.advance(by: .seconds(9))
      #expect(delegate.errorCodes.isEmpty, "not before the deadline")
      try await phone.advance(by: .seconds(1))
      #expect(delegate.errorCodes == [.locationUnknown], "Apple: reports locationUnknown and keeps trying")
      try await phone.advance(by: .seconds(120))
      #expect(delegate.errorCodes == [.locationUnknown], "once")
      await phone.send(helsinki())
      try await phone.advance(by: .seconds(1))
      #expect(delegate.locations.count == 1, "it kept trying: the first fix is delivered")

      // A fix before the deadline: nothing to report. A stop ends the deadline.
      manager.stopUpdatingLocation()
      manager.startUpdatingLocation()
      await phone.send(helsinki(north: 30))
      try await phone.advance(by: .seconds(30))
      manager.stopUpdatingLocation()
      manager.startUpdatingLocation()
      manager.stopUpdatingLocation()
      try await phone.advance(by: .seconds(30))
      #expect(delegate.errorCodes == [.locationUnknown])
    }
  }

  @Test("LOC-CL-07b: a one-shot request suspends while the app is in the background and completes on its return")
  @MainActor func requestSuspendedInTheBackground() async throws {
    try await withEmulatedPhone(authorizedPhone()) { phone in
      let manager = CLLocationManager()
      let delegate = DelegateRecorder()
      manager.delegate = delegate
      manager.requestLocation()
      await phone.setAppState(.background)
      try await phone.advance(by: .seconds(60))
      #expect(delegate.errorCodes.isEmpty && delegate.locations.isEmpty, "suspended: no answer in the background")

      await phone.setAppState(.foreground)
      try await phone.advance(by: .seconds(1))
      await phone.send(helsinki(east: 20))
      try await phone.advance(by: .seconds(1))
      #expect(delegate.locations.count == 1, "completed on the return")
      #expect(delegate.errorCodes.isEmpty)

      // Asked in the background, answered in the foreground; and a return with no fix to be
      // had ends as a request in the foreground does, at its deadline.
      await phone.setAppState(.background)
      manager.requestLocation()
      try await phone.advance(by: .seconds(30))
      await phone.setAppState(.foreground)
      try await phone.advance(by: .seconds(10))
      #expect(delegate.locations.count == 1)
      #expect(delegate.errorCodes == [.locationUnknown], "the resumed request's own deadline")
    }
  }

  @Test("distance(from:) measures along the WGS 84 ellipsoid, as iOS does, not on a sphere")
  func distanceOnTheEllipsoid() {
    // One degree of meridian from 60° N, integrated independently of Vincenty's iteration:
    // Simpson's rule over the ellipsoid's meridian radius of curvature.
    let a = 6_378_137.0, f = 1 / 298.257_223_563, e2 = f * (2 - f)
    func meridianRadius(_ latitude: Double) -> Double { a * (1 - e2) / pow(1 - e2 * sin(latitude) * sin(latitude), 1.5) }
    let lower = 60 * Double.pi / 180, upper = 61 * Double.pi / 180, steps = 1000
    let h = (upper - lower) / Double(steps)
    var sum = meridianRadius(lower) + meridianRadius(upper)
    for i in 1..<steps { sum += meridianRadius(lower + Double(i) * h) * (i % 2 == 1 ? 4 : 2) }
    let arc = sum * h / 3
    let measured = CLLocation(latitude: 60, longitude: 25).distance(from: CLLocation(latitude: 61, longitude: 25))
    #expect(abs(measured - arc) < 0.01, "\(measured) m against the meridian arc's \(arc) m")
    #expect(abs(measured - 111_195) > 200, "not the sphere's figure")

    // Vincenty's own test line (Survey Review, 1975): Flinders Peak to Buninyong, 54,972.271 m.
    func degrees(_ d: Double, _ m: Double, _ s: Double) -> Double { (d.sign == .minus ? -1 : 1) * (abs(d) + m / 60 + s / 3600) }
    let flinders = CLLocation(latitude: degrees(-37, 57, 3.72030), longitude: degrees(144, 25, 29.52440))
    let buninyong = CLLocation(latitude: degrees(-37, 39, 10.15610), longitude: degrees(143, 55, 35.38390))
    #expect(abs(flinders.distance(from: buninyong) - 54_972.271) < 0.001)
    #expect(abs(flinders.distance(from: buninyong) - buninyong.distance(from: flinders)) < 1e-6)
    #expect(flinders.distance(from: flinders) == 0)

    // A circular region holds what is within its radius by the same measure.
    let centre = CLLocationCoordinate2D(latitude: 60, longitude: 25)
    let region = CLCircularRegion(center: centre, radius: arc - 1, identifier: "degree")
    #expect(!region.contains(CLLocationCoordinate2D(latitude: 61, longitude: 25)), "a sphere's 111,195 m would put it inside")
    #expect(region.contains(CLLocationCoordinate2D(latitude: 60.999, longitude: 25)))
  }
}

/// Declarations real code used that were missing (issue 48's smaller gaps), each in the shape it
/// was met.
@Suite("Smaller gaps real code met")
struct SmallerGapsTests {
  /// An app's own region kind, made with `super.init()` as such subclasses are.
  final class AreaOfInterest: CLRegion, @unchecked Sendable {
    let name: String

    init(name: String) {
      self.name = name
      super.init()
    }

    required init?(coder: NSCoder) { nil }
  }

  @Test("CLRegion has a public init() for subclasses: no identifier, no shape")
  func regionSubclass() {
    let area = AreaOfInterest(name: "park")
    #expect(area.identifier == "" && area.name == "park" && area.notifyOnEntry && area.notifyOnExit)
  }

  @Test("geocodeAddressDictionary (deprecated, available) finds what the same address as a string finds")
  @available(*, deprecated)
  func addressDictionary() async throws {
    let place = CLPlacemark(
      location: CLLocation(latitude: 60.2, longitude: 24.9), name: "Dictzebra Hall", thoroughfare: "Dictzebrankatu",
      subThoroughfare: "3", locality: "Helsinki", postalCode: "00520", isoCountryCode: "FI", country: "Finland")
    LocationEmulatorGeocoding.register([place])
    let dictionary: [AnyHashable: Any] = ["Street": "3 Dictzebrankatu", "City": "Helsinki", "ZIP": "00520", "Country": "Finland"]
    #expect(CLGeocoder.addressString(dictionary) == "3 Dictzebrankatu, Helsinki, 00520, Finland")
    let found: [CLPlacemark] = try await withCheckedThrowingContinuation { continuation in
      CLGeocoder().geocodeAddressDictionary(dictionary) { placemarks, error in
        if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: placemarks ?? []) }
      }
    }
    #expect(found.map(\.name) == ["Dictzebra Hall"])
  }
}

@Suite("The process's phone, set up from the environment as a simulator is before a test run")
struct ProcessPhoneEnvironmentTests {
  @Test("LOC-CL-71: permission, accuracy, services, location and the prompt's answer are read; a bad value is named and the default kept")
  func configuration() {
    let (set, problems) = ProcessPhone.configuration([
      "LOCEMU_PERMISSION": "whenInUse", "LOCEMU_ACCURACY": "reduced", "LOCEMU_SERVICES": "on", "LOCEMU_LOCATION": "60.17, 24.94",
      "LOCEMU_PROMPT_ANSWER": "deny",
    ])
    #expect(problems.isEmpty)
    #expect(set.permission.appStatus == .authorizedWhenInUse && set.permission.accuracy == .reduced && set.permission.servicesEnabled)
    #expect(set.promptAnswer == .deny && (try? set.source.makeTimeline(startDate: Date())) != nil)

    let (fresh, none) = ProcessPhone.configuration([:])
    #expect(none.isEmpty && fresh.permission.appStatus == .notDetermined && fresh.promptAnswer == .allowWhileUsing)
    #expect((try? fresh.source.makeTimeline(startDate: Date())) ?? nil == nil, "no location, as a simulator set to None")

    let (kept, bad) = ProcessPhone.configuration(["LOCEMU_PERMISSION": "maybe", "LOCEMU_LOCATION": "north", "LOCEMU_SERVICES": "off"])
    #expect(bad.count == 2 && bad[0].hasPrefix("LOCEMU_PERMISSION=maybe") && kept.permission.appStatus == .notDetermined)
    #expect(!kept.permission.servicesEnabled)
  }
}
