// The part of Apple's Contacts framework that location code uses beside CoreLocation: postal
// addresses (`CNPostalAddress`, `CNMutablePostalAddress`), their formatter, a placemark's
// `postalAddress` and geocoding one. Opt-in, like `os`: a module named Contacts in a build
// turns `#if canImport(Contacts)` on in every package built with it.
public import CoreLocation
public import Foundation

/// A postal address (Apple's `CNPostalAddress`): immutable; ``mutableCopy(with:)`` makes a
/// ``CNMutablePostalAddress``.
open class CNPostalAddress: NSObject, NSCopying, NSMutableCopying, @unchecked Sendable {
  /// The street line: house number and street name; empty when unknown.
  open internal(set) var street = ""
  /// The neighbourhood or district within the city; empty when unknown.
  open internal(set) var subLocality = ""
  /// The city or town; empty when unknown.
  open internal(set) var city = ""
  /// The county or similar area between the city and the state; empty when unknown.
  open internal(set) var subAdministrativeArea = ""
  /// The state, province or region; empty when unknown.
  open internal(set) var state = ""
  /// The postal or ZIP code; empty when unknown.
  open internal(set) var postalCode = ""
  /// The country's name; empty when unknown.
  open internal(set) var country = ""
  /// The country's ISO 3166 code ("US", "FI"…); it decides the formatter's field order.
  open internal(set) var isoCountryCode = ""

  /// Creates an address whose fields are all empty.
  public override init() { super.init() }

  init(copying other: CNPostalAddress) {
    street = other.street
    subLocality = other.subLocality
    city = other.city
    subAdministrativeArea = other.subAdministrativeArea
    state = other.state
    postalCode = other.postalCode
    country = other.country
    isoCountryCode = other.isoCountryCode
    super.init()
  }

  /// An immutable copy of the address.
  /// - Parameter zone: ignored, as on iOS.
  /// - Returns: a new ``CNPostalAddress`` with the same fields.
  open func copy(with zone: NSZone? = nil) -> Any { CNPostalAddress(copying: self) }
  /// A copy of the address whose fields can be set.
  /// - Parameter zone: ignored, as on iOS.
  /// - Returns: a new ``CNMutablePostalAddress`` with the same fields.
  open func mutableCopy(with zone: NSZone? = nil) -> Any { CNMutablePostalAddress(copying: self) }

  /// Whether `object` is a postal address with the same fields, mutable or not.
  /// - Parameter object: the object to compare with.
  /// - Returns: true when every field is equal.
  open override func isEqual(_ object: Any?) -> Bool {
    guard let other = object as? CNPostalAddress else { return false }
    return street == other.street && subLocality == other.subLocality && city == other.city
      && subAdministrativeArea == other.subAdministrativeArea && state == other.state && postalCode == other.postalCode
      && country == other.country && isoCountryCode == other.isoCountryCode
  }

  /// A hash of all the fields, consistent with `isEqual(_:)`.
  open override var hash: Int {
    var hasher = Hasher()
    for part in [street, subLocality, city, subAdministrativeArea, state, postalCode, country, isoCountryCode] { hasher.combine(part) }
    return hasher.finalize()
  }

  /// The address as a mailing address, one line per part (see ``CNPostalAddressFormatter``).
  open override var description: String { CNPostalAddressFormatter.string(from: self, style: .mailingAddress) }

  /// The name of a key's field, in English ("Street", "City"…).
  open class func localizedString(forKey key: String) -> String {
    [
      CNPostalAddressStreetKey: "Street", CNPostalAddressSubLocalityKey: "Sub-locality", CNPostalAddressCityKey: "City",
      CNPostalAddressSubAdministrativeAreaKey: "Sub-administrative area", CNPostalAddressStateKey: "State",
      CNPostalAddressPostalCodeKey: "ZIP", CNPostalAddressCountryKey: "Country", CNPostalAddressISOCountryCodeKey: "Country code",
    ][key] ?? key
  }
}

