import CoreLocation
import Emulator
import Foundation
import LocationModel
import MapKit
import Testing

@testable import LostPets

/// The seeds' acceptance scenarios (specs/ios-landing-page-map-preview.spec.md, the pins' data
/// model, specs/ios-navigation-to-fullscreen-map.spec.md), run on the app's own iOS-style code
/// on an emulated phone, on virtual time: each step is an advance, each check comes right after.
@MainActor
@Suite("Lost pets, the iOS way, on an emulated phone")
struct LandingPageTests {
  @Test("US1-AS2 / FR-003: granted, the preview centres on the user with a 10 km radius, with the open pets within it")
  func grantedShowsTheMapWithPins() async throws {
    try await withApp(phone(.authorizedWhenInUse)) { app in
      let appearing = Task { await app.landing.onAppear() }
      try await app.phone.runUntilIdle()
      await appearing.value
      let region = try #require(app.landing.mapPreview.region)
      #expect(abs(region.center.latitude - home.latitude) < 1e-6 && abs(region.center.longitude - home.longitude) < 1e-6)
      // 10 km each way: 20 km of latitude.
      #expect(abs(region.span.latitudeDelta * 111_195.08 - 20_000) < 50)
      #expect(app.landing.mapPreview.pinIDs == ["rex", "mia", "bo"], "open pets within 10 km; closed and far ones left out")
      #expect(app.announcements.queries == [.landingPageQuery(location: home)])
    }
  }

  @Test("US2-AS2: not determined, the user allows at the prompt, the map loads without a restart")
  func promptThenMap() async throws {
    try await withApp(phone(.notDetermined, answer: .allowWhileUsing)) { app in
      let appearing = Task { await app.landing.onAppear() }
      try await app.phone.advance(by: .milliseconds(500))
      #expect(app.landing.mapPreview == .loading, "the prompt is up")
      try await app.phone.advance(by: .milliseconds(500))
      await appearing.value
      #expect(app.landing.mapPreview.pinIDs == ["rex", "mia", "bo"])
    }
  }

  @Test("US2-AS1 / FR-006: denied, the preview says location consent is required")
  func deniedNeedsPermission() async throws {
    try await withApp(phone(.notDetermined, answer: .deny)) { app in
      let appearing = Task { await app.landing.onAppear() }
      try await app.phone.advance(by: .seconds(1))
      await appearing.value
      #expect(app.landing.mapPreview == .permissionRequired(message: LandingPageViewModel.permissionMessage, onGoToSettings: {}))
      #expect(app.announcements.queries.isEmpty)
    }
  }

  @Test("Edge case: Location Services off reads as not granted")
  func servicesOff() async throws {
    try await withApp(phone(.authorizedWhenInUse, services: false)) { app in
      let appearing = Task { await app.landing.onAppear() }
      try await app.phone.runUntilIdle()
      await appearing.value
      #expect(app.landing.mapPreview.isPermissionRequired)
      let status = await app.service.authorizationStatus
      #expect(status == .denied)
      // Switched on again: the map loads (the stream says so).
      await app.phone.setServicesEnabled(true)
      try await app.phone.advance(by: .seconds(1))  // the next fix
      #expect(app.landing.mapPreview.pinIDs == ["rex", "mia", "bo"])
    }
  }

  @Test("Allow Once lapses when the app goes to the background: back in the foreground, the preview asks for consent again")
  func allowOnceLapses() async throws {
    try await withApp(phone(.notDetermined, answer: .allowOnce)) { app in
      let appearing = Task { await app.landing.onAppear() }
      try await app.phone.advance(by: .seconds(1))
      await appearing.value
      #expect(app.landing.mapPreview.pinIDs != nil)
      await app.phone.setAppState(.background)
      try await app.phone.runUntilIdle()
      let status = await app.service.authorizationStatus
      #expect(status == .notDetermined)
      await app.phone.setAppState(.foreground)
      try await app.phone.runUntilIdle()
      #expect(app.landing.mapPreview.isPermissionRequired)
    }
  }

