import MapKit

extension MapPreviewView {
  /// What the preview shows.
  enum Model: Equatable {
    case loading
    case map(region: MKCoordinateRegion, pins: [PinModel] = [], onTap: () -> Void)
    case permissionRequired(message: String, onGoToSettings: () -> Void)
    case error(message: String, onRetry: () -> Void)

    static func == (lhs: Model, rhs: Model) -> Bool {
      switch (lhs, rhs) {
      case (.loading, .loading): true
      case (.map(let a, let pinsA, _), .map(let b, let pinsB, _)):
        a.center.latitude == b.center.latitude && a.center.longitude == b.center.longitude
          && a.span.latitudeDelta == b.span.latitudeDelta && a.span.longitudeDelta == b.span.longitudeDelta
          && pinsA.map(\.id) == pinsB.map(\.id)
      case (.permissionRequired(let a, _), .permissionRequired(let b, _)): a == b
      case (.error(let a, _), .error(let b, _)): a == b
      default: false
      }
    }
  }
}