/// A postal address whose fields can be set (Apple's `CNMutablePostalAddress`).
open class CNMutablePostalAddress: CNPostalAddress, @unchecked Sendable {
  /// The street line: house number and street name.
  open override var street: String {
    get { super.street }
    set { super.street = newValue }
  }
  /// The neighbourhood or district within the city.
  open override var subLocality: String {
    get { super.subLocality }
    set { super.subLocality = newValue }
  }
  /// The city or town.
  open override var city: String {
    get { super.city }
    set { super.city = newValue }
  }
  /// The county or similar area between the city and the state.
  open override var subAdministrativeArea: String {
    get { super.subAdministrativeArea }
    set { super.subAdministrativeArea = newValue }
  }
  /// The state, province or region.
  open override var state: String {
    get { super.state }
    set { super.state = newValue }
  }
  /// The postal or ZIP code.
  open override var postalCode: String {
    get { super.postalCode }
    set { super.postalCode = newValue }
  }
  /// The country's name.
  open override var country: String {
    get { super.country }
    set { super.country = newValue }
  }
  /// The country's ISO 3166 code ("US", "FI"…); it decides the formatter's field order.
  open override var isoCountryCode: String {
    get { super.isoCountryCode }
    set { super.isoCountryCode = newValue }
  }
}

/// The key of the `street` field (for ``CNPostalAddress/localizedString(forKey:)``).
public let CNPostalAddressStreetKey = "street"
/// The key of the `subLocality` field (for ``CNPostalAddress/localizedString(forKey:)``).
public let CNPostalAddressSubLocalityKey = "subLocality"
/// The key of the `city` field (for ``CNPostalAddress/localizedString(forKey:)``).
public let CNPostalAddressCityKey = "city"
/// The key of the `subAdministrativeArea` field (for ``CNPostalAddress/localizedString(forKey:)``).
public let CNPostalAddressSubAdministrativeAreaKey = "subAdministrativeArea"
/// The key of the `state` field (for ``CNPostalAddress/localizedString(forKey:)``).
public let CNPostalAddressStateKey = "state"
/// The key of the `postalCode` field (for ``CNPostalAddress/localizedString(forKey:)``).
public let CNPostalAddressPostalCodeKey = "postalCode"
/// The key of the `country` field (for ``CNPostalAddress/localizedString(forKey:)``).
public let CNPostalAddressCountryKey = "country"
/// The key of the `isoCountryCode` field (for ``CNPostalAddress/localizedString(forKey:)``).
public let CNPostalAddressISOCountryCodeKey = "ISOCountryCode"

/// How an address is written (Apple's raw value).
public enum CNPostalAddressFormatterStyle: Int, Sendable {
  /// The address as written on an envelope, one part per line.
  case mailingAddress = 0
}

/// Writes a postal address as the lines of an envelope (Apple's `CNPostalAddressFormatter`),
/// in its country's order: the postal code before the city in most of Europe and Latin
/// America ("00100 Helsinki"), after the city and state elsewhere ("Cupertino CA 95014"); the
/// country last, on its own line. Empty fields are left out.
open class CNPostalAddressFormatter: Formatter, @unchecked Sendable {
  /// How addresses are written; `.mailingAddress`, the only style.
  open var style: CNPostalAddressFormatterStyle = .mailingAddress

  /// Creates a formatter in the mailing-address style.
  public override init() { super.init() }
  /// Creates a formatter from an archive, as `Formatter` requires.
  /// - Parameter coder: the archive to read.
  public required init?(coder: NSCoder) { super.init(coder: coder) }

  /// Writes an address in this formatter's style.
  /// - Parameter postalAddress: the address to write.
  /// - Returns: the address's non-empty parts, one per line.
  open func string(from postalAddress: CNPostalAddress) -> String { Self.string(from: postalAddress, style: style) }

  /// Writes an object, if it is a postal address, in this formatter's style.
  /// - Parameter obj: the object to write.
  /// - Returns: the written address, or nil when `obj` is not a ``CNPostalAddress``.
  open override func string(for obj: Any?) -> String? { (obj as? CNPostalAddress).map(string(from:)) }