  @Test("US2-AS4: permission changed in Settings while in the background is seen on returning to the foreground")
  func recheckOnForeground() async throws {
    try await withApp(phone(.denied)) { app in
      let appearing = Task { await app.landing.onAppear() }
      try await app.phone.runUntilIdle()
      await appearing.value
      #expect(app.landing.mapPreview.isPermissionRequired)
      await app.phone.setAppState(.background)
      await app.phone.setAuthorization(.authorizedWhenInUse)
      await app.phone.setAppState(.foreground)
      try await app.phone.advance(by: .seconds(1))  // the next fix
      #expect(app.landing.mapPreview.pinIDs == ["rex", "mia", "bo"])
    }
  }

  @Test("FR-004a / navigation FR-001, FR-007: a tap on the loaded preview opens the fullscreen map once; back, then again")
  func tapOpensTheFullscreenMapOnce() async throws {
    try await withApp(phone(.authorizedWhenInUse)) { app in
      #expect(app.navigation.stack == ["landing"])
      let appearing = Task { await app.landing.onAppear() }
      try await app.phone.runUntilIdle()
      await appearing.value
      app.landing.mapPreview.tap()
      app.landing.mapPreview.tap()
      #expect(app.navigation.stack == ["landing", "map"], "a rapid second tap opens nothing")
      let map = try #require(app.navigation.pushedMaps.first)
      #expect(map.mapRegion.center.latitude == home.latitude && abs(map.mapRegion.span.latitudeDelta * 111_195.08 - 20_000) < 50)
      #expect(map.legend.map(\.title) == ["Lost", "Found"])
      app.coordinator.closeFullscreenMap()
      #expect(app.navigation.stack == ["landing"])
      app.landing.mapPreview.tap()
      #expect(app.navigation.stack == ["landing", "map"])
    }
  }

  @Test("FR-004c: a tap while loading or on an error does nothing; no fix within 10 s is an error with a retry")
  func noFixIsAnErrorWithRetry() async throws {
    try await withApp(phone(.authorizedWhenInUse, source: .none)) { app in
      let appearing = Task { await app.landing.onAppear() }
      try await app.phone.advance(by: .seconds(5))
      #expect(app.landing.mapPreview == .loading)
      app.landing.mapPreview.tap()
      try await app.phone.advance(by: .seconds(5))
      await appearing.value
      #expect(app.landing.mapPreview == .error(message: LandingPageViewModel.errorMessage, onRetry: {}))
      #expect(app.navigation.stack == ["landing"])
      // FR-010: retry, with a fix this time.
      guard case .error(_, let retry) = app.landing.mapPreview else { return }
      retry()
      try await app.phone.runUntilIdle()
      await app.phone.send(LocationModel.Coordinate(latitude: home.latitude, longitude: home.longitude)!)
      try await app.phone.runUntilIdle()
      #expect(app.landing.mapPreview.pinIDs == ["rex", "mia", "bo"])
    }
  }

  @Test("FR-002: the preview's snapshot (MKMapSnapshotter) has every pin inside the picture")
  func snapshotHoldsThePins() async throws {
    try await withApp(phone(.authorizedWhenInUse)) { app in
      let appearing = Task { await app.landing.onAppear() }
      try await app.phone.runUntilIdle()
      await appearing.value
      guard case .map(let region, let pins, _) = app.landing.mapPreview else {
        Issue.record("no map")
        return
      }
      let options = MKMapSnapshotter.Options()
      options.region = region
      options.size = CGSize(width: 360, height: 202.5)  // 16:9 (FR-001a)
      let snapshot = try await MKMapSnapshotter(options: options).start()
      for pin in pins {
        let point = snapshot.point(for: pin.clLocationCoordinate)
        #expect(point.x >= 0 && point.x <= 360 && point.y >= 0 && point.y <= 202.5, "\(pin.id) at \(point)")
      }
    }
  }
}
