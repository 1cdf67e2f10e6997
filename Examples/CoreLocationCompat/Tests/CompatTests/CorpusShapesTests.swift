import Combine
import CoreLocation
import CorpusShapes
import Emulator
import Foundation
import MapKit
import Testing
import simd

/// The shapes of real open-source code that did not build or ran differently (the corpus table
/// in the CoreLocation article), each run on an emulated phone.
@MainActor
@Suite("Shapes of real open-source location code (corpus regressions)")
struct CorpusShapesTests {
  @Test("LOC-COMPAT-30: a file importing CoreLocation alone uses NSObject and NSObjectProtocol; the prompt's answer resumes it")
  func permissionRequesterWithCoreLocationAlone() async throws {
    try await withEmulatedPhone(phone(.notDetermined, answer: .allowWhileUsing)) { phone in
      nonisolated(unsafe) let requester = PermissionRequester()
      let asking = Task { await requester.requestWhenInUse() }
      try await phone.advance(by: .seconds(1))
      #expect(await asking.value == .authorizedWhenInUse)
      #expect(requester.askedAt != nil)
    }
  }

  @Test(
    "LOC-COMPAT-31: an ObservableObject store with Foundation and CoreLocation imports publishes; its DateComponentsFormatter writes the age"
  )
  func observableStoreWithoutImportCombine() async throws {
    try await withEmulatedPhone(phone(.notDetermined, answer: .allowWhileUsing)) { phone in
      let store = LocationStore()
      var changes = 0
      let watching = store.objectWillChange.sink { changes += 1 }
      store.start()
      try await phone.advance(by: .seconds(2))
      #expect(store.status == .authorizedWhenInUse)
      let location = try #require(store.location)
      #expect(changes >= 2)
      #expect(store.age(at: location.timestamp.addingTimeInterval(300)) == "5m ago")
      watching.cancel()
    }
  }

  @Test(
    "LOC-COMPAT-40: key-value observing without a delegate: publisher(for: \\.location) follows the fixes, observe(\\.authorizationStatus) the answer"
  )
  func keyValueObservingWithoutADelegate() async throws {
    try await withEmulatedPhone(phone(.notDetermined, answer: .allowWhileUsing)) { phone in
      let store = KeyValueObservingStore()
      #expect(store.currentLocation == nil)  // the publisher's initial value
      #expect(store.statuses == [.notDetermined])  // the observation's initial value
      store.start()
      try await phone.advance(by: .seconds(1))
      #expect(store.statuses == [.notDetermined, .authorizedWhenInUse])
      let first = try #require(store.currentLocation)
      try await phone.advance(by: .seconds(3))
      let later = try #require(store.currentLocation)
      #expect(later.timestamp.timeIntervalSince(first.timestamp) == 3)
      #expect(later === store.locationManager.location)
      store.stop()
      try await phone.advance(by: .seconds(1))
      #expect(store.currentLocation === later)
      await phone.setAuthorization(.denied)
      #expect(store.statuses == [.notDetermined, .authorizedWhenInUse])  // invalidated: no more changes
    }
  }

  @Test("LOC-COMPAT-32: notifications(named:) sees the app become active; NSEC_PER_SEC has Darwin's value")
  func appStateWatcherOnNotificationsSequence() async throws {
    try await withEmulatedPhone(phone(.authorizedWhenInUse)) { phone in
      let center = NotificationCenter()
      let posting = phone.postApplicationNotifications(to: center)
      let watcher = AppStateWatcher()
      await watcher.start(center: center)
      await phone.setAppState(.background)
      await phone.setAuthorization(.denied)
      await phone.setAppState(.foreground)
      try await phone.runUntilIdle()
      #expect(await watcher.statusesOnReturn == [.denied])
      await watcher.stop()
      posting.cancel()
    }
    #expect(AppStateWatcher.retryDelay == 2_500_000_000)
  }

