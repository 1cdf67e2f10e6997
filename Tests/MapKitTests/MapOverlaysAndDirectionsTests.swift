import CoreLocation
import Emulator
import Foundation
import LocationModel
import MapKit
import TestSupport
import Testing

/// MapKit's circle and multi-shape overlays, the geodesic line, the map view's user location and
/// directions (the great circle between two places, there being no map service).
@Suite("MapKit: overlays, user location, directions")
struct MapOverlaysAndDirectionsTests {
  static let station = CLLocationCoordinate2D(latitude: 60.1710, longitude: 24.9414)
  static let stockholm = CLLocationCoordinate2D(latitude: 59.3293, longitude: 18.0686)

  @Test("LOC-MK-12: a circle's bounds hold its radius at its latitude; a circle fits a map rect")
  func circle() {
    let circle = MKCircle(center: Self.station, radius: 500)
    #expect(circle.coordinate.latitude == Self.station.latitude && circle.radius == 500)
    let rect = circle.boundingMapRect
    let metres = rect.width * MKMetersPerMapPointAtLatitude(Self.station.latitude)
    #expect(abs(metres - 1_000) < 1e-6)
    #expect(rect.contains(MKMapPoint(Self.station)))
    let fitted = MKCircle(mapRect: rect)
    #expect(abs(fitted.radius - 500) < 0.01)
    #expect(abs(fitted.coordinate.latitude - Self.station.latitude) < 1e-9)
  }

  @Test(
    "LOC-MK-13: a geodesic line follows the great circle (north of the straight line at these latitudes); multi-shapes bound their parts")
  func geodesicAndMultiShapes() {
    var ends = [Self.station, Self.stockholm]
    let straight = MKPolyline(coordinates: &ends, count: 2)
    let geodesic = MKGeodesicPolyline(coordinates: &ends, count: 2)
    #expect(straight.pointCount == 2)
    #expect(geodesic.pointCount > 30)  // 396 km, a point at least every 10 km
    var middle = [CLLocationCoordinate2D](repeating: kCLLocationCoordinate2DInvalid, count: geodesic.pointCount)
    geodesic.getCoordinates(&middle, range: NSRange(location: 0, length: geodesic.pointCount))
    #expect(
      abs(middle[0].latitude - Self.station.latitude) < 1e-9 && abs(middle[middle.count - 1].longitude - Self.stockholm.longitude) < 1e-9)
    // Halfway in longitude, the great circle runs north of the rhumb line between the two.
    let halfway = middle.min { abs($0.longitude - 21.5) < abs($1.longitude - 21.5) }!
    #expect(halfway.latitude > (Self.station.latitude + Self.stockholm.latitude) / 2 + 0.02)
    let both = MKMultiPolyline([straight, MKPolyline(coordinates: [Self.station], count: 1)])
    #expect(both.polylines.count == 2 && MKMapRectEqualToRect(both.boundingMapRect, straight.boundingMapRect))
    var square = [
      CLLocationCoordinate2D(latitude: 60, longitude: 24), CLLocationCoordinate2D(latitude: 60, longitude: 25),
      CLLocationCoordinate2D(latitude: 61, longitude: 25),
    ]
    let polygons = MKMultiPolygon([MKPolygon(coordinates: &square, count: 3)])
    #expect(MKMapRectEqualToRect(polygons.boundingMapRect, polygons.polygons[0].boundingMapRect))
  }

  /// A map view's delegate that keeps the user locations it is told.
  @MainActor final class MapDelegate: NSObject, MKMapViewDelegate {
    var updates: [CLLocationCoordinate2D] = []
    var started = 0
    var stopped = 0
    func mapViewWillStartLocatingUser(_ mapView: MKMapView) { started += 1 }
    func mapViewDidStopLocatingUser(_ mapView: MKMapView) { stopped += 1 }
    func mapView(_ mapView: MKMapView, didUpdate userLocation: MKUserLocation) { updates.append(userLocation.coordinate) }
  }

  @Test("LOC-MK-14: showsUserLocation follows the phone's fixes into userLocation and tells the delegate; off, it stops")
  @MainActor func userLocation() async throws {
    let here = Coordinate(latitude: Self.station.latitude, longitude: Self.station.longitude)!
    try await withEmulatedPhone(authorizedPhone().with(source: .fixed(here))) { phone in
      let map = MKMapView(frame: CGRect(x: 0, y: 0, width: 400, height: 400))
      let delegate = MapDelegate()
      map.delegate = delegate
      #expect(map.userLocation.location == nil && !map.userLocation.isUpdating && map.userLocation.title == "My Location")
      map.showsUserLocation = true
      #expect(delegate.started == 1 && map.userLocation.isUpdating)
      try await phone.advance(by: .seconds(2))
      #expect(map.userLocation.coordinate.latitude == Self.station.latitude)
      #expect(delegate.updates.count == 3)  // the fixes of 0, 1 and 2 s
      #expect(map.isUserLocationVisible)  // the world is shown
      let sydney = CLLocationCoordinate2D(latitude: -33.87, longitude: 151.21)
      map.setRegion(MKCoordinateRegion(center: sydney, latitudinalMeters: 5_000, longitudinalMeters: 5_000), animated: false)
      #expect(!map.isUserLocationVisible)
      map.setRegion(MKCoordinateRegion(center: Self.station, latitudinalMeters: 500, longitudinalMeters: 500), animated: false)
      #expect(map.isUserLocationVisible)
      map.showsUserLocation = false
      try await phone.advance(by: .seconds(2))
      #expect(delegate.updates.count == 3 && delegate.stopped == 1 && !map.userLocation.isUpdating)
    }
  }

  @Test(
    "LOC-MK-15: directions are the great circle between the places, timed by transport; from here by default; ETA; no destination fails")
  @MainActor func directions() async throws {
    let here = Coordinate(latitude: Self.station.latitude, longitude: Self.station.longitude)!
    try await withEmulatedPhone(authorizedPhone().with(source: .fixed(here))) { phone in
      try await phone.advance(by: .seconds(1))
      let destination = MKMapItem(placemark: MKPlacemark(coordinate: Self.stockholm))
      destination.name = "Stockholm"
      let request = MKDirections.Request()
      request.source = MKMapItem.forCurrentLocation()
      request.destination = destination
      request.transportType = .automobile
      let response = try await MKDirections(request: request).calculate()
      let route = try #require(response.routes.first)
      #expect(abs(route.distance - 396_000) < 3_000)
      #expect(abs(route.expectedTravelTime - route.distance / 13.9) < 1e-6 && route.transportType == .automobile)
      #expect(route.name == "Stockholm" && route.steps.last?.instructions == "Proceed to Stockholm")
      #expect(route.polyline.pointCount > 30)
      #expect(response.source.placemark.coordinate.latitude == Self.station.latitude)
      request.transportType = .walking
      request.departureDate = Date(timeIntervalSince1970: 1_800_000_000)
      let eta = try await MKDirections(request: request).calculateETA()
      #expect(abs(eta.expectedTravelTime - eta.distance / 1.4) < 1e-6)
      #expect(eta.expectedArrivalDate == eta.expectedDepartureDate.addingTimeInterval(eta.expectedTravelTime))
      request.destination = nil
      await #expect(throws: MKError.self) { _ = try await MKDirections(request: request).calculate() }
    }
  }
}

extension EmulatedPhone.Configuration {
  /// This configuration with `source`.
  func with(source: PhoneSource) -> Self {
    var copy = self
    copy.source = source
    return copy
  }
}
