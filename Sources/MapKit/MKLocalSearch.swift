public import CoreLocation
public import Foundation
import Geo
import LocationServices

/// One search at a time with a cancel, answered on the main queue as MapKit answers: what
/// ``MKLocalSearch``, ``MKGeocodingRequest`` and ``MKReverseGeocodingRequest`` share.
final class MapSearchRun: @unchecked Sendable {
  private let state = Locked<(id: UInt64, running: Bool, cancelled: Bool)>((0, false, false))

  var isRunning: Bool { state.withLock { $0.running } }
  var isCancelled: Bool { state.withLock { $0.cancelled } }

  /// Answers `handler` on the main queue with `answer()`, unless cancelled or restarted first.
  func start<Value>(_ answer: @escaping @Sendable () -> Result<Value, any Error>, _ handler: @escaping (Value?, (any Error)?) -> Void) {
    let id = state.withLock { s -> UInt64 in
      s.id &+= 1
      s.running = true
      s.cancelled = false
      return s.id
    }
    nonisolated(unsafe) let handler = handler
    DispatchQueue.main.async { [state] in
      let current = state.withLock { s -> Bool in
        guard s.id == id, s.running else { return false }
        s.running = false
        return true
      }
      guard current else { return }
      switch answer() {
      case .success(let value): handler(value, nil)
      case .failure(let error): handler(nil, error)
      }
    }
  }

  func cancel() {
    state.withLock { s in
      if s.running { s.cancelled = true }
      s.running = false
    }
  }

  /// `start` as an async call.
  func value<Value: Sendable>(_ answer: @escaping @Sendable () -> Result<Value, any Error>) async throws -> Value {
    try await withCheckedThrowingContinuation { (done: CheckedContinuation<Value, any Error>) in
      start(answer) { value, error in
        if let value { done.resume(returning: value) } else { done.resume(throwing: error ?? MKError(.unknown)) }
      }
    }
  }

  /// Map items for placemarks, or `placemarkNotFound` for none (as MapKit answers).
  static func items(_ placemarks: [CLPlacemark]) -> Result<[MKMapItem], any Error> {
    placemarks.isEmpty
      ? .failure(MKError(.placemarkNotFound)) : .success(placemarks.map { MKMapItem(placemark: MKPlacemark(placemark: $0)) })
  }
}

/// Searches for places by name or address, answered from the placemarks a test registered with
/// `LocationEmulatorGeocoding` (there is no map service here): every word of the query must be in
/// a placemark's name or address, and the placemark in the request's region when it has one.
/// No match fails with `MKError.placemarkNotFound`. Answers come on the main queue.
open class MKLocalSearch: NSObject, @unchecked Sendable {
  public typealias CompletionHandler = (MKLocalSearch.Response?, (any Error)?) -> Void

  /// What to search for.
  open class Request: NSObject, NSCopying, @unchecked Sendable {
    /// The kinds of result a search returns.
    public struct ResultType: OptionSet, Sendable {
      public let rawValue: UInt
      public init(rawValue: UInt) { self.rawValue = rawValue }
      public static let address = ResultType(rawValue: 1 << 0)
      public static let pointOfInterest = ResultType(rawValue: 1 << 1)
      public static let physicalFeature = ResultType(rawValue: 1 << 2)
    }

    open var naturalLanguageQuery: String?
    /// Where to search; a region with a zero span (the default) is everywhere.
    open var region = MKCoordinateRegion()
    open var resultTypes: ResultType = [.address, .pointOfInterest]
    open var pointOfInterestFilter: MKPointOfInterestFilter?

    public override init() { super.init() }
    public init(naturalLanguageQuery: String) {
      self.naturalLanguageQuery = naturalLanguageQuery
      super.init()
    }
    public init(naturalLanguageQuery: String, region: MKCoordinateRegion) {
      self.naturalLanguageQuery = naturalLanguageQuery
      self.region = region
      super.init()
    }

    open func copy(with zone: NSZone? = nil) -> Any {
      let copy = Request()
      copy.naturalLanguageQuery = naturalLanguageQuery
      copy.region = region
      copy.resultTypes = resultTypes
      copy.pointOfInterestFilter = pointOfInterestFilter
      return copy
    }
  }

  /// What a search found.
  open class Response: NSObject, @unchecked Sendable {
    open private(set) var mapItems: [MKMapItem]
    /// The region that holds every item.
    open private(set) var boundingRegion: MKCoordinateRegion

