// Shape of the unseen projects' map helpers (issue 48): a clustering manager in Swift 5 code that
// reads a map view's bounds and visible rect and adds annotations from a plain (non-main-actor)
// class, as UIKit's pre-concurrency isolation lets it on iOS; a delegate that dequeues markers by
// identifier with a clustering identifier, and styles a route's renderer.
import MapKit

public final class AnnotationClusterer {
  public private(set) var lastVisible = MKMapRect()
  public private(set) var lastSize = CGSize.zero

  public init() {}

  /// Reads the map and adds the annotations, off the main actor as Swift 5 code may.
  public func reload(_ annotations: [MKAnnotation], on mapView: MKMapView) {
    lastSize = mapView.bounds.size
    lastVisible = mapView.visibleMapRect
    let inside = annotations.filter { lastVisible.contains(MKMapPoint($0.coordinate)) }
    mapView.removeAnnotations(mapView.annotations)
    mapView.addAnnotations(inside)
  }
}

public final class PetMapDelegate: NSObject, MKMapViewDelegate {
  public static let identifier = "pet"

  public func mapView(_ mapView: MKMapView, viewFor annotation: MKAnnotation) -> MKAnnotationView? {
    if annotation is MKUserLocation { return nil }
    if let cluster = annotation as? MKClusterAnnotation {
      let view = mapView.dequeueReusableAnnotationView(withIdentifier: MKMapViewDefaultClusterAnnotationViewReuseIdentifier, for: cluster)
      view.displayPriority = .defaultHigh
      return view
    }
    var view = mapView.dequeueReusableAnnotationView(withIdentifier: Self.identifier) as? MKMarkerAnnotationView
    if view == nil {
      view = MKMarkerAnnotationView(annotation: annotation, reuseIdentifier: Self.identifier)
    } else {
      view?.annotation = annotation
    }
    view?.clusteringIdentifier = "pets"
    view?.markerTintColor = UIColor.systemOrange
    view?.canShowCallout = true
    return view
  }

  public func mapView(_ mapView: MKMapView, rendererFor overlay: MKOverlay) -> MKOverlayRenderer {
    guard let polyline = overlay as? MKPolyline else { return MKOverlayRenderer(overlay: overlay) }
    let renderer = MKPolylineRenderer(polyline: polyline)
    renderer.strokeColor = .systemBlue
    renderer.lineWidth = 5
    return renderer
  }
}
