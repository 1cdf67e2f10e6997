public import CoreLocation
public import Foundation

/// The ways to travel a route (MapKit's raw values).
public struct MKDirectionsTransportType: OptionSet, Sendable, Hashable {
  /// The raw value: the bits of the types in the set.
  public let rawValue: UInt
  /// Creates a set of transport types from its raw value.
  /// - Parameter rawValue: The bits of the types.
  public init(rawValue: UInt) { self.rawValue = rawValue }
  /// By car, timed here at 50 km/h.
  public static let automobile = MKDirectionsTransportType(rawValue: 1 << 0)
  /// On foot, timed here at 5 km/h.
  public static let walking = MKDirectionsTransportType(rawValue: 1 << 1)
  /// By public transport, timed here at 30 km/h.
  public static let transit = MKDirectionsTransportType(rawValue: 1 << 2)
  /// By bicycle (iOS 17), timed here at 15 km/h.
  public static let cycling = MKDirectionsTransportType(rawValue: 1 << 3)
  /// Any way of travelling; here a route is then by car.
  public static let any = MKDirectionsTransportType(rawValue: 0x0FFF_FFFF)

  /// The speed a route is timed at, m/s: walking 1.4 (5 km/h), cycling 4.2 (15 km/h), transit
  /// 8.3 (30 km/h), driving 13.9 (50 km/h, a city's limit); the fastest the type allows.
  var speed: CLLocationSpeed {
    if contains(.automobile) { return 13.9 }
    if contains(.transit) { return 8.3 }
    if contains(.cycling) { return 4.2 }
    return 1.4
  }

  /// The one type a route is of: the first of automobile, transit, cycling, walking allowed.
  var single: MKDirectionsTransportType {
    [.automobile, .transit, .cycling, .walking].first { contains($0) } ?? .walking
  }
}

/// Routes between two places, as MapKit's `MKDirections`. There is no map service here: a route
/// is the great circle from the source to the destination (an ``MKGeodesicPolyline``), one step
/// long, timed at the transport type's speed (``MKDirectionsTransportType``), which is what a test
/// of code that asks for directions needs (a route, its distance and time, its line to draw).
/// A request without a source, or with `MKMapItem.forCurrentLocation()`, starts where the phone
/// is (its latest fix, when the app may have it), as MapKit starts from the device; a request without both ends fails with
/// `MKError.directionsNotFound`. Answers come on the main queue.
open class MKDirections: NSObject, @unchecked Sendable {
  /// What a directions calculation answers with: the response, or nil and the error.
  public typealias DirectionsHandler = (MKDirections.Response?, (any Error)?) -> Void
  /// What a travel-time calculation answers with: the response, or nil and the error.
  public typealias ETAHandler = (MKDirections.ETAResponse?, (any Error)?) -> Void

  /// What to route.
  open class Request: NSObject, NSCopying, @unchecked Sendable {
    /// Where the route starts; nil (or the current location's item) for where the phone is.
    open var source: MKMapItem?
    /// Where the route ends; the current location's item for where the phone is.
    open var destination: MKMapItem?
    /// How to travel; any way by default.
    open var transportType: MKDirectionsTransportType = .any
    /// Whether to ask for more than one route; false by default. Not used here: there is always one route.
    open var requestsAlternateRoutes = false
    /// When the trip starts; nil for now. A travel-time answer leaves at this date.
    open var departureDate: Date?
    /// When the trip should end; nil for none. Not used here.
    open var arrivalDate: Date?
    /// Whether to avoid tolls (iOS 16); any by default. Not used here: routes have no roads.
    open var tollPreference: MKDirections.RoutePreference = .any
    /// Whether to avoid highways (iOS 16); any by default. Not used here: routes have no roads.
    open var highwayPreference: MKDirections.RoutePreference = .any

    /// An empty request: no ends, any transport type.
    public override init() { super.init() }

