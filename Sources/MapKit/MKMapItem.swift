public import CoreLocation
public import Foundation

/// A placemark that is also an annotation, as MapKit's: what a map item holds.
open class MKPlacemark: CLPlacemark, MKAnnotation, @unchecked Sendable {
  private let country2: String?

  /// A placemark at `coordinate` with no address.
  public init(coordinate: CLLocationCoordinate2D) {
    country2 = nil
    super.init(location: CLLocation(latitude: coordinate.latitude, longitude: coordinate.longitude))
  }

  /// A placemark at `coordinate` with an address dictionary: Contacts' keys (`street`, `city`,
  /// `state`, `postalCode`, `country`, `ISOCountryCode`, `subLocality`,
  /// `subAdministrativeArea`) or the older Address Book ones (`Street`, `City`, `State`, `ZIP`,
  /// `Country`, `CountryCode`).
  public init(coordinate: CLLocationCoordinate2D, addressDictionary: [String: Any]?) {
    let address = addressDictionary ?? [:]
    func value(_ keys: String...) -> String? { keys.lazy.compactMap { address[$0] as? String }.first }
    let street = value("street", "Street")
    let code = value("ISOCountryCode", "CountryCode")
    country2 = code
    super.init(
      location: CLLocation(latitude: coordinate.latitude, longitude: coordinate.longitude), name: value("Name", "name") ?? street,
      thoroughfare: street, locality: value("city", "City"), subLocality: value("subLocality", "SubLocality"),
      administrativeArea: value("state", "State"), subAdministrativeArea: value("subAdministrativeArea", "SubAdministrativeArea"),
      postalCode: value("postalCode", "ZIP"), isoCountryCode: code, country: value("country", "Country"))
  }

  /// A copy of `placemark` as a map's placemark.
  public override init(placemark: CLPlacemark) {
    country2 = placemark.isoCountryCode
    super.init(placemark: placemark)
  }

  public required init?(coder: NSCoder) {
    country2 = nil
    super.init(coder: coder)
  }

  public var coordinate: CLLocationCoordinate2D { location?.coordinate ?? kCLLocationCoordinate2DInvalid }
  /// The placemark's name, as a pin's title.
  open var title: String? { name }
  open var subtitle: String? { nil }
  /// The ISO country code.
  open var countryCode: String? { country2 ?? isoCountryCode }
}

/// An address as iOS 26's MapKit gives it: the full text and a short form.
public final class MKAddress: NSObject, @unchecked Sendable {
  public let fullAddress: String
  public let shortAddress: String?

  /// Nil for an empty address.
  public init?(fullAddress: String, shortAddress: String?) {
    guard !fullAddress.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
    self.fullAddress = fullAddress
    self.shortAddress = shortAddress
  }
}

/// An address's parts as iOS 26's MapKit gives them for display.
public final class MKAddressRepresentations: NSObject, @unchecked Sendable {
  /// How much context ``cityWithContext(_:)`` adds to the city.
  public enum ContextStyle: Sendable {
    case automatic, short, full
  }

  private let placemark: CLPlacemark

  init(_ placemark: CLPlacemark) { self.placemark = placemark }

  public var cityName: String? { placemark.locality }
  public var regionName: String? { placemark.country }
  public var regionCode: String? { placemark.isoCountryCode }
  public var cityWithContext: String? { cityWithContext(.automatic) }

  /// The city with its state or country ("Helsinki, Finland").
  public func cityWithContext(_ style: ContextStyle) -> String? {
    guard let city = placemark.locality else { return nil }
    let context =
      style == .short ? (placemark.administrativeArea ?? placemark.isoCountryCode) : (placemark.administrativeArea ?? placemark.country)
    return [city, context].compactMap { $0 }.joined(separator: ", ")
  }

  /// The address, on one line or several, with or without the country.
  public func fullAddress(includingRegion: Bool, singleLine: Bool) -> String? {
    MKMapItem.addressLines(of: placemark, includingRegion: includingRegion).map { $0.joined(separator: singleLine ? ", " : "\n") }
  }
}

/// A place on a map: a placemark with a name and what is known of the place.
open class MKMapItem: NSObject, @unchecked Sendable {
  open private(set) var placemark: MKPlacemark
  open private(set) var isCurrentLocation: Bool
  open var name: String?
  open var phoneNumber: String?
  open var url: URL?
  open var timeZone: TimeZone?
  open var pointOfInterestCategory: MKPointOfInterestCategory?

  public init(placemark: MKPlacemark) {
    self.placemark = placemark
    isCurrentLocation = false
    name = placemark.name
    timeZone = placemark.timeZone
    super.init()
  }

  /// A map item at `location` with `address` (iOS 26).
  public convenience init(location: CLLocation, address: MKAddress?) {
    let placemark = MKPlacemark(placemark: CLPlacemark(location: location, name: address?.shortAddress ?? address?.fullAddress))
    self.init(placemark: placemark)
    fullAddress = address
  }