  /// Writes an address in a style, its parts in its country's order.
  /// - Parameters:
  ///   - postalAddress: the address to write.
  ///   - style: the style to write it in (only `.mailingAddress` exists).
  /// - Returns: the address's non-empty parts, one per line: street, sub-locality, city with
  ///   state and postal code, country.
  open class func string(from postalAddress: CNPostalAddress, style: CNPostalAddressFormatterStyle) -> String {
    let a = postalAddress
    let code = a.isoCountryCode.uppercased()
    let place: String
    if postalCodeFirst.contains(code) {
      place = [a.postalCode, a.city].filter { !$0.isEmpty }.joined(separator: " ")
    } else {
      place = [a.city, [a.state, a.postalCode].filter { !$0.isEmpty }.joined(separator: " ")].filter { !$0.isEmpty }
        .joined(separator: code == "US" || code == "CA" || code == "AU" ? " " : ", ")
    }
    return [a.street, a.subLocality, place, a.country].filter { !$0.isEmpty }.joined(separator: "\n")
  }

  /// Countries whose addresses put the postal code before the city.
  static let postalCodeFirst: Set<String> = [
    "AT", "BE", "CH", "CZ", "DE", "DK", "EE", "ES", "FI", "FR", "GR", "HR", "HU", "IS", "IT", "LT", "LU", "LV", "NL", "NO",
    "PL", "PT", "RO", "SE", "SI", "SK", "BR", "AR", "MX", "CL", "TR", "IL",
  ]
}

extension CLPlacemark {
  /// The placemark's address as a postal address (Apple's iOS 11 `postalAddress`): street from
  /// the number and thoroughfare, city from the locality, state from the administrative area.
  public var postalAddress: CNPostalAddress? {
    let parts = [subThoroughfare, thoroughfare, locality, subLocality, administrativeArea, postalCode, country, isoCountryCode]
    guard parts.contains(where: { $0?.isEmpty == false }) else { return nil }
    let address = CNMutablePostalAddress()
    address.street = [subThoroughfare, thoroughfare].compactMap { $0 }.joined(separator: " ")
    address.subLocality = subLocality ?? ""
    address.city = locality ?? ""
    address.subAdministrativeArea = subAdministrativeArea ?? ""
    address.state = administrativeArea ?? ""
    address.postalCode = postalCode ?? ""
    address.country = country ?? ""
    address.isoCountryCode = isoCountryCode ?? ""
    return address.copy() as? CNPostalAddress
  }
}

extension CLGeocoder {
  /// Geocodes a postal address: its fields as one address string (see
  /// `geocodeAddressString(_:completionHandler:)`).
  @preconcurrency
  public func geocodePostalAddress(_ postalAddress: CNPostalAddress, completionHandler: @escaping CLGeocodeCompletionHandler) {
    geocodeAddressString(Self.text(postalAddress), completionHandler: completionHandler)
  }

  /// Geocodes a postal address, as `geocodePostalAddress(_:completionHandler:)` does.
  /// - Parameters:
  ///   - postalAddress: the address to look up.
  ///   - locale: the language for the answer; has no effect here.
  ///   - completionHandler: called on the main queue with the placemarks found, or an error.
  @preconcurrency
  public func geocodePostalAddress(
    _ postalAddress: CNPostalAddress, preferredLocale locale: Locale?, completionHandler: @escaping CLGeocodeCompletionHandler
  ) {
    geocodeAddressString(Self.text(postalAddress), in: nil, preferredLocale: locale, completionHandler: completionHandler)
  }

  /// Geocodes a postal address: its fields as one address string.
  /// - Parameter postalAddress: the address to look up.
  /// - Returns: the placemarks found.
  /// - Throws: a `CLError`: `.network` when nothing matches, `.geocodeCanceled` when cancelled.
  public func geocodePostalAddress(_ postalAddress: CNPostalAddress) async throws -> [CLPlacemark] {
    try await geocodeAddressString(Self.text(postalAddress))
  }

  /// Geocodes a postal address: its fields as one address string.
  /// - Parameters:
  ///   - postalAddress: the address to look up.
  ///   - locale: the language for the answer; has no effect here.
  /// - Returns: the placemarks found.
  /// - Throws: a `CLError`: `.network` when nothing matches, `.geocodeCanceled` when cancelled.
  public func geocodePostalAddress(_ postalAddress: CNPostalAddress, preferredLocale locale: Locale?) async throws -> [CLPlacemark] {
    try await geocodeAddressString(Self.text(postalAddress), in: nil, preferredLocale: locale)
  }

  private static func text(_ a: CNPostalAddress) -> String {
    [a.street, a.city, a.postalCode, a.state, a.country].filter { !$0.isEmpty }.joined(separator: " ")
  }
}
