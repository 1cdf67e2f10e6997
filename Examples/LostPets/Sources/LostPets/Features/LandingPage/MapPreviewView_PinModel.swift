import CoreLocation

/// The landing page's map preview (the view itself is SwiftUI, drawn over an MKMapSnapshotter
/// picture; these are its models).
enum MapPreviewView {}

extension MapPreviewView {
  /// A pin on the preview: an announcement's place.
  struct PinModel: Identifiable, Equatable, Sendable {
    /// The announcement's id.
    let id: String
    let coordinate: Coordinate

    /// For MapKit.
    var clLocationCoordinate: CLLocationCoordinate2D {
      CLLocationCoordinate2D(latitude: coordinate.latitude, longitude: coordinate.longitude)
    }
  }
}