  /// The device's location, as the Maps app marks it: no coordinate of its own.
  open class func forCurrentLocation() -> MKMapItem {
    let item = MKMapItem(placemark: MKPlacemark(coordinate: kCLLocationCoordinate2DInvalid))
    item.isCurrentLocation = true
    item.name = "Current Location"
    return item
  }

  private var fullAddress: MKAddress?

  /// Where the item is (iOS 26).
  open var location: CLLocation { placemark.location ?? CLLocation(latitude: kCLLocationCoordinate2DInvalid.latitude, longitude: 0) }

  /// The item's address (iOS 26): the one it was made with, or its placemark's.
  open var address: MKAddress? {
    if let fullAddress { return fullAddress }
    guard let lines = Self.addressLines(of: placemark, includingRegion: true) else { return nil }
    let short = [placemark.subThoroughfare, placemark.thoroughfare].compactMap { $0 }.joined(separator: " ")
    return MKAddress(fullAddress: lines.joined(separator: ", "), shortAddress: short.isEmpty ? placemark.locality : short)
  }

  /// The address's parts for display (iOS 26); nil when the placemark has no address.
  open var addressRepresentations: MKAddressRepresentations? {
    placemark.locality == nil && placemark.thoroughfare == nil && placemark.country == nil ? nil : MKAddressRepresentations(placemark)
  }

  /// Opens the Maps app: there is none on Linux, so nothing opens (false).
  open func openInMaps(launchOptions: [String: Any]? = nil) -> Bool { false }

  /// Opens the Maps app with several items: there is none on Linux (false).
  open class func openMaps(with mapItems: [MKMapItem], launchOptions: [String: Any]? = nil) -> Bool { false }

  /// A placemark's address as lines: street, then postal code and city, then the country.
  static func addressLines(of placemark: CLPlacemark, includingRegion: Bool) -> [String]? {
    let street = [placemark.subThoroughfare, placemark.thoroughfare].compactMap { $0 }.joined(separator: " ")
    let city = [placemark.postalCode, placemark.locality].compactMap { $0 }.joined(separator: " ")
    let lines = [street, city, includingRegion ? placemark.country ?? "" : ""].filter { !$0.isEmpty }
    return lines.isEmpty ? nil : lines
  }
}

/// The kinds of points of interest, with Apple's raw values.
public struct MKPointOfInterestCategory: RawRepresentable, Hashable, Sendable {
  public let rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  public init(_ rawValue: String) { self.rawValue = rawValue }