    /// A copy of the request, with the same ends, dates and preferences.
    /// - Parameter zone: Ignored.
    /// - Returns: The new request.
    open func copy(with zone: NSZone? = nil) -> Any {
      let copy = Request()
      copy.source = source
      copy.destination = destination
      copy.transportType = transportType
      copy.requestsAlternateRoutes = requestsAlternateRoutes
      copy.departureDate = departureDate
      copy.arrivalDate = arrivalDate
      copy.tollPreference = tollPreference
      copy.highwayPreference = highwayPreference
      return copy
    }
  }

  /// Whether a route may use tolls or highways (iOS 16).
  public enum RoutePreference: Int, Sendable {
    /// The route may use them.
    case any = 0
    /// The route should avoid them.
    case avoid = 1
  }

  /// The routes found.
  open class Response: NSObject, @unchecked Sendable {
    /// Where the routes start.
    open private(set) var source: MKMapItem
    /// Where the routes end.
    open private(set) var destination: MKMapItem
    /// The routes found; here always one.
    open private(set) var routes: [MKRoute]

    init(source: MKMapItem, destination: MKMapItem, routes: [MKRoute]) {
      self.source = source
      self.destination = destination
      self.routes = routes
    }
  }

  /// How long the trip takes.
  open class ETAResponse: NSObject, @unchecked Sendable {
    /// Where the trip starts.
    open private(set) var source: MKMapItem
    /// Where the trip ends.
    open private(set) var destination: MKMapItem
    /// How long the trip takes, seconds.
    open private(set) var expectedTravelTime: TimeInterval
    /// The trip's length, metres.
    open private(set) var distance: CLLocationDistance
    /// When the trip starts: the request's departure date, or the time of the request.
    open private(set) var expectedDepartureDate: Date
    /// When the trip ends: the departure plus the travel time.
    open private(set) var expectedArrivalDate: Date
    /// How the trip is made: one type, the first of car, transit, bicycle and foot the request allows.
    open private(set) var transportType: MKDirectionsTransportType

    init(route: MKRoute, source: MKMapItem, destination: MKMapItem, departure: Date) {
      self.source = source
      self.destination = destination
      expectedTravelTime = route.expectedTravelTime
      distance = route.distance
      expectedDepartureDate = departure
      expectedArrivalDate = departure.addingTimeInterval(route.expectedTravelTime)
      transportType = route.transportType
    }
  }

  private let request: Request
  private let run = MapSearchRun()

  /// Directions for a request; the request is copied, so later changes to it do not count.
  /// - Parameter request: What to route.
  public init(request: Request) {
    self.request = request.copy() as! Request
    super.init()
  }

  /// Whether a calculation is under way.
  open var isCalculating: Bool { run.isRunning }

  /// Calculates the route; a calculation already under way is replaced.
  /// - Parameter completionHandler: Called on the main queue with the response or the error, unless cancelled.
  open func calculate(completionHandler: @escaping DirectionsHandler) { run.start(routes(), completionHandler) }

  /// Calculates the route, and waits for it.
  /// - Returns: The response, with one route.
  /// - Throws: `MKError.directionsNotFound` when an end is missing or the phone's place is not known.
  open func calculate() async throws -> Response { try await run.value(routes()) }

  /// Calculates the travel time of the route; a calculation already under way is replaced.
  /// - Parameter completionHandler: Called on the main queue with the response or the error, unless cancelled.
  open func calculateETA(completionHandler: @escaping ETAHandler) { run.start(eta(), completionHandler) }

  /// Calculates the travel time of the route, and waits for it.
  /// - Returns: The travel time, distance and dates.
  /// - Throws: `MKError.directionsNotFound` when an end is missing or the phone's place is not known.
  open func calculateETA() async throws -> ETAResponse { try await run.value(eta()) }

  /// The answer to the request as it stands now: its ends are read at once (where the phone is
  /// now), the route is made where the answer is given.
  private func routes() -> @Sendable () -> Result<Response, any Error> {
    let ends = self.ends()
    let transport = request.transportType
    return {
      ends.mapError { $0 as any Error }.map { source, destination in
        Response(source: source, destination: destination, routes: [MKRoute(from: source, to: destination, transportType: transport)])
      }
    }
  }

