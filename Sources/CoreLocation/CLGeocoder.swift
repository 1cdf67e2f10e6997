public import Foundation
import Geo
import LocationServices

/// An address for a place: what a geocoder answers.
open class CLPlacemark: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
  open private(set) var location: CLLocation?
  open private(set) var region: CLRegion?
  open private(set) var timeZone: TimeZone?
  open private(set) var name: String?
  open private(set) var thoroughfare: String?
  open private(set) var subThoroughfare: String?
  open private(set) var locality: String?
  open private(set) var subLocality: String?
  open private(set) var administrativeArea: String?
  open private(set) var subAdministrativeArea: String?
  open private(set) var postalCode: String?
  open private(set) var isoCountryCode: String?
  open private(set) var country: String?
  open private(set) var inlandWater: String?
  open private(set) var ocean: String?
  open private(set) var areasOfInterest: [String]?

  /// A copy of `placemark`.
  public init(placemark: CLPlacemark) {
    location = placemark.location
    region = placemark.region
    timeZone = placemark.timeZone
    name = placemark.name
    thoroughfare = placemark.thoroughfare
    subThoroughfare = placemark.subThoroughfare
    locality = placemark.locality
    subLocality = placemark.subLocality
    administrativeArea = placemark.administrativeArea
    subAdministrativeArea = placemark.subAdministrativeArea
    postalCode = placemark.postalCode
    isoCountryCode = placemark.isoCountryCode
    country = placemark.country
    inlandWater = placemark.inlandWater
    ocean = placemark.ocean
    areasOfInterest = placemark.areasOfInterest
    super.init()
  }

  /// A placemark for a test to register with ``LocationEmulatorGeocoding``: a real geocoder's
  /// answer is a registered one here (this initializer is the emulator's, not the SDK's).
  public init(
    location: CLLocation, name: String? = nil, thoroughfare: String? = nil, subThoroughfare: String? = nil, locality: String? = nil,
    subLocality: String? = nil, administrativeArea: String? = nil, subAdministrativeArea: String? = nil, postalCode: String? = nil,
    isoCountryCode: String? = nil, country: String? = nil, timeZone: TimeZone? = nil, areasOfInterest: [String]? = nil
  ) {
    self.location = location
    self.name = name
    self.thoroughfare = thoroughfare
    self.subThoroughfare = subThoroughfare
    self.locality = locality
    self.subLocality = subLocality
    self.administrativeArea = administrativeArea
    self.subAdministrativeArea = subAdministrativeArea
    self.postalCode = postalCode
    self.isoCountryCode = isoCountryCode
    self.country = country
    self.timeZone = timeZone
    self.areasOfInterest = areasOfInterest
    super.init()
  }

  open func copy(with zone: NSZone? = nil) -> Any { self }
  public static var supportsSecureCoding: Bool { true }
  public required init?(coder: NSCoder) {
    name = coder.decodeObject(forKey: "name") as? String
    locality = coder.decodeObject(forKey: "locality") as? String
    country = coder.decodeObject(forKey: "country") as? String
    super.init()
  }
  open func encode(with coder: NSCoder) {
    coder.encode(name, forKey: "name")
    coder.encode(locality, forKey: "locality")
    coder.encode(country, forKey: "country")
  }

  /// The words an address search matches against.
  var searchText: String {
    [name, subThoroughfare, thoroughfare, subLocality, locality, administrativeArea, postalCode, country]
      .compactMap { $0 }.joined(separator: " ").lowercased()
  }
}

public typealias CLGeocodeCompletionHandler = @Sendable ([CLPlacemark]?, (any Error)?) -> Void

/// The emulator's address book: the placemarks ``CLGeocoder`` answers from. There is no
/// network here, so a geocoder never makes an address up: what was not registered fails with
/// `CLError.network`, as a geocoder without a connection does.
public enum LocationEmulatorGeocoding {
  private static let registered = Locked<[CLPlacemark]>([])

  /// Adds placemarks that forward and reverse geocoding answer with.
  public static func register(_ placemarks: [CLPlacemark]) { registered.withLock { $0 += placemarks } }

  /// Forgets every registered placemark.
  public static func removeAll() { registered.withLock { $0.removeAll() } }

  /// Placemarks near `location` (within 100 m), nearest first.
  package static func placemarks(near location: CLLocation) -> [CLPlacemark] {
    registered.withLock { $0 }
      .compactMap { p in p.location.map { (p, $0.distance(from: location)) } }
      .filter { $0.1 <= 100 }
      .sorted { $0.1 < $1.1 }
      .map(\.0)
  }

  /// Placemarks whose address has every word of `address`.
  package static func placemarks(matching address: String) -> [CLPlacemark] {
    let words = address.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init)
    guard !words.isEmpty else { return [] }
    return registered.withLock { $0 }.filter { p in words.allSatisfy { p.searchText.contains($0) } }
  }
}

/// Turns addresses into placemarks and back, from the placemarks a test registered
/// (``LocationEmulatorGeocoding``); anything else fails with `CLError.network`. Answers come on
/// the main queue, as on iOS; one request at a time (a second cancels the first, which fails with
/// `geocodeCanceled`).
open class CLGeocoder: NSObject, @unchecked Sendable {
  private let pending = Locked<(id: UInt64, handler: CLGeocodeCompletionHandler?)>((0, nil))

  public override init() { super.init() }

  /// Whether a request is in progress.
  open var isGeocoding: Bool { pending.withLock { $0.handler != nil } }

