public import Foundation
import Geo
import LocationModel

/// An address for a place: what a geocoder answers.
open class CLPlacemark: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
  /// The place's location.
  open private(set) var location: CLLocation?
  /// The area the place covers. Not emulated: always nil for a registered placemark.
  open private(set) var region: CLRegion?
  /// The time zone of the place.
  open private(set) var timeZone: TimeZone?
  /// The place's name, such as a building or the whole address line.
  open private(set) var name: String?
  /// The street.
  open private(set) var thoroughfare: String?
  /// The number in the street.
  open private(set) var subThoroughfare: String?
  /// The city.
  open private(set) var locality: String?
  /// The neighbourhood or district within the city.
  open private(set) var subLocality: String?
  /// The state or province.
  open private(set) var administrativeArea: String?
  /// The county or other area within the state.
  open private(set) var subAdministrativeArea: String?
  /// The postal code.
  open private(set) var postalCode: String?
  /// The country's ISO code, such as "US".
  open private(set) var isoCountryCode: String?
  /// The country's name.
  open private(set) var country: String?
  /// The lake or river at the place. Not emulated: always nil for a registered placemark.
  open private(set) var inlandWater: String?
  /// The ocean at the place. Not emulated: always nil for a registered placemark.
  open private(set) var ocean: String?
  /// Landmarks or points of interest at the place.
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

  /// The placemark itself: a placemark cannot change, so it is its own copy.
  ///
  /// - Parameter zone: Unused.
  /// - Returns: This placemark.
  open func copy(with zone: NSZone? = nil) -> Any { self }
  /// Whether the class supports secure coding: true.
  public static var supportsSecureCoding: Bool { true }
  /// Decodes a placemark; only its name, locality and country are kept here.
  ///
  /// - Parameter coder: The archive to read from.
  public required init?(coder: NSCoder) {
    name = coder.decodeObject(forKey: "name") as? String
    locality = coder.decodeObject(forKey: "locality") as? String
    country = coder.decodeObject(forKey: "country") as? String
    super.init()
  }
  /// Encodes the placemark; only its name, locality and country are written here.
  ///
  /// - Parameter coder: The archive to write to.
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

