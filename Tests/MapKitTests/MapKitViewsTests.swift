import CoreLocation
import Emulator
import LocationModel
import Foundation
import Geo
@testable import MapKit
import Testing

/// A delegate in the shape map code has: views dequeued by identifier (markers with a clustering
/// identifier), renderers styled per overlay, and a record of what the map told it.
@MainActor
final class MapDelegate: NSObject, MKMapViewDelegate {
  var added: [MKAnnotationView] = []
  var selected: [String] = []
  var deselected: [String] = []
  var clusterRequests: [Int] = []
  var addedRenderers: [MKOverlayRenderer] = []
  var clustering: String? = "pets"

  func mapView(_ mapView: MKMapView, viewFor annotation: any MKAnnotation) -> MKAnnotationView? {
    if annotation is MKClusterAnnotation { return nil }  // the map's default cluster view
    let identifier = "pet"
    let view =
      mapView.dequeueReusableAnnotationView(withIdentifier: identifier) as? CountingMarker
      ?? CountingMarker(annotation: annotation, reuseIdentifier: identifier)
    view.annotation = annotation
    view.clusteringIdentifier = clustering
    view.glyphText = annotation.title ?? nil
    return view
  }

  func mapView(_ mapView: MKMapView, didAdd views: [MKAnnotationView]) { added += views }
  func mapView(_ mapView: MKMapView, didSelect view: MKAnnotationView) { selected.append("view \(view.annotation?.title ?? nil ?? "")") }
  func mapView(_ mapView: MKMapView, didSelect annotation: any MKAnnotation) {
    selected.append("annotation \(annotation.title ?? nil ?? "")")
  }
  func mapView(_ mapView: MKMapView, didDeselect annotation: any MKAnnotation) { deselected.append(annotation.title ?? nil ?? "") }

  func mapView(_ mapView: MKMapView, clusterAnnotationForMemberAnnotations memberAnnotations: [any MKAnnotation]) -> MKClusterAnnotation {
    clusterRequests.append(memberAnnotations.count)
    let cluster = MKClusterAnnotation(memberAnnotations: memberAnnotations)
    cluster.title = "\(memberAnnotations.count) pets"
    return cluster
  }

  func mapView(_ mapView: MKMapView, rendererFor overlay: any MKOverlay) -> MKOverlayRenderer {
    if let line = overlay as? MKPolyline {
      let renderer = MKPolylineRenderer(polyline: line)
      renderer.strokeColor = .systemBlue
      renderer.lineWidth = 4
      return renderer
    }
    if let circle = overlay as? MKCircle {
      let renderer = MKCircleRenderer(circle: circle)
      renderer.fillColor = UIColor.systemRed.withAlphaComponent(0.2)
      return renderer
    }
    return MKOverlayRenderer(overlay: overlay)
  }

  func mapView(_ mapView: MKMapView, didAdd renderers: [MKOverlayRenderer]) { addedRenderers += renderers }
}

/// A marker that counts its reuses, as a subclass that resets its content does.
final class CountingMarker: MKMarkerAnnotationView {
  var reuses = 0

  override func prepareForReuse() {
    super.prepareForReuse()
    reuses += 1
    glyphText = nil
  }
}

@MainActor
@Suite("MapKit's view layer without a screen: annotation views, reuse, clustering, selection, renderers")
struct MapKitViewsTests {
  let helsinki = CLLocationCoordinate2D(latitude: 60.1699, longitude: 24.9384)

  func pet(_ title: String, north: Double, east: Double = 0) -> MKPointAnnotation {
    MKPointAnnotation(
      coordinate: CLLocationCoordinate2D(latitude: helsinki.latitude + north / 111_195, longitude: helsinki.longitude + east / 55_400),
      title: title, subtitle: nil)
  }

  func map(_ delegate: MapDelegate?) -> MKMapView {
    let map = MKMapView(frame: CGRect(x: 0, y: 0, width: 320, height: 480))
    map.delegate = delegate
    map.region = MKCoordinateRegion(center: helsinki, latitudinalMeters: 4_000, longitudinalMeters: 4_000)
    return map
  }

