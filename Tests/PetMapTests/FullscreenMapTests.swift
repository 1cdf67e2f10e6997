import Emulator
import Geo
import PetMap
import Testing
import LocationModel

/// The fullscreen map with its legend (ios-fullscreen-map-with-legend.spec.md).
@Suite struct FullscreenMapTests {
  let size = ScreenSize(width: 390, height: 844)

  @Test func fullscreenMap_US1_AS1_FR005_centersOnTheUserWith10km() {
    let model = FullscreenMapViewModel(userLocation: krakow, permissionGranted: true, size: size)
    #expect(model.isCenteredOnUser)
    #expect(model.initialRegion == krakow.mapRegion(radiusMeters: 10_000))
    let region = model.viewport.region
    #expect(abs(region.center.latitude - krakow.latitude) < 1e-9)
    #expect(abs(region.center.longitude - krakow.longitude) < 1e-9)
    // The whole 10 km circle is visible.
    #expect(region.contains(north(of: krakow, 9_990)))
  }

  @Test(arguments: [(Coordinate?.none, true), (krakow, false)])
  func fullscreenMap_FR006_defaultRegionWithoutLocationOrPermission(location: Coordinate?, granted: Bool) {
    let home = MapRegion(center: Coordinate(latitude: 51.1079, longitude: 17.0385)!, latitudinalMeters: 30_000, longitudinalMeters: 30_000)
    let model = FullscreenMapViewModel(userLocation: location, permissionGranted: granted, defaultRegion: home, size: size)
    #expect(!model.isCenteredOnUser)
    #expect(model.initialRegion == home)
    #expect(model.viewport.center == home.center)
  }

  @Test func fullscreenMap_US1_AS2_FR002_pinchInShowsASmallerArea() {
    let model = FullscreenMapViewModel(userLocation: warsaw, permissionGranted: true, size: size)
    let before = model.viewport.region
    model.pinch(scale: 2)
    let after = model.viewport.region
    #expect(abs(after.latitudeDelta / before.latitudeDelta - 0.5) < 0.01)
    #expect(abs(after.longitudeDelta / before.longitudeDelta - 0.5) < 1e-9)
  }

  @Test func fullscreenMap_US1_AS3_pinchOutShowsALargerArea() {
    let model = FullscreenMapViewModel(userLocation: warsaw, permissionGranted: true, size: size)
    let before = model.viewport.region
    model.pinch(scale: 0.25)
    #expect(abs(model.viewport.region.longitudeDelta / before.longitudeDelta - 4) < 1e-9)
  }

  @Test func fullscreenMap_pinchKeepsThePointUnderTheFingers() {
    let model = FullscreenMapViewModel(userLocation: warsaw, permissionGranted: true, size: size)
    let fingers = ScreenPoint(x: 300, y: 200)
    let under = model.viewport.coordinate(at: fingers)
    model.pinch(scale: 1.7, at: fingers)
    let p = model.viewport.point(for: under)
    #expect(abs(p.x - fingers.x) < 1e-6 && abs(p.y - fingers.y) < 1e-6)
  }

  @Test func fullscreenMap_US1_AS4_FR003_panMovesTheVisibleArea() {
    let model = FullscreenMapViewModel(userLocation: warsaw, permissionGranted: true, size: size)
    let before = model.viewport
    // Drag the map 100 points right and 50 down: what was left and above comes into view.
    model.pan(dx: 100, dy: 50)
    let after = model.viewport
    #expect(after.center.longitude < before.center.longitude)
    #expect(after.center.latitude > before.center.latitude)
    #expect(after.zoom == before.zoom)
    // The spot that was at the centre is now 100 right and 50 down of it.
    let p = after.point(for: before.center)
    #expect(abs(p.x - (size.width / 2 + 100)) < 1e-6 && abs(p.y - (size.height / 2 + 50)) < 1e-6)
  }

  @Test func fullscreenMap_US1_AS5_FR004_doubleTapZoomsInOnTheTappedLocation() {
    let model = FullscreenMapViewModel(userLocation: warsaw, permissionGranted: true, size: size)
    let tap = ScreenPoint(x: 100, y: 600)
    let spot = model.viewport.coordinate(at: tap)
    let zoom = model.viewport.zoom
    model.doubleTap(at: tap)
    #expect(abs(model.viewport.zoom - (zoom + 1)) < 1e-9)
    let p = model.viewport.point(for: spot)
    #expect(abs(p.x - tap.x) < 1e-6 && abs(p.y - tap.y) < 1e-6)
    #expect(model.viewport.region.contains(spot))
  }

