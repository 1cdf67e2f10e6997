public import CoreLocation
public import Foundation
import Geo
import LocationModel

/// One search at a time with a cancel, answered on the main queue as MapKit answers: what
/// ``MKLocalSearch``, ``MKGeocodingRequest`` and ``MKReverseGeocodingRequest`` share.
final class MapSearchRun: @unchecked Sendable {
  private let state = Locked<(id: UInt64, running: Bool, cancelled: Bool)>((0, false, false))

  var isRunning: Bool { state.withLock { $0.running } }
  var isCancelled: Bool { state.withLock { $0.cancelled } }

  /// Answers `handler` on the main queue with `answer()`, unless cancelled or restarted first:
  /// then `dropped` is called instead, on the main queue (the async calls end with it).
  func start<Value>(
    _ answer: @escaping @Sendable () -> Result<Value, any Error>, _ handler: @escaping (Value?, (any Error)?) -> Void,
    dropped: (() -> Void)? = nil
  ) {
    let id = state.withLock { s -> UInt64 in
      s.id &+= 1
      s.running = true
      s.cancelled = false
      return s.id
    }
    nonisolated(unsafe) let handler = handler
    nonisolated(unsafe) let dropped = dropped
    DispatchQueue.main.async { [state] in
      let current = state.withLock { s -> Bool in
        guard s.id == id, s.running else { return false }
        s.running = false
        return true
      }
      guard current else {
        dropped?()
        return
      }
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

  /// `start` as an async call. Cancelled (by `cancel()`, by a new start, or by the calling
  /// task's cancellation), it throws `CancellationError` rather than never returning.
  func value<Value: Sendable>(_ answer: @escaping @Sendable () -> Result<Value, any Error>) async throws -> Value {
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (done: CheckedContinuation<Value, any Error>) in
        start(answer) { value, error in
          if let value { done.resume(returning: value) } else { done.resume(throwing: error ?? MKError(.unknown)) }
        } dropped: {
          done.resume(throwing: CancellationError())
        }
        // A task cancelled before it got here: its cancellation handler found nothing running.
        if Task.isCancelled { cancel() }
      }
    } onCancel: {
      cancel()
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
  /// What a search answers with: the response, or nil and the error.
  public typealias CompletionHandler = (MKLocalSearch.Response?, (any Error)?) -> Void

  /// What to search for.
  open class Request: NSObject, NSCopying, @unchecked Sendable {
    /// The kinds of result a search returns.
    public struct ResultType: OptionSet, Sendable {
      /// The raw value: the bits of the kinds in the set.
      public let rawValue: UInt
      /// Creates a set of kinds from its raw value.
      /// - Parameter rawValue: The bits of the kinds.
      public init(rawValue: UInt) { self.rawValue = rawValue }
      /// Addresses.
      public static let address = ResultType(rawValue: 1 << 0)
      /// Points of interest, such as shops and parks.
      public static let pointOfInterest = ResultType(rawValue: 1 << 1)
      /// Physical features, such as mountains and lakes.
      public static let physicalFeature = ResultType(rawValue: 1 << 2)
    }

    /// The text to search for, such as a name or an address; nil (or no words) matches nothing.
    open var naturalLanguageQuery: String?
    /// Where to search; a region with a zero span (the default) is everywhere.
    open var region = MKCoordinateRegion()
    /// The kinds of result wanted; addresses and points of interest by default. Not used here: every match is returned.
    open var resultTypes: ResultType = [.address, .pointOfInterest]
    /// Which categories of point of interest to include; nil for all. Not used here: every match is returned.
    open var pointOfInterestFilter: MKPointOfInterestFilter?

    /// An empty request, with no query, searching everywhere.
    public override init() { super.init() }
    /// A request for a query, searching everywhere.
    /// - Parameter naturalLanguageQuery: The text to search for.
    public init(naturalLanguageQuery: String) {
      self.naturalLanguageQuery = naturalLanguageQuery
      super.init()
    }
    /// A request for a query within a region.
    /// - Parameters:
    ///   - naturalLanguageQuery: The text to search for.
    ///   - region: Where to search.
    public init(naturalLanguageQuery: String, region: MKCoordinateRegion) {
      self.naturalLanguageQuery = naturalLanguageQuery
      self.region = region
      super.init()
    }

    /// A copy of the request, with the same query, region, result types and filter.
    /// - Parameter zone: Ignored.
    /// - Returns: The new request.
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
    /// The places found, in the order the registered placemarks match.
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

  /// A search for a request; the request is copied, so later changes to it do not count.
  /// - Parameter request: What to search for.
  public init(request: Request) {
    self.request = request.copy() as! Request
    super.init()
  }

  /// Whether a search is under way.
  open var isSearching: Bool { run.isRunning }

  /// Starts the search; a search already under way is replaced.
  /// - Parameter completionHandler: Called on the main queue with the response or the error, unless the search is cancelled.
  open func start(completionHandler: @escaping CompletionHandler) {
    let request = self.request
    run.start({ Self.search(request) }, completionHandler)
  }

  /// Searches, and waits for the answer.
  /// - Returns: The places found.
  /// - Throws: `MKError.placemarkNotFound` when nothing matches.
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
  /// The address to look up.
  public let addressString: String
  /// Where to look; nil for everywhere.
  public var region: MKCoordinateRegion?
  /// The locale to answer in; nil for the current one. Not used here: placemarks are returned as registered.
  public var preferredLocale: Locale?
  private let run = MapSearchRun()

  /// Nil for an empty address.
  public init?(addressString: String) {
    guard !addressString.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
    self.addressString = addressString
  }

  /// Whether a lookup is under way.
  public var isLoading: Bool { run.isRunning }
  /// Whether the last lookup was cancelled before it answered.
  public var isCancelled: Bool { run.isCancelled }
  /// Cancels the lookup under way: its handler is not called.
  public func cancel() { run.cancel() }

  /// Looks the address up.
  /// - Parameter completionHandler: Called on the main queue with the map items or the error, unless the lookup is cancelled.
  public func getMapItems(completionHandler: @escaping ([MKMapItem]?, (any Error)?) -> Void) {
    let (address, region) = (addressString, region ?? MKCoordinateRegion())
    run.start({ MapSearchRun.items(MKLocalSearch.placemarks(matching: address, in: region)) }, completionHandler)
  }

  /// The map items for the address, looked up when read; throws `MKError.placemarkNotFound` when there are none.
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
  /// The location to look up.
  public let location: CLLocation
  /// The locale to answer in; nil for the current one. Not used here: placemarks are returned as registered.
  public var preferredLocale: Locale?
  private let run = MapSearchRun()

  /// Nil for a location whose coordinate is not valid.
  public init?(location: CLLocation) {
    guard CLLocationCoordinate2DIsValid(location.coordinate) else { return nil }
    self.location = location
  }

  /// Whether a lookup is under way.
  public var isLoading: Bool { run.isRunning }
  /// Whether the last lookup was cancelled before it answered.
  public var isCancelled: Bool { run.isCancelled }
  /// Cancels the lookup under way: its handler is not called.
  public func cancel() { run.cancel() }

  /// Looks the location up.
  /// - Parameter completionHandler: Called on the main queue with the map items or the error, unless the lookup is cancelled.
  public func getMapItems(completionHandler: @escaping ([MKMapItem]?, (any Error)?) -> Void) {
    let location = self.location
    run.start({ MapSearchRun.items(LocationEmulatorGeocoding.placemarks(near: location)) }, completionHandler)
  }

  /// The map items near the location, looked up when read; throws `MKError.placemarkNotFound` when there are none.
  public var mapItems: [MKMapItem] {
    get async throws {
      let location = self.location
      return try await run.value { MapSearchRun.items(LocationEmulatorGeocoding.placemarks(near: location)) }
    }
  }
}