  @Test("LOC-MK-20: views are made for the annotations in the visible region, queued when they leave it, and reused")
  func viewsAndReuse() {
    let delegate = MapDelegate()
    delegate.clustering = nil
    let map = map(delegate)
    let near = [pet("Rex", north: 0), pet("Mia", north: 600), pet("Leo", north: -600)]
    let far = pet("Far", north: 50_000)
    map.addAnnotations(near + [far])
    #expect(delegate.added.count == 3, "one view per visible annotation, told once")
    #expect(map.view(for: far) == nil, "no view outside the visible region")
    let rex = try? #require(map.view(for: near[0]) as? CountingMarker)
    #expect(rex?.glyphText == "Rex" && rex?.reuseIdentifier == "pet" && rex?.annotation === near[0])
    // The view stands on its annotation's point: the region's centre is the view's centre.
    #expect(abs((rex?.center.x ?? 0) - 160) < 0.5 && abs((rex?.center.y ?? 0) - 240) < 0.5)

    // Away and back: the three views are queued, then handed out again, each prepared for reuse.
    map.setCenter(far.coordinate, animated: false)
    #expect(map.view(for: near[0]) == nil && map.view(for: far) != nil)
    map.setCenter(helsinki, animated: false)
    let reused = near.compactMap { map.view(for: $0) as? CountingMarker }
    #expect(reused.count == 3)
    #expect(reused.reduce(0) { $0 + $1.reuses } >= 2, "views of the first three came back from the queue")
    #expect(reused.allSatisfy { $0.glyphText == ($0.annotation?.title ?? nil) }, "each configured for its annotation again")
  }

  @Test("LOC-MK-21: without a delegate view the map makes its default marker; a registration changes the class")
  func defaultViewsAndRegistration() {
    let map = map(nil)
    let rex = pet("Rex", north: 0)
    map.addAnnotation(rex)
    #expect(map.view(for: rex) is MKMarkerAnnotationView)
    #expect(map.view(for: rex)?.reuseIdentifier == MKMapViewDefaultAnnotationViewReuseIdentifier)
    #expect(map.view(for: rex)?.displayPriority == .defaultLow, "markers give way to required views")

    let other = MKMapView(frame: CGRect(x: 0, y: 0, width: 320, height: 480))
    other.register(MKAnnotationView.self, forAnnotationViewWithReuseIdentifier: MKMapViewDefaultAnnotationViewReuseIdentifier)
    other.region = map.region
    other.addAnnotation(rex)
    let view = other.view(for: rex)
    #expect(view != nil && !(view is MKMarkerAnnotationView) && view?.displayPriority == .required)
    #expect(other.dequeueReusableAnnotationView(withIdentifier: "nothing") == nil)
    let made = other.dequeueReusableAnnotationView(withIdentifier: MKMapViewDefaultAnnotationViewReuseIdentifier, for: rex)
    #expect(made.annotation === rex && made.reuseIdentifier == MKMapViewDefaultAnnotationViewReuseIdentifier)
  }

  @Test("LOC-MK-22: colliding views with one clustering identifier show as one cluster; apart, each shows")
  func clustering() {
    let delegate = MapDelegate()
    let map = map(delegate)
    // 4 km across 320 points: 5 m is well inside a marker's 28 points, 1,500 m far outside.
    let rex = pet("Rex", north: 0), mia = pet("Mia", north: 5), leo = pet("Leo", north: 1_500)
    map.addAnnotations([rex, mia, leo])
    #expect(delegate.clusterRequests == [2])
    let cluster = try? #require(map.view(for: rex) == nil ? map.views.clusters.first : nil)
    #expect(cluster?.annotation.memberAnnotations.count == 2 && cluster?.annotation.title == "2 pets")
    let members = [rex, mia].compactMap { map.views.shown[ObjectIdentifier($0)] }
    #expect(members.count == 2 && members.allSatisfy { $0.cluster === cluster?.view }, "each member's view points to the cluster's")
    #expect(map.view(for: leo) != nil && map.view(for: leo)?.cluster == nil, "a view apart is not clustered")
    if let clusterAnnotation = cluster?.annotation {
      #expect(map.view(for: clusterAnnotation) === cluster?.view)
      let lat = clusterAnnotation.coordinate.latitude
      #expect(lat > rex.coordinate.latitude && lat < mia.coordinate.latitude, "the cluster stands between its members")
    }

    // Zoomed in until they no longer collide, the two show on their own.
    map.region = MKCoordinateRegion(center: helsinki, latitudinalMeters: 40, longitudinalMeters: 40)
    #expect(map.view(for: rex) != nil && map.view(for: mia) != nil && map.views.clusters.isEmpty)
  }

