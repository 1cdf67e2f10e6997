import Combine
import MapKit

/// The fullscreen map: the user's area at city level, and the legend of pin colours.
final class FullscreenMapViewModel: ObservableObject {
  struct LegendItem: Equatable {
    let title: String
    let colorName: String
  }

  let mapRegion: MKCoordinateRegion
  let legend: [LegendItem] = [
    LegendItem(title: "Lost", colorName: "red"),
    LegendItem(title: "Found", colorName: "green"),
  ]
  let title = "Nearby Pets"

  init(userLocation: Coordinate) {
    mapRegion = userLocation.mapRegion()
  }
}
