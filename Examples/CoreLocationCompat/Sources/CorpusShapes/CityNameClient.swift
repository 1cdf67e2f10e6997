// Shape of kraigspear/LocationProvider's client: a struct of closures whose live value
// reverse-geocodes with iOS 26's MKReverseGeocodingRequest and reads the city from the map
// item's address representations, in a file that imports MapKit and os.log.
@preconcurrency import CoreLocation
@preconcurrency import MapKit
import os.log

private let logger = Logger(subsystem: "com.example.cityname", category: "Client")

public struct CityNameClient: Sendable {
  public var cityName: @Sendable (CLLocation) async throws -> String?

  public static let live = CityNameClient { location in
    guard let request = MKReverseGeocodingRequest(location: location) else {
      logger.error("not a valid location: \(location.coordinate.latitude, privacy: .private)")
      return nil
    }
    let mapItems = try await request.mapItems
    return mapItems.first?.addressRepresentations?.cityName
  }
}