/// The handler of a geocoding request: the placemarks found, or nil and the error.
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
    let near: [(placemark: CLPlacemark, distance: CLLocationDistance)] = registered.withLock { $0 }.compactMap { placemark in
      guard let distance = placemark.location?.distance(from: location), distance <= 100 else { return nil }
      return (placemark, distance)
    }
    return near.sorted { $0.distance < $1.distance }.map(\.placemark)
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

  /// Creates a geocoder.
  public override init() { super.init() }

  /// Whether a request is in progress.
  open var isGeocoding: Bool { pending.withLock { $0.handler != nil } }

  /// Looks up the registered placemarks within 100 m of `location`, nearest first; none fails with `CLError.network`.
  ///
  /// - Parameters:
  ///   - location: The location to look up.
  ///   - completionHandler: Called on the main queue with the placemarks, or nil and the error.
  @preconcurrency
  open func reverseGeocodeLocation(_ location: CLLocation, completionHandler: @escaping CLGeocodeCompletionHandler) {
    answer(LocationEmulatorGeocoding.placemarks(near: location), completionHandler)
  }

  /// Looks up the registered placemarks within 100 m of `location`, nearest first.
  ///
  /// - Parameter location: The location to look up.
  /// - Returns: The placemarks found.
  /// - Throws: `CLError.network` when none is found, `geocodeCanceled` when cancelled.
  open func reverseGeocodeLocation(_ location: CLLocation) async throws -> [CLPlacemark] {
    try await withAnswer { reverseGeocodeLocation(location, completionHandler: $0) }
  }

  /// Looks up the registered placemarks near `location`, as `reverseGeocodeLocation(_:completionHandler:)` does.
  ///
  /// - Parameters:
  ///   - location: The location to look up.
  ///   - locale: The language of the answer. Has no effect here.
  ///   - completionHandler: Called on the main queue with the placemarks, or nil and the error.
  @preconcurrency
  open func reverseGeocodeLocation(
    _ location: CLLocation, preferredLocale locale: Locale?, completionHandler: @escaping CLGeocodeCompletionHandler
  ) {
    reverseGeocodeLocation(location, completionHandler: completionHandler)
  }

  /// Looks up the registered placemarks near `location`, as `reverseGeocodeLocation(_:)` does.
  ///
  /// - Parameters:
  ///   - location: The location to look up.
  ///   - locale: The language of the answer. Has no effect here.
  /// - Returns: The placemarks found.
  /// - Throws: `CLError.network` when none is found, `geocodeCanceled` when cancelled.
  open func reverseGeocodeLocation(_ location: CLLocation, preferredLocale locale: Locale?) async throws -> [CLPlacemark] {
    try await reverseGeocodeLocation(location)
  }

  /// Looks up the registered placemarks whose address has every word of `addressString`; none fails with `CLError.network`.
  ///
  /// - Parameters:
  ///   - addressString: The address to look up.
  ///   - completionHandler: Called on the main queue with the placemarks, or nil and the error.
  @preconcurrency
  open func geocodeAddressString(_ addressString: String, completionHandler: @escaping CLGeocodeCompletionHandler) {
    answer(LocationEmulatorGeocoding.placemarks(matching: addressString), completionHandler)
  }

  /// Looks up the registered placemarks whose address has every word of `addressString`.
  ///
  /// - Parameter addressString: The address to look up.
  /// - Returns: The placemarks found.
  /// - Throws: `CLError.network` when none is found, `geocodeCanceled` when cancelled.
  open func geocodeAddressString(_ addressString: String) async throws -> [CLPlacemark] {
    try await withAnswer { geocodeAddressString(addressString, completionHandler: $0) }
  }

  /// Geocodes an Address Book-style dictionary (deprecated on iOS 11, still available): its
  /// values (street, city, state, ZIP, country…) joined into one address string, in the order an
  /// address is written.
  @preconcurrency
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

  /// Looks up the registered placemarks matching `addressString`, only those inside `region` when it is circular.
  ///
  /// - Parameters:
  ///   - addressString: The address to look up.
  ///   - region: The region to search in, or nil for anywhere.
  ///   - completionHandler: Called on the main queue with the placemarks, or nil and the error.
  @preconcurrency
  open func geocodeAddressString(_ addressString: String, in region: CLRegion?, completionHandler: @escaping CLGeocodeCompletionHandler) {
    var found = LocationEmulatorGeocoding.placemarks(matching: addressString)
    if let circle = region?.circle {
      found = found.filter { p in p.location.map { CLRegion.circle(circle, contains: $0.coordinate) } ?? false }
    }
    answer(found, completionHandler)
  }

  /// Looks up the registered placemarks matching `addressString`, only those inside `region` when it is circular.
  ///
  /// - Parameters:
  ///   - addressString: The address to look up.
  ///   - region: The region to search in, or nil for anywhere.
  /// - Returns: The placemarks found.
  /// - Throws: `CLError.network` when none is found, `geocodeCanceled` when cancelled.
  open func geocodeAddressString(_ addressString: String, in region: CLRegion?) async throws -> [CLPlacemark] {
    try await withAnswer { geocodeAddressString(addressString, in: region, completionHandler: $0) }
  }

  /// Looks up the registered placemarks matching `addressString`, as `geocodeAddressString(_:in:completionHandler:)` does.
  ///
  /// - Parameters:
  ///   - addressString: The address to look up.
  ///   - region: The region to search in, or nil for anywhere.
  ///   - locale: The language of the answer. Has no effect here.
  ///   - completionHandler: Called on the main queue with the placemarks, or nil and the error.
  @preconcurrency
  open func geocodeAddressString(
    _ addressString: String, in region: CLRegion?, preferredLocale locale: Locale?, completionHandler: @escaping CLGeocodeCompletionHandler
  ) {
    geocodeAddressString(addressString, in: region, completionHandler: completionHandler)
  }

  /// Looks up the registered placemarks matching `addressString`, as `geocodeAddressString(_:in:)` does.
  ///
  /// - Parameters:
  ///   - addressString: The address to look up.
  ///   - region: The region to search in, or nil for anywhere.
  ///   - locale: The language of the answer. Has no effect here.
  /// - Returns: The placemarks found.
  /// - Throws: `CLError.network` when none is found, `geocodeCanceled` when cancelled.
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
