import CoreLocation
import Foundation
import MapKit

// Conformances apps add to the SDK's coordinate, which has none.
extension CLLocationCoordinate2D: @retroactive Equatable {
  public static func == (lhs: CLLocationCoordinate2D, rhs: CLLocationCoordinate2D) -> Bool {
    lhs.latitude == rhs.latitude && lhs.longitude == rhs.longitude
  }
}

extension CLLocationCoordinate2D: @retroactive Hashable {
  public func hash(into hasher: inout Hasher) {
    hasher.combine(latitude)
    hasher.combine(longitude)
  }
}

extension CLLocationCoordinate2D: @retroactive Codable {
  enum CodingKeys: String, CodingKey { case latitude, longitude }
  public init(from decoder: Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      latitude: try container.decode(CLLocationDegrees.self, forKey: .latitude),
      longitude: try container.decode(CLLocationDegrees.self, forKey: .longitude))
  }
  public func encode(to encoder: Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(latitude, forKey: .latitude)
    try container.encode(longitude, forKey: .longitude)
  }
}

extension CLLocation {
  /// "1.2 km away", as a list cell shows it.
  public func formattedDistance(to other: CLLocation, locale: Locale = Locale(identifier: "en_US")) -> String {
    let formatter = MKDistanceFormatter()
    formatter.locale = locale
    formatter.units = .metric
    formatter.unitStyle = .abbreviated
    return formatter.string(fromDistance: distance(from: other)) + " away"
  }
}

extension MKCoordinateRegion {
  /// The region a map shows around the user: `radius` metres each way.
  public static func around(_ coordinate: CLLocationCoordinate2D, radius: CLLocationDistance) -> MKCoordinateRegion {
    MKCoordinateRegion(center: coordinate, latitudinalMeters: radius * 2, longitudinalMeters: radius * 2)
  }
}

/// A tag on a manager, kept with Objective-C associated objects (as extensions that need stored
/// properties do).
private var screenNameKey: UInt8 = 0

extension CLLocationManager {
  public var screenName: String? {
    get { objc_getAssociatedObject(self, &screenNameKey) as? String }
    set { objc_setAssociatedObject(self, &screenNameKey, newValue, .OBJC_ASSOCIATION_RETAIN_NONATOMIC) }
  }
}

/// Reverse geocoding with a completion handler, as address labels do it.
public func addressLine(for location: CLLocation, completion: @escaping (String?) -> Void) {
  CLGeocoder().reverseGeocodeLocation(location) { placemarks, error in
    guard error == nil, let placemark = placemarks?.first else {
      completion(nil)
      return
    }
    completion([placemark.thoroughfare, placemark.locality].compactMap { $0 }.joined(separator: ", "))
  }
}