  @Test("LOC-MK-23: selecting an annotation selects its view and tells the delegate; one at a time")
  func selection() {
    let delegate = MapDelegate()
    delegate.clustering = nil
    let map = map(delegate)
    let rex = pet("Rex", north: 0), mia = pet("Mia", north: 900)
    map.addAnnotations([rex, mia])
    map.selectAnnotation(rex, animated: true)
    #expect(map.view(for: rex)?.isSelected == true && map.selectedAnnotations.count == 1)
    map.selectAnnotation(mia, animated: false)
    #expect(map.view(for: rex)?.isSelected == false && map.view(for: mia)?.isSelected == true)
    #expect(delegate.selected == ["view Rex", "annotation Rex", "view Mia", "annotation Mia"])
    #expect(delegate.deselected == ["Rex"])
    map.removeAnnotation(mia)
    #expect(map.selectedAnnotations.isEmpty)
  }

  @Test("LOC-MK-24: overlays get their delegate's renderers, with their styles and MapKit's coordinate conversions")
  func renderers() throws {
    let delegate = MapDelegate()
    let map = map(delegate)
    let coordinates = [helsinki, CLLocationCoordinate2D(latitude: 60.18, longitude: 24.95)]
    let line = MKPolyline(coordinates: coordinates, count: coordinates.count)
    let circle = MKCircle(center: helsinki, radius: 300)
    map.addOverlays([line, circle])
    let renderer = try #require(map.renderer(for: line) as? MKPolylineRenderer)
    #expect(renderer.polyline === line && renderer.lineWidth == 4 && renderer.strokeColor == .systemBlue)
    #expect(renderer.strokeStart == 0 && renderer.strokeEnd == 1 && renderer.lineJoin == .round && renderer.lineCap == .round)
    let fill = try #require((map.renderer(for: circle) as? MKCircleRenderer)?.fillColor)
    var alpha: CGFloat = 0
    #expect(fill.getRed(nil, green: nil, blue: nil, alpha: &alpha) && abs(alpha - 0.2) < 1e-9)
    #expect(delegate.addedRenderers.count == 2)

    // Drawing coordinates are map points from the overlay's bounding rect's top-left corner.
    let box = line.boundingMapRect
    #expect(renderer.point(for: box.origin) == .zero)
    let corner = renderer.point(for: MKMapPoint(x: box.maxX, y: box.maxY))
    #expect(abs(Double(corner.x) - box.size.width) < 1e-6 && abs(Double(corner.y) - box.size.height) < 1e-6)
    let back = renderer.mapPoint(for: CGPoint(x: 10, y: 20))
    #expect(abs(back.x - box.origin.x - 10) < 1e-6 && abs(back.y - box.origin.y - 20) < 1e-6)
    #expect(renderer.mapRect(for: renderer.rect(for: box)).size.width == box.size.width)
    map.removeOverlay(line)
    #expect(map.renderer(for: line) == nil)
  }

  @Test("LOC-MK-25: points and coordinates convert through the visible region, both ways")
  func conversions() {
    let map = map(nil)
    let centre = map.convert(helsinki, toPointTo: map)
    #expect(abs(centre.x - 160) < 0.5 && abs(centre.y - 240) < 0.5)
    let corner = map.convert(CGPoint(x: 0, y: 0), toCoordinateFrom: map)
    let round = map.convert(corner, toPointTo: nil)
    #expect(abs(round.x) < 1e-6 && abs(round.y) < 1e-6)
    #expect(corner.latitude > helsinki.latitude && corner.longitude < helsinki.longitude, "the top-left is north-west")
  }
}

@MainActor
@Suite("MapKit's map view state: tracking, camera limits, fitting, overlay levels, tiles")
struct MapViewStateTests {
  let helsinki = CLLocationCoordinate2D(latitude: 60.1699, longitude: 24.9384)

  final class TrackingDelegate: NSObject, MKMapViewDelegate {
    var modes: [MKUserTrackingMode] = []
    func mapView(_ mapView: MKMapView, didChange mode: MKUserTrackingMode, animated: Bool) { modes.append(mode) }
  }