  /// The ETA of the first route, leaving at the request's departure date (now when it has none).
  private func eta() -> @Sendable () -> Result<ETAResponse, any Error> {
    let routes = self.routes()
    let departure = request.departureDate ?? Date()
    return {
      routes().map { response in
        ETAResponse(route: response.routes[0], source: response.source, destination: response.destination, departure: departure)
      }
    }
  }

  /// Cancels the calculation: its handler is not called.
  open func cancel() { run.cancel() }

  /// The request's ends, the source defaulting to the phone's last location.
  private func ends() -> Result<(MKMapItem, MKMapItem), MKError> {
    // An end that is `MKMapItem.forCurrentLocation()` (or missing, for the source) is where the
    // phone is.
    func place(_ item: MKMapItem?, orHere: Bool) -> MKMapItem? {
      if let item, !item.isCurrentLocation, CLLocationCoordinate2DIsValid(item.placemark.coordinate) { return item }
      guard item?.isCurrentLocation == true || (item == nil && orHere), let here = CLLocationManager().phoneLocation else { return nil }
      let current = MKMapItem(placemark: MKPlacemark(coordinate: here.coordinate))
      current.name = "My Location"
      return current
    }
    guard let destination = place(request.destination, orHere: false), let source = place(request.source, orHere: true) else {
      return .failure(MKError(.directionsNotFound))
    }
    return .success((source, destination))
  }
}

/// A route between two places, as MapKit's: here the great circle between them (see
/// ``MKDirections``), as one step.
open class MKRoute: NSObject, @unchecked Sendable {
  /// One leg of a route and what to do on it.
  open class Step: NSObject, @unchecked Sendable {
    /// What to do on the step, such as "Proceed to Central Park"; empty for the starting step.
    open private(set) var instructions: String
    /// A warning about the step; always nil here.
    open private(set) var notice: String?
    /// The step's line.
    open private(set) var polyline: MKPolyline
    /// The step's length, metres.
    open private(set) var distance: CLLocationDistance
    /// How the step is travelled.
    open private(set) var transportType: MKDirectionsTransportType

    init(instructions: String, polyline: MKPolyline, distance: CLLocationDistance, transportType: MKDirectionsTransportType) {
      self.instructions = instructions
      self.polyline = polyline
      self.distance = distance
      self.transportType = transportType
    }
  }

  /// The route's name: here the destination's name, or "the destination".
  open private(set) var name: String
  /// Warnings about the route; always empty here.
  open private(set) var advisoryNotices: [String] = []
  /// The route's length, metres.
  open private(set) var distance: CLLocationDistance
  /// How long it takes, seconds.
  open private(set) var expectedTravelTime: TimeInterval
  /// How the route is travelled: one type, the first of car, transit, bicycle and foot the request allows.
  open private(set) var transportType: MKDirectionsTransportType
  /// The route's line: the great circle from the source to the destination.
  open private(set) var polyline: MKPolyline
  /// The route's steps: a starting step of no length, then one step to the destination.
  open private(set) var steps: [Step]
  /// Whether the route has tolls; always false here.
  open private(set) var hasTolls = false
  /// Whether the route uses highways; always false here.
  open private(set) var hasHighways = false

  init(from source: MKMapItem, to destination: MKMapItem, transportType: MKDirectionsTransportType) {
    let type = transportType.single
    var ends = [source.placemark.coordinate, destination.placemark.coordinate]
    let line = MKGeodesicPolyline(coordinates: &ends, count: 2)
    let length = CLLocation(latitude: ends[0].latitude, longitude: ends[0].longitude)
      .distance(from: CLLocation(latitude: ends[1].latitude, longitude: ends[1].longitude))
    let place = destination.name ?? "the destination"
    name = place
    distance = length
    expectedTravelTime = length / type.speed
    self.transportType = type
    polyline = line
    steps = [
      Step(instructions: "", polyline: MKPolyline(coordinates: &ends, count: 1), distance: 0, transportType: type),
      Step(instructions: "Proceed to \(place)", polyline: line, distance: length, transportType: type),
    ]
  }
}