  @Test func fullscreenMap_SC003_gesturesAreClampedToSaneSpans() {
    let model = FullscreenMapViewModel(userLocation: warsaw, permissionGranted: true, size: size)
    for _ in 0..<100 { model.pinch(scale: 3) }
    #expect(model.viewport.zoom == MapViewport.zoomRange.upperBound)
    for _ in 0..<100 { model.pinch(scale: 0.1) }
    #expect(model.viewport.zoom == MapViewport.zoomRange.lowerBound)
    for _ in 0..<50 { model.pan(dx: 0, dy: 100_000) }
    #expect(model.viewport.center.latitude <= WebMercator.maxLatitude)
    model.pinch(scale: .nan)
    model.pan(dx: .infinity, dy: 0)
    #expect(model.viewport.zoom.isFinite && model.viewport.center.longitude.isFinite)
  }

  @Test func fullscreenMap_panAcrossTheAntimeridianWraps() {
    let fiji = Coordinate(latitude: -17.7, longitude: 179.9)!
    let model = FullscreenMapViewModel(userLocation: fiji, permissionGranted: true, size: size)
    model.pan(dx: -2_000, dy: 0)
    #expect(model.viewport.center.longitude < 0)
    #expect(model.viewport.center.longitude > -180)
  }

  @Test func fullscreenMap_US2_AS1_AS2_FR007_FR009_legendShowsMissingAndFound() {
    let model = FullscreenMapViewModel(userLocation: warsaw, permissionGranted: true)
    #expect(model.legend.map(\.kind) == [.missing, .found])
    #expect(model.legend.map(\.label) == ["Missing", "Found"])
    #expect(model.legend.map(\.colorHex) == [LegendItem.color(of: .missing), LegendItem.color(of: .found)])
    #expect(Set(model.legend.map(\.colorHex)).count == 2)
    #expect(LegendItem.kind(of: .active) == .missing && LegendItem.kind(of: .found) == .found && LegendItem.kind(of: .closed) == nil)
  }

  @Test func fullscreenMap_legendAndTitleAreLocalizedInPolish() {
    let model = FullscreenMapViewModel(userLocation: warsaw, permissionGranted: true, strings: MapStrings(.polish))
    #expect(model.title == "Lokalizacje zwierząt")
    #expect(model.legend.map(\.label) == ["Zaginione", "Znalezione"])
    #expect(FullscreenMapViewModel(userLocation: warsaw, permissionGranted: true).title == "Pet Locations")
    // Every key has both languages.
    for language in MapLanguage.allCases {
      for key in [
        "fullscreenMap.navigationTitle", "mapSection.legend.missing", "mapSection.legend.found", "mapPreview.permission.message",
        "mapPreview.error.message", "mapPreview.error.retry",
      ] {
        #expect(MapStrings(language)[key] != key, "\(language) \(key)")
      }
    }
    #expect(MapStrings(.polish)["mapPreview.error.retry"] != MapStrings(.english)["mapPreview.error.retry"])
  }

  @Test func fullscreenMap_FR010_viewportSurvivesBackgroundAndForeground() {
    let store = ViewportStore()
    let model = FullscreenMapViewModel(userLocation: warsaw, permissionGranted: true, size: size, store: store)
    model.pinch(scale: 3, at: ScreenPoint(x: 50, y: 50))
    model.pan(dx: 30, dy: -70)
    let moved = model.viewport
    model.appStateChanged(.background)
    model.appStateChanged(.foreground)
    #expect(model.viewport == moved)
    // A model rebuilt after the app was away (the view was torn down) opens where the user left it.
    let rebuilt = FullscreenMapViewModel(userLocation: krakow, permissionGranted: true, size: size, store: store)
    #expect(rebuilt.viewport == moved)
  }

  @Test func fullscreenMap_FR011_rotationKeepsCentreAndScale() {
    let model = FullscreenMapViewModel(userLocation: warsaw, permissionGranted: true, size: size)
    model.pan(dx: 40, dy: 40)
    let before = model.viewport
    model.resize(to: ScreenSize(width: size.height, height: size.width))
    let after = model.viewport
    #expect(after.center == before.center)
    #expect(after.zoom == before.zoom)
    #expect(after.metersPerPoint == before.metersPerPoint)
    #expect(after.region.longitudeDelta > before.region.longitudeDelta)
    model.resize(to: size)
    #expect(model.viewport == before)
  }
}
