import CoreLocation
import Foundation
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
