// Shape of swift-geokit's location service, in Swift 6 mode: a class that is not Sendable
// captures `self` in CLGeocoder's completion handler. Apple imports the handler from Objective-C
// as a preconcurrency @Sendable closure, so Swift 6 code gets a warning there, not an error;
// this target turns that one warning group back into a warning under -warnings-as-errors, so
// the build fails if the library's declaration is stricter than Apple's.
import CoreLocation

public final class PlacemarkService: NSObject {
  public private(set) var currentPlacemark: CLPlacemark?
  public private(set) var answers = 0

  public func invalidatePlacemark(at location: CLLocation) {
    CLGeocoder().reverseGeocodeLocation(location) { placemarks, error in
      self.answers += 1
      guard error == nil, let placemark = placemarks?.first else { return }
      self.currentPlacemark = placemark
    }
  }
}