  @Test("LOC-COMPAT-33: NotificationCenter.default.publisher(for:) and NotificationCenter.Publisher.Output, by Apple's names")
  func notificationPublisher() async throws {
    let center = NotificationCenter()
    let relay = NotificationRelay()
    let name = Notification.Name("UIApplicationDidBecomeActiveNotification")
    relay.watch(name, center: center)
    center.post(name: name, object: nil)
    #expect(relay.received == ["UIApplicationDidBecomeActiveNotification"])
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      relay.watchOnMain(name, center: center) { done.resume() }
      center.post(name: name, object: nil)
    }
    #expect(relay.received.count == 2)
  }

  @Test("LOC-COMPAT-34: MKPolyline from coordinates, and CLLocation() at 0°, 0°")
  func routeOverlay() throws {
    let route = RouteOverlay(coordinates: [home, north(1_000), north(2_000)])
    let line = route.mkPolyline
    #expect(line.pointCount == 3)
    var back = [CLLocationCoordinate2D](repeating: CLLocationCoordinate2D(), count: 3)
    line.getCoordinates(&back, range: NSRange(location: 0, length: 3))
    #expect(abs(back[2].latitude - north(2_000).latitude) < 1e-9 && abs(back[0].longitude - home.longitude) < 1e-9)
    // A line due north: bounds of no width, from the first point to the last.
    let bounds = line.boundingMapRect
    #expect(bounds.width == 0 && bounds.minY == MKMapPoint(north(2_000)).y && bounds.maxY == MKMapPoint(home).y)
    #expect(abs(line.coordinate.latitude - north(1_000).latitude) < 1e-5)
    // Along the line, as distance(from:) measures (on the ellipsoid: 2,000 m of the test's sphere
    // is 2,004 m there).
    let along = CLLocation(latitude: home.latitude, longitude: home.longitude)
      .distance(from: CLLocation(latitude: north(2_000).latitude, longitude: north(2_000).longitude))
    #expect(abs(Double(line.locations(atPointIndexes: IndexSet([2]))[0]) - along) < 1e-6 && abs(along - 2_000) < 5)
    let none = RouteOverlay(coordinates: []).end
    #expect(none.coordinate.latitude == 0 && none.coordinate.longitude == 0 && none.horizontalAccuracy == 0)
  }

  @Test("LOC-COMPAT-35: an MKMapView without a screen: bounds, a region fitted to its aspect, annotations")
  func mapViewState() async throws {
    let map = MKMapView(frame: CGRect(x: 0, y: 0, width: 300, height: 600))
    map.setRegion(MKCoordinateRegion(center: home, latitudinalMeters: 1_000, longitudinalMeters: 1_000), animated: false)
    // Twice as tall as wide: the region shown grows to twice its width in height.
    #expect(abs(map.visibleMapRect.height / map.visibleMapRect.width - 2) < 1e-6)
    #expect(abs(map.region.center.latitude - home.latitude) < 1e-6)
    map.addAnnotation(MKPointAnnotation(coordinate: home))
    #expect(map.annotations(in: map.visibleMapRect).count == 1)
    let viewport = ClusterViewport()
    await viewport.reload(mkMapView: map)
    #expect(await viewport.lastSize == CGSize(width: 300, height: 600))
  }

  @Test("LOC-COMPAT-36: type(of:).description() names the class, as Apple's +[NSObject description]")
  func loggingTracker() async throws {
    try await withEmulatedPhone(phone(.authorizedWhenInUse, source: walkNorth(from: 0, to: 50, step: 10))) { phone in
      let tracker = LoggingTracker()
      tracker.start()
      try await phone.advance(by: .seconds(5))
      #expect(tracker.updates >= 5)
      #expect(tracker.className == "CorpusShapes.LoggingTracker")
      #expect(tracker.log.last == "CorpusShapes.LoggingTracker: \(tracker.updates) fixes")
    }
  }

  @Test("LOC-COMPAT-37: a tracker with import os: Logger with privacy, os_log, OSAllocatedUnfairLock and signposts")
  func osLoggingTracker() async throws {
    try await withEmulatedPhone(phone(.authorizedWhenInUse, source: walkNorth(from: 0, to: 50, step: 10))) { phone in
      let tracker = OSLoggingTracker()
      tracker.start()
      try await phone.advance(by: .seconds(5))
      #expect(tracker.updates >= 5)
    }
  }

  @Test("LOC-COMPAT-38: an iOS 26 client reverse-geocodes with MKReverseGeocodingRequest and reads the city's name")
  func cityNameClient() async throws {
    LocationEmulatorGeocoding.register([
      CLPlacemark(location: CLLocation(latitude: 61.4978, longitude: 23.7610), name: "Keskustori", locality: "Tampere", country: "Finland")
    ])
    #expect(try await CityNameClient.live.cityName(CLLocation(latitude: 61.4979, longitude: 23.7611)) == "Tampere")
    #expect(try await CityNameClient.live.cityName(CLLocation(latitude: 95, longitude: 0)) == nil)
  }

  @Test(
    "LOC-COMPAT-41: an actor over a delegate that hops through its own DispatchQueue and the main queue answers on a real-time clock; simd translations",
    .timeLimit(.minutes(10))
  )
  func dispatchQueueWrapperOnARealTimeClock() async throws {
    // Blocks on a DispatchQueue are work no virtual clock can count (they are not Swift jobs):
    // such code runs as on a device, on a real-time clock, with a short prompt. The request's
    // timeout (10 s by default, real time here) would race the first fix on a loaded machine:
    // 600 s makes it a hang guard, as the time limit (10 minutes) is the test's.
    var configuration = phone(.notDetermined, answer: .allowWhileUsing)
    configuration.promptDelay = .milliseconds(100)
    configuration.requestTimeout = .seconds(600)
    try await withEmulatedPhone(configuration, clock: .realTime()) { _ in
      let locator = QueuedLocator()
      #expect(await locator.requestWhenInUse() == .authorizedWhenInUse)
      let location = try await locator.location()
      #expect(abs(location.coordinate.latitude - home.latitude) < 1e-9)
      let up = CLLocation(
        coordinate: north(1_000), altitude: 100, horizontalAccuracy: 5, verticalAccuracy: 5, timestamp: location.timestamp)
      let translation = up.translation(from: CLLocation(latitude: home.latitude, longitude: home.longitude))
      #expect(abs(translation.y - 1_000) < 1e-6 && abs(translation.z - 100) < 1e-9)
      #expect(abs(simd_length(translation) - (1_000.0 * 1_000 + 100 * 100).squareRoot()) < 1e-6)
    }
  }

  @Test("LOC-COMPAT-39: a file importing Combine and Foundation builds URLRequests (Foundation's networking types)")
  func trackUploader() {
    let uploader = TrackUploader(endpoint: "https://tracks.example/upload")
    let request = uploader.request(method: .PUT, headers: ["X-Token": "t"])
    #expect(request?.httpMethod == "PUT" && request?.value(forHTTPHeaderField: "X-Token") == "t")
    #expect(TrackUploader(endpoint: "not a url").request(method: .POST, headers: nil) == nil)
    var status: [String] = []
    let watching = uploader.statusPublisher(of: request!).sink { status.append($0) }
    #expect(status == ["PUT tracks.example"])
    watching.cancel()
  }

  @Test("LOC-COMPAT-50: a Swift 5 clustering helper reads the map off the main actor; its delegate dequeues, clusters and styles")
  func mapHelpers() throws {
    let map = MKMapView(frame: CGRect(x: 0, y: 0, width: 300, height: 600))
    let delegate = PetMapDelegate()
    map.delegate = delegate
    map.region = MKCoordinateRegion(
      center: CLLocationCoordinate2D(latitude: 60.17, longitude: 24.94), latitudinalMeters: 3_000, longitudinalMeters: 3_000)
    let pets = [0.0, 0.00002, 0.004, 1].map {
      MKPointAnnotation(coordinate: CLLocationCoordinate2D(latitude: 60.17 + $0, longitude: 24.94))
    }
    let clusterer = AnnotationClusterer()
    clusterer.reload(pets, on: map)
    #expect(clusterer.lastSize == CGSize(width: 300, height: 600) && map.annotations.count == 3, "the far one is left out")
    let apart = try #require(map.view(for: pets[2]) as? MKMarkerAnnotationView)
    #expect(apart.clusteringIdentifier == "pets" && apart.markerTintColor == .systemOrange && apart.cluster == nil)
    #expect(map.view(for: pets[0]) == nil, "the two that collide are shown as their cluster")
    let route = MKPolyline(coordinates: pets.map(\.coordinate), count: pets.count)
    map.addOverlay(route)
    #expect((map.renderer(for: route) as? MKPolylineRenderer)?.lineWidth == 5)
  }

  @Test(
    "LOC-COMPAT-51: a protocol naming the manager's members by Apple's signatures is met by CLLocationManager and a subclass; the app asks and locates through it"
  )
  func managerAbstraction() async throws {
    // Conformance is the compile-time half: `requestTemporaryFullAccuracyAuthorization(withPurposeKey:)`
    // met only by the async form or a defaulted completion did not build (CombineLocationManager).
    try await withEmulatedPhone(phone(.notDetermined, answer: .allowWhileUsing)) { phone in
      let manager = SystemLocationManager(label: "system")
      nonisolated(unsafe) let locator = AbstractedLocator(manager: manager)
      locator.start()
      try await phone.advance(by: .seconds(3))
      #expect(manager.authorizationStatus == .authorizedWhenInUse)
      #expect(locator.locations.count == 1, "one requestLocation, one location")
      // Through the protocol, the plain method (in an async context, the manager's own name
      // picks the async form, as on iOS).
      let managing: any LocationManaging = manager
      managing.requestTemporaryFullAccuracyAuthorization(withPurposeKey: "Navigation")
    }
  }
}