  open func reverseGeocodeLocation(_ location: CLLocation, completionHandler: @escaping CLGeocodeCompletionHandler) {
    answer(LocationEmulatorGeocoding.placemarks(near: location), completionHandler)
  }

  open func reverseGeocodeLocation(_ location: CLLocation) async throws -> [CLPlacemark] {
    try await withAnswer { reverseGeocodeLocation(location, completionHandler: $0) }
  }

  open func reverseGeocodeLocation(
    _ location: CLLocation, preferredLocale locale: Locale?, completionHandler: @escaping CLGeocodeCompletionHandler
  ) {
    reverseGeocodeLocation(location, completionHandler: completionHandler)
  }

  open func reverseGeocodeLocation(_ location: CLLocation, preferredLocale locale: Locale?) async throws -> [CLPlacemark] {
    try await reverseGeocodeLocation(location)
  }

  open func geocodeAddressString(_ addressString: String, completionHandler: @escaping CLGeocodeCompletionHandler) {
    answer(LocationEmulatorGeocoding.placemarks(matching: addressString), completionHandler)
  }

  open func geocodeAddressString(_ addressString: String) async throws -> [CLPlacemark] {
    try await withAnswer { geocodeAddressString(addressString, completionHandler: $0) }
  }

  /// Geocodes an Address Book-style dictionary (deprecated on iOS 11, still available): its
  /// values (street, city, state, ZIP, country…) joined into one address string, in the order an
  /// address is written.
  @available(*, deprecated, message: "Use -geocodePostalAddress:completionHandler:")
  open func geocodeAddressDictionary(_ addressDictionary: [AnyHashable: Any], completionHandler: @escaping CLGeocodeCompletionHandler) {
    geocodeAddressString(Self.addressString(addressDictionary), completionHandler: completionHandler)
  }

  /// The address an Address Book dictionary holds, as one string (its known keys in the order an
  /// address is written, then any other string values).
  static func addressString(_ dictionary: [AnyHashable: Any]) -> String {
    let order = ["Street", "SubLocality", "City", "SubAdministrativeArea", "State", "ZIP", "Country", "CountryCode"]
    var parts: [String] = []
    for key in order {
      if let value = dictionary[key] as? String, !value.isEmpty { parts.append(value) }
      if key == "Street", let lines = dictionary["FormattedAddressLines"] as? [String], dictionary["Street"] == nil { parts += lines }
    }
    let rest = dictionary.compactMap { key, value -> (String, String)? in
      guard let key = key as? String, !order.contains(key), key != "FormattedAddressLines", let value = value as? String else { return nil }
      return (key, value)
    }
    return (parts + rest.sorted { $0.0 < $1.0 }.map(\.1)).joined(separator: ", ")
  }

  open func geocodeAddressString(_ addressString: String, in region: CLRegion?, completionHandler: @escaping CLGeocodeCompletionHandler) {
    var found = LocationEmulatorGeocoding.placemarks(matching: addressString)
    if let circle = region?.circle {
      found = found.filter { p in p.location.map { CLRegion.circle(circle, contains: $0.coordinate) } ?? false }
    }
    answer(found, completionHandler)
  }

  open func geocodeAddressString(_ addressString: String, in region: CLRegion?) async throws -> [CLPlacemark] {
    try await withAnswer { geocodeAddressString(addressString, in: region, completionHandler: $0) }
  }

  open func geocodeAddressString(
    _ addressString: String, in region: CLRegion?, preferredLocale locale: Locale?, completionHandler: @escaping CLGeocodeCompletionHandler
  ) {
    geocodeAddressString(addressString, in: region, completionHandler: completionHandler)
  }

  open func geocodeAddressString(
    _ addressString: String, in region: CLRegion?, preferredLocale locale: Locale?
  ) async throws
    -> [CLPlacemark]
  {
    try await geocodeAddressString(addressString, in: region)
  }

  /// Cancels the request in progress: it fails with `geocodeCanceled`.
  open func cancelGeocode() {
    let handler = pending.withLock { p -> CLGeocodeCompletionHandler? in
      defer { p.handler = nil }
      return p.handler
    }
    if let handler { DispatchQueue.main.async { handler(nil, CLError(.geocodeCanceled)) } }
  }

  private func answer(_ placemarks: [CLPlacemark], _ handler: @escaping CLGeocodeCompletionHandler) {
    cancelGeocode()
    let id = pending.withLock { p -> UInt64 in
      p.id &+= 1
      p.handler = handler
      return p.id
    }
    let answer: ([CLPlacemark]?, (any Error)?) = placemarks.isEmpty ? (nil, CLError(.network)) : (placemarks, nil)
    DispatchQueue.main.async { [pending] in
      // Not when cancelled or replaced meanwhile (the cancellation answered).
      let current = pending.withLock { p -> CLGeocodeCompletionHandler? in
        guard p.id == id else { return nil }
        defer { p.handler = nil }
        return p.handler
      }
      current?(answer.0, answer.1)
    }
  }

  private func withAnswer(_ start: (@escaping CLGeocodeCompletionHandler) -> Void) async throws -> [CLPlacemark] {
    try await withCheckedThrowingContinuation { (done: CheckedContinuation<[CLPlacemark], any Error>) in
      start { placemarks, error in
        if let error { done.resume(throwing: error) } else { done.resume(returning: placemarks ?? []) }
      }
    }
  }
}