  public static let airport = MKPointOfInterestCategory("MKPOICategoryAirport")
  public static let amusementPark = MKPointOfInterestCategory("MKPOICategoryAmusementPark")
  public static let animalService = MKPointOfInterestCategory("MKPOICategoryAnimalService")
  public static let aquarium = MKPointOfInterestCategory("MKPOICategoryAquarium")
  public static let atm = MKPointOfInterestCategory("MKPOICategoryATM")
  public static let automotiveRepair = MKPointOfInterestCategory("MKPOICategoryAutomotiveRepair")
  public static let bakery = MKPointOfInterestCategory("MKPOICategoryBakery")
  public static let bank = MKPointOfInterestCategory("MKPOICategoryBank")
  public static let baseball = MKPointOfInterestCategory("MKPOICategoryBaseball")
  public static let basketball = MKPointOfInterestCategory("MKPOICategoryBasketball")
  public static let beach = MKPointOfInterestCategory("MKPOICategoryBeach")
  public static let beauty = MKPointOfInterestCategory("MKPOICategoryBeauty")
  public static let bowling = MKPointOfInterestCategory("MKPOICategoryBowling")
  public static let brewery = MKPointOfInterestCategory("MKPOICategoryBrewery")
  public static let cafe = MKPointOfInterestCategory("MKPOICategoryCafe")
  public static let campground = MKPointOfInterestCategory("MKPOICategoryCampground")
  public static let carRental = MKPointOfInterestCategory("MKPOICategoryCarRental")
  public static let castle = MKPointOfInterestCategory("MKPOICategoryCastle")
  public static let conventionCenter = MKPointOfInterestCategory("MKPOICategoryConventionCenter")
  public static let distillery = MKPointOfInterestCategory("MKPOICategoryDistillery")
  public static let evCharger = MKPointOfInterestCategory("MKPOICategoryEVCharger")
  public static let fairground = MKPointOfInterestCategory("MKPOICategoryFairground")
  public static let fireStation = MKPointOfInterestCategory("MKPOICategoryFireStation")
  public static let fishing = MKPointOfInterestCategory("MKPOICategoryFishing")
  public static let fitnessCenter = MKPointOfInterestCategory("MKPOICategoryFitnessCenter")
  public static let foodMarket = MKPointOfInterestCategory("MKPOICategoryFoodMarket")
  public static let fortress = MKPointOfInterestCategory("MKPOICategoryFortress")
  public static let gasStation = MKPointOfInterestCategory("MKPOICategoryGasStation")
  public static let goKart = MKPointOfInterestCategory("MKPOICategoryGoKart")
  public static let golf = MKPointOfInterestCategory("MKPOICategoryGolf")
  public static let hiking = MKPointOfInterestCategory("MKPOICategoryHiking")
  public static let hospital = MKPointOfInterestCategory("MKPOICategoryHospital")
  public static let hotel = MKPointOfInterestCategory("MKPOICategoryHotel")
  public static let kayaking = MKPointOfInterestCategory("MKPOICategoryKayaking")
  public static let landmark = MKPointOfInterestCategory("MKPOICategoryLandmark")
  public static let laundry = MKPointOfInterestCategory("MKPOICategoryLaundry")
  public static let library = MKPointOfInterestCategory("MKPOICategoryLibrary")
  public static let mailbox = MKPointOfInterestCategory("MKPOICategoryMailbox")
  public static let marina = MKPointOfInterestCategory("MKPOICategoryMarina")
  public static let miniGolf = MKPointOfInterestCategory("MKPOICategoryMiniGolf")
  public static let movieTheater = MKPointOfInterestCategory("MKPOICategoryMovieTheater")
  public static let museum = MKPointOfInterestCategory("MKPOICategoryMuseum")
  public static let musicVenue = MKPointOfInterestCategory("MKPOICategoryMusicVenue")
  public static let nationalMonument = MKPointOfInterestCategory("MKPOICategoryNationalMonument")
  public static let nationalPark = MKPointOfInterestCategory("MKPOICategoryNationalPark")
  public static let nightlife = MKPointOfInterestCategory("MKPOICategoryNightlife")
  public static let park = MKPointOfInterestCategory("MKPOICategoryPark")
  public static let parking = MKPointOfInterestCategory("MKPOICategoryParking")
  public static let pharmacy = MKPointOfInterestCategory("MKPOICategoryPharmacy")
  public static let planetarium = MKPointOfInterestCategory("MKPOICategoryPlanetarium")
  public static let police = MKPointOfInterestCategory("MKPOICategoryPolice")
  public static let postOffice = MKPointOfInterestCategory("MKPOICategoryPostOffice")
  public static let publicTransport = MKPointOfInterestCategory("MKPOICategoryPublicTransport")
  public static let restaurant = MKPointOfInterestCategory("MKPOICategoryRestaurant")
  public static let restroom = MKPointOfInterestCategory("MKPOICategoryRestroom")
  public static let rockClimbing = MKPointOfInterestCategory("MKPOICategoryRockClimbing")
  public static let rvPark = MKPointOfInterestCategory("MKPOICategoryRVPark")
  public static let school = MKPointOfInterestCategory("MKPOICategorySchool")
  public static let skatePark = MKPointOfInterestCategory("MKPOICategorySkatePark")
  public static let skating = MKPointOfInterestCategory("MKPOICategorySkating")
  public static let skiing = MKPointOfInterestCategory("MKPOICategorySkiing")
  public static let soccer = MKPointOfInterestCategory("MKPOICategorySoccer")
  public static let spa = MKPointOfInterestCategory("MKPOICategorySpa")
  public static let stadium = MKPointOfInterestCategory("MKPOICategoryStadium")
  public static let store = MKPointOfInterestCategory("MKPOICategoryStore")
  public static let surfing = MKPointOfInterestCategory("MKPOICategorySurfing")
  public static let swimming = MKPointOfInterestCategory("MKPOICategorySwimming")
  public static let tennis = MKPointOfInterestCategory("MKPOICategoryTennis")
  public static let theater = MKPointOfInterestCategory("MKPOICategoryTheater")
  public static let university = MKPointOfInterestCategory("MKPOICategoryUniversity")
  public static let volleyball = MKPointOfInterestCategory("MKPOICategoryVolleyball")
  public static let winery = MKPointOfInterestCategory("MKPOICategoryWinery")
  public static let zoo = MKPointOfInterestCategory("MKPOICategoryZoo")
}

/// Which points of interest a search or a map includes.
public struct MKPointOfInterestFilter: Sendable {
  private let included: Set<MKPointOfInterestCategory>?
  private let excluded: Set<MKPointOfInterestCategory>

  public init(including categories: [MKPointOfInterestCategory]) {
    included = Set(categories)
    excluded = []
  }

  public init(excluding categories: [MKPointOfInterestCategory]) {
    included = nil
    excluded = Set(categories)
  }

  public static let includingAll = MKPointOfInterestFilter(excluding: [])
  public static let excludingAll = MKPointOfInterestFilter(including: [])

  public func includes(_ category: MKPointOfInterestCategory) -> Bool {
    included.map { $0.contains(category) } ?? !excluded.contains(category)
  }

  public func excludes(_ category: MKPointOfInterestCategory) -> Bool { !includes(category) }
}