  @Test("LOC-MK-26: following the user turns the user's place on; the delegate hears each change once")
  func tracking() async {
    await withEmulatedPhone(EmulatedPhone.Configuration(permission: PermissionState(appStatus: .authorizedWhenInUse))) { _ in
      let map = MKMapView(frame: CGRect(x: 0, y: 0, width: 300, height: 300))
      let delegate = TrackingDelegate()
      map.delegate = delegate
      map.setUserTrackingMode(.follow, animated: true)
      map.userTrackingMode = .follow
      map.userTrackingMode = .none
      #expect(delegate.modes == [.follow, .none] && map.showsUserLocation)
      map.showsUserLocation = false
    }
  }

  @Test("LOC-MK-27: a camera boundary keeps the centre within it; a zoom range keeps its distances")
  func cameraLimits() throws {
    let map = MKMapView(frame: CGRect(x: 0, y: 0, width: 300, height: 300))
    let city = MKCoordinateRegion(center: helsinki, latitudinalMeters: 10_000, longitudinalMeters: 10_000)
    map.region = city
    let boundary: MKMapView.CameraBoundary = try #require(MKMapView.CameraBoundary(coordinateRegion: city))
    map.cameraBoundary = boundary
    map.setCenter(CLLocationCoordinate2D(latitude: 61, longitude: 24.9384), animated: false)
    let rect = MKMapRect(region: city)
    // At the boundary's north edge (to the region's rounding through coordinates, a few metres).
    #expect(abs(MKMapPoint(map.centerCoordinate).y - rect.minY) < rect.size.height * 0.01, "held at the boundary's north edge")
    #expect(MKMapView.CameraBoundary(mapRect: .null) == nil)
    let range = try #require(MKMapView.CameraZoomRange(maxCenterCoordinateDistance: 5_000))
    map.cameraZoomRange = range
    #expect(map.cameraZoomRange.minCenterCoordinateDistance == 0 && map.cameraZoomRange.maxCenterCoordinateDistance == 5_000)
    #expect(MKMapView.CameraZoomRange(minCenterCoordinateDistance: 10, maxCenterCoordinateDistance: 5) == nil)
  }

  @Test("LOC-MK-28: a rect fitted with edge padding fills the inner area and keeps the view's aspect")
  func fitting() {
    let map = MKMapView(frame: CGRect(x: 0, y: 0, width: 400, height: 200))
    let target = MKMapRect(x: 1_000, y: 2_000, width: 100, height: 100)
    let fitted = map.mapRectThatFits(target, edgePadding: UIEdgeInsets(top: 20, left: 20, bottom: 20, right: 20))
    #expect(abs(fitted.size.width / fitted.size.height - 2) < 1e-9, "the view's aspect")
    // 160 inner points hold the 100 map points: 1.6 points each; the view's 200 points are 125.
    #expect(abs(fitted.size.height - 125) < 1e-9 && abs(fitted.midX - target.midX) < 1e-9 && abs(fitted.midY - target.midY) < 1e-9)
    map.setVisibleMapRect(target, edgePadding: .zero, animated: false)
    let shown = map.visibleMapRect
    #expect(shown.minX <= target.minX + 1e-3 && shown.maxX >= target.maxX - 1e-3 && abs(shown.size.height - target.size.height) < 1e-3)
    let rect = map.convert(map.region, toRectTo: nil)
    #expect(abs(rect.width - 400) < 0.5 && abs(rect.height - 200) < 0.5)
  }

  @Test("LOC-MK-29: overlays keep their levels: roads below labels, inserted and exchanged in place")
  func overlayLevels() {
    let map = MKMapView(frame: CGRect(x: 0, y: 0, width: 300, height: 300))
    func circle(_ r: Double) -> MKCircle { MKCircle(center: helsinki, radius: r) }
    let label1 = circle(1), road1 = circle(2), label2 = circle(3), road2 = circle(4), between = circle(5)
    map.addOverlay(label1)
    map.addOverlay(road1, level: .aboveRoads)
    map.addOverlay(label2, level: .aboveLabels)
    map.addOverlay(road2, level: .aboveRoads)
    #expect(map.overlays.map { ($0 as? MKCircle)?.radius } == [2, 4, 1, 3])
    #expect(map.overlays(in: .aboveRoads).count == 2 && map.overlays(in: .aboveLabels).count == 2)
    map.insertOverlay(between, above: label1)
    #expect(map.overlays.map { ($0 as? MKCircle)?.radius } == [2, 4, 1, 5, 3])
    map.exchangeOverlay(label1, with: label2)
    #expect(map.overlays.map { ($0 as? MKCircle)?.radius } == [2, 4, 3, 5, 1])
    #expect(map.renderer(for: between) != nil)
  }

