// The part of Apple's Contacts framework that location code uses beside CoreLocation: postal
// addresses (`CNPostalAddress`, `CNMutablePostalAddress`), their formatter, a placemark's
// `postalAddress` and geocoding one. Opt-in, like `os`: a module named Contacts in a build
// turns `#if canImport(Contacts)` on in every package built with it.
public import CoreLocation
public import Foundation

/// A postal address (Apple's `CNPostalAddress`): immutable; ``mutableCopy(with:)`` makes a
/// ``CNMutablePostalAddress``.
open class CNPostalAddress: NSObject, NSCopying, NSMutableCopying, @unchecked Sendable {
  open internal(set) var street = ""
  open internal(set) var subLocality = ""
  open internal(set) var city = ""
  open internal(set) var subAdministrativeArea = ""
  open internal(set) var state = ""
  open internal(set) var postalCode = ""
  open internal(set) var country = ""
  open internal(set) var isoCountryCode = ""

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

  open func copy(with zone: NSZone? = nil) -> Any { CNPostalAddress(copying: self) }
  open func mutableCopy(with zone: NSZone? = nil) -> Any { CNMutablePostalAddress(copying: self) }

  open override func isEqual(_ object: Any?) -> Bool {
    guard let other = object as? CNPostalAddress else { return false }
    return street == other.street && subLocality == other.subLocality && city == other.city
      && subAdministrativeArea == other.subAdministrativeArea && state == other.state && postalCode == other.postalCode
      && country == other.country && isoCountryCode == other.isoCountryCode
  }

  open override var hash: Int {
    var hasher = Hasher()
    for part in [street, subLocality, city, subAdministrativeArea, state, postalCode, country, isoCountryCode] { hasher.combine(part) }
    return hasher.finalize()
  }

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
  open override var street: String {
    get { super.street }
    set { super.street = newValue }
  }
  open override var subLocality: String {
    get { super.subLocality }
    set { super.subLocality = newValue }
  }
  open override var city: String {
    get { super.city }
    set { super.city = newValue }
  }
  open override var subAdministrativeArea: String {
    get { super.subAdministrativeArea }
    set { super.subAdministrativeArea = newValue }
  }
  open override var state: String {
    get { super.state }
    set { super.state = newValue }
  }
  open override var postalCode: String {
    get { super.postalCode }
    set { super.postalCode = newValue }
  }
  open override var country: String {
    get { super.country }
    set { super.country = newValue }
  }
  open override var isoCountryCode: String {
    get { super.isoCountryCode }
    set { super.isoCountryCode = newValue }
  }
}

public let CNPostalAddressStreetKey = "street"
public let CNPostalAddressSubLocalityKey = "subLocality"
public let CNPostalAddressCityKey = "city"
public let CNPostalAddressSubAdministrativeAreaKey = "subAdministrativeArea"
public let CNPostalAddressStateKey = "state"
public let CNPostalAddressPostalCodeKey = "postalCode"
public let CNPostalAddressCountryKey = "country"
public let CNPostalAddressISOCountryCodeKey = "ISOCountryCode"

/// How an address is written (Apple's raw value).
public enum CNPostalAddressFormatterStyle: Int, Sendable {
  case mailingAddress = 0
}

/// Writes a postal address as the lines of an envelope (Apple's `CNPostalAddressFormatter`),
/// in its country's order: the postal code before the city in most of Europe and Latin
/// America ("00100 Helsinki"), after the city and state elsewhere ("Cupertino CA 95014"); the
/// country last, on its own line. Empty fields are left out.
open class CNPostalAddressFormatter: Formatter, @unchecked Sendable {
  open var style: CNPostalAddressFormatterStyle = .mailingAddress

  public override init() { super.init() }
  public required init?(coder: NSCoder) { super.init(coder: coder) }

  open func string(from postalAddress: CNPostalAddress) -> String { Self.string(from: postalAddress, style: style) }

  open override func string(for obj: Any?) -> String? { (obj as? CNPostalAddress).map(string(from:)) }

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
  public func geocodePostalAddress(_ postalAddress: CNPostalAddress, completionHandler: @escaping CLGeocodeCompletionHandler) {
    geocodeAddressString(Self.text(postalAddress), completionHandler: completionHandler)
  }

  public func geocodePostalAddress(
    _ postalAddress: CNPostalAddress, preferredLocale locale: Locale?, completionHandler: @escaping CLGeocodeCompletionHandler
  ) {
    geocodeAddressString(Self.text(postalAddress), in: nil, preferredLocale: locale, completionHandler: completionHandler)
  }

  public func geocodePostalAddress(_ postalAddress: CNPostalAddress) async throws -> [CLPlacemark] {
    try await geocodeAddressString(Self.text(postalAddress))
  }

  public func geocodePostalAddress(_ postalAddress: CNPostalAddress, preferredLocale locale: Locale?) async throws -> [CLPlacemark] {
    try await geocodeAddressString(Self.text(postalAddress), in: nil, preferredLocale: locale)
  }

  private static func text(_ a: CNPostalAddress) -> String {
    [a.street, a.city, a.postalCode, a.state, a.country].filter { !$0.isEmpty }.joined(separator: " ")
  }
}