    init(mapItems: [MKMapItem]) {
      self.mapItems = mapItems
      let coordinates = mapItems.map(\.placemark.coordinate).filter(CLLocationCoordinate2DIsValid)
      let lats = coordinates.map(\.latitude)
      let lons = coordinates.map(\.longitude)
      if let south = lats.min(), let north = lats.max(), let west = lons.min(), let east = lons.max() {
        boundingRegion = MKCoordinateRegion(
          center: CLLocationCoordinate2D(latitude: (south + north) / 2, longitude: (west + east) / 2),
          span: MKCoordinateSpan(latitudeDelta: north - south, longitudeDelta: east - west))
      } else {
        boundingRegion = MKCoordinateRegion()
      }
    }
  }

  private let request: Request
  private let run = MapSearchRun()

  public init(request: Request) {
    self.request = request.copy() as! Request
    super.init()
  }

  /// Whether a search is under way.
  open var isSearching: Bool { run.isRunning }

  open func start(completionHandler: @escaping CompletionHandler) {
    let request = self.request
    run.start({ Self.search(request) }, completionHandler)
  }

  open func start() async throws -> Response {
    let request = self.request
    return try await run.value { Self.search(request) }
  }

  /// Cancels the search: its handler is not called.
  open func cancel() { run.cancel() }

  private static func search(_ request: Request) -> Result<Response, any Error> {
    MapSearchRun.items(placemarks(matching: request.naturalLanguageQuery ?? "", in: request.region)).map(Response.init(mapItems:))
  }

  /// The registered placemarks that match `query`, in `region` unless its span is zero.
  static func placemarks(matching query: String, in region: MKCoordinateRegion) -> [CLPlacemark] {
    let found = LocationEmulatorGeocoding.placemarks(matching: query)
    guard region.span.latitudeDelta > 0 || region.span.longitudeDelta > 0 else { return found }
    return found.filter { p in
      guard let c = p.location?.coordinate else { return false }
      return abs(c.latitude - region.center.latitude) <= region.span.latitudeDelta / 2
        && abs(remainder(c.longitude - region.center.longitude, 360)) <= region.span.longitudeDelta / 2
    }
  }
}

/// Turns an address into map items (iOS 26), from the placemarks a test registered (see
/// ``MKLocalSearch``); none fails with `MKError.placemarkNotFound`.
public final class MKGeocodingRequest: NSObject, @unchecked Sendable {
  public let addressString: String
  public var region: MKCoordinateRegion?
  public var preferredLocale: Locale?
  private let run = MapSearchRun()

  /// Nil for an empty address.
  public init?(addressString: String) {
    guard !addressString.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
    self.addressString = addressString
  }

  public var isLoading: Bool { run.isRunning }
  public var isCancelled: Bool { run.isCancelled }
  public func cancel() { run.cancel() }

  public func getMapItems(completionHandler: @escaping ([MKMapItem]?, (any Error)?) -> Void) {
    let (address, region) = (addressString, region ?? MKCoordinateRegion())
    run.start({ MapSearchRun.items(MKLocalSearch.placemarks(matching: address, in: region)) }, completionHandler)
  }

  public var mapItems: [MKMapItem] {
    get async throws {
      let (address, region) = (addressString, region ?? MKCoordinateRegion())
      return try await run.value { MapSearchRun.items(MKLocalSearch.placemarks(matching: address, in: region)) }
    }
  }
}

/// Turns a location into map items (iOS 26): the registered placemarks within 100 m, nearest
/// first (see ``MKLocalSearch``); none fails with `MKError.placemarkNotFound`.
public final class MKReverseGeocodingRequest: NSObject, @unchecked Sendable {
  public let location: CLLocation
  public var preferredLocale: Locale?
  private let run = MapSearchRun()

  /// Nil for a location whose coordinate is not valid.
  public init?(location: CLLocation) {
    guard CLLocationCoordinate2DIsValid(location.coordinate) else { return nil }
    self.location = location
  }

  public var isLoading: Bool { run.isRunning }
  public var isCancelled: Bool { run.isCancelled }
  public func cancel() { run.cancel() }

  public func getMapItems(completionHandler: @escaping ([MKMapItem]?, (any Error)?) -> Void) {
    let location = self.location
    run.start({ MapSearchRun.items(LocationEmulatorGeocoding.placemarks(near: location)) }, completionHandler)
  }

  public var mapItems: [MKMapItem] {
    get async throws {
      let location = self.location
      return try await run.value { MapSearchRun.items(LocationEmulatorGeocoding.placemarks(near: location)) }
    }
  }
}
