// Shape of ClusterMap's manager: an actor that reads a map view's bounds and region (CGSize
// comes with MapKit, as on Apple platforms).
import MapKit

public actor ClusterViewport {
  public private(set) var lastSize: CGSize = .zero
  public private(set) var lastRegion = MKCoordinateRegion()

  public init() {}

  public func reload(mkMapView: MKMapView) async {
    let (size, region) = await MainActor.run { (mkMapView.bounds.size, mkMapView.region) }
    reload(mapViewSize: size, coordinateRegion: region)
  }

  public func reload(mapViewSize: CGSize, coordinateRegion: MKCoordinateRegion) {
    lastSize = mapViewSize
    lastRegion = coordinateRegion
  }
}