  @Test("LOC-MK-30: a tile overlay fills its URL template and loads a tile from a file URL")
  func tiles() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tiles-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder.appendingPathComponent("3/4"), withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data("tile 3/4/5".utf8).write(to: folder.appendingPathComponent("3/4/5.png"))
    let overlay = MKTileOverlay(urlTemplate: folder.absoluteString + "/{z}/{x}/{y}.png")
    let path = MKTileOverlayPath(x: 4, y: 5, z: 3, contentScaleFactor: 2)
    #expect(overlay.url(forTilePath: path).path.hasSuffix("3/4/5.png"))
    #expect(String(decoding: try await overlay.loadTile(at: path), as: UTF8.self) == "tile 3/4/5")
    overlay.isGeometryFlipped = true
    #expect(overlay.url(forTilePath: path).path.hasSuffix("3/4/2.png"), "TMS rows count from the south: 7 - 5")
    await #expect(throws: (any Error).self) { try await overlay.loadTile(at: MKTileOverlayPath(x: 9, y: 9, z: 9, contentScaleFactor: 1)) }
  }
}

@MainActor
@Suite("Declarations the SDK audit found missing: camera, configurations, categories, push service, beacon names")
struct AuditedDeclarationsTests {
  @Test("LOC-MK-31: a map's camera and its region describe the same view, both ways")
  func camera() {
    let map = MKMapView(frame: CGRect(x: 0, y: 0, width: 300, height: 600))
    let centre = CLLocationCoordinate2D(latitude: 60.17, longitude: 24.94)
    map.region = MKCoordinateRegion(center: centre, latitudinalMeters: 2_000, longitudinalMeters: 1_000)
    let camera = map.camera
    #expect(abs(camera.centerCoordinate.latitude - map.region.center.latitude) < 1e-9 && camera.pitch == 0)
    let span = map.region.span.latitudeDelta
    map.camera = MKMapCamera(lookingAtCenter: centre, fromDistance: camera.centerCoordinateDistance * 2, pitch: 0, heading: 0)
    #expect(abs(map.region.span.latitudeDelta / span - 2) < 0.01, "twice as far shows twice as much")
    let above = MKMapCamera(lookingAtCenter: centre, fromEyeCoordinate: centre, eyeAltitude: 500)
    #expect(above.pitch == 0 && abs(above.altitude - 500) < 1e-9 && abs(above.centerCoordinateDistance - 500) < 1e-9)
    map.preferredConfiguration = MKStandardMapConfiguration(elevationStyle: .realistic, emphasisStyle: .muted)
    #expect((map.preferredConfiguration as? MKStandardMapConfiguration)?.emphasisStyle == .muted)
  }

  @Test("LOC-MK-32: points of interest categories carry Apple's raw values")
  func categories() {
    #expect(MKPointOfInterestCategory.atm.rawValue == "MKPOICategoryATM")
    #expect(MKPointOfInterestCategory.evCharger.rawValue == "MKPOICategoryEVCharger")
    #expect(MKPointOfInterestCategory.nationalPark.rawValue == "MKPOICategoryNationalPark")
    #expect(MKPointOfInterestFilter(excluding: [.nightlife]).excludes(.nightlife))
  }

  @Test("LOC-CL-70: location pushes report an unsupported platform; beacon regions answer to their deprecated names")
  @available(*, deprecated)
  func pushesAndBeacons() async {
    let manager = CLLocationManager()
    let error = Locked<(any Error)?>(nil)
    manager.startMonitoringLocationPushes { token, failure in error.withLock { $0 = token == nil ? failure : nil } }
    #expect((error.withLock { $0 } as? CLLocationPushServiceError)?.code == .unsupportedPlatform)
    do {
      _ = try await manager.startMonitoringLocationPushes()
      Issue.record("no push service here")
    } catch CLLocationPushServiceError.unsupportedPlatform {
    } catch {
      Issue.record("\(error)")
    }
    let uuid = UUID()
    let region = CLBeaconRegion(proximityUUID: uuid, major: 7, identifier: "door")
    #expect(region.proximityUUID == uuid && region.beaconIdentityConstraint.major == 7 && region.beaconIdentityConstraint.minor == nil)
    let again = CLBeaconRegion(beaconIdentityConstraint: region.beaconIdentityConstraint, identifier: "door")
    #expect(again.uuid == uuid && again.major == 7)
  }
}
