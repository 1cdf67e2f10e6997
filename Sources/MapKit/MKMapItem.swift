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

  /// Decodes a placemark: its name, locality and country, as `CLPlacemark` does.
  ///
  /// - Parameter coder: The archive to read from.
  public required init?(coder: NSCoder) {
    country2 = nil
    super.init(coder: coder)
  }

  /// Where the placemark is, as an annotation; `kCLLocationCoordinate2DInvalid` without a location.
  public var coordinate: CLLocationCoordinate2D { location?.coordinate ?? kCLLocationCoordinate2DInvalid }
  /// The placemark's name, as a pin's title.
  open var title: String? { name }
  /// Nil: a placemark's pin has no subtitle.
  open var subtitle: String? { nil }
  /// The ISO country code.
  open var countryCode: String? { country2 ?? isoCountryCode }
}

/// An address as iOS 26's MapKit gives it: the full text and a short form.
public final class MKAddress: NSObject, @unchecked Sendable {
  /// The whole address, as text.
  public let fullAddress: String
  /// A short form of the address, such as the street; nil when not known.
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
    /// The context that suits the address: here, as `full`.
    case automatic
    /// Little context: the state, or the country's code.
    case short
    /// More context: the state, or the country's name.
    case full
  }

  private let placemark: CLPlacemark

  init(_ placemark: CLPlacemark) { self.placemark = placemark }

  /// The city.
  public var cityName: String? { placemark.locality }
  /// The country's name.
  public var regionName: String? { placemark.country }
  /// The country's ISO code.
  public var regionCode: String? { placemark.isoCountryCode }
  /// The city with its state or country (automatic context).
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
  /// The place's placemark: its location and address.
  open private(set) var placemark: MKPlacemark
  /// Whether the item stands for the device's location (`forCurrentLocation()`).
  open private(set) var isCurrentLocation: Bool
  /// The place's name; the placemark's name at first.
  open var name: String?
  /// The place's phone number; nil unless set.
  open var phoneNumber: String?
  /// The place's website; nil unless set.
  open var url: URL?
  /// The place's time zone; the placemark's at first.
  open var timeZone: TimeZone?
  /// The kind of point of interest the place is; nil unless set.
  open var pointOfInterestCategory: MKPointOfInterestCategory?

  /// A map item for `placemark`, with its name and time zone.
  ///
  /// - Parameter placemark: The place's placemark.
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
  /// The raw value: Apple's category name.
  public let rawValue: String
  /// Creates a category from its raw value.
  ///
  /// - Parameter rawValue: Apple's category name.
  public init(rawValue: String) { self.rawValue = rawValue }
  /// Creates a category from its raw value.
  ///
  /// - Parameter rawValue: Apple's category name.
  public init(_ rawValue: String) { self.rawValue = rawValue }

  /// Airports.
  public static let airport = MKPointOfInterestCategory("MKPOICategoryAirport")
  /// Amusement parks.
  public static let amusementPark = MKPointOfInterestCategory("MKPOICategoryAmusementPark")
  /// Animal services, such as vets and pet shops.
  public static let animalService = MKPointOfInterestCategory("MKPOICategoryAnimalService")
  /// Aquariums.
  public static let aquarium = MKPointOfInterestCategory("MKPOICategoryAquarium")
  /// Cash machines.
  public static let atm = MKPointOfInterestCategory("MKPOICategoryATM")
  /// Car repair shops.
  public static let automotiveRepair = MKPointOfInterestCategory("MKPOICategoryAutomotiveRepair")
  /// Bakeries.
  public static let bakery = MKPointOfInterestCategory("MKPOICategoryBakery")
  /// Banks.
  public static let bank = MKPointOfInterestCategory("MKPOICategoryBank")
  /// Baseball fields.
  public static let baseball = MKPointOfInterestCategory("MKPOICategoryBaseball")
  /// Basketball courts.
  public static let basketball = MKPointOfInterestCategory("MKPOICategoryBasketball")
  /// Beaches.
  public static let beach = MKPointOfInterestCategory("MKPOICategoryBeach")
  /// Beauty salons and barbers.
  public static let beauty = MKPointOfInterestCategory("MKPOICategoryBeauty")
  /// Bowling alleys.
  public static let bowling = MKPointOfInterestCategory("MKPOICategoryBowling")
  /// Breweries.
  public static let brewery = MKPointOfInterestCategory("MKPOICategoryBrewery")
  /// Cafés.
  public static let cafe = MKPointOfInterestCategory("MKPOICategoryCafe")
  /// Campgrounds.
  public static let campground = MKPointOfInterestCategory("MKPOICategoryCampground")
  /// Car rentals.
  public static let carRental = MKPointOfInterestCategory("MKPOICategoryCarRental")
  /// Castles.
  public static let castle = MKPointOfInterestCategory("MKPOICategoryCastle")
  /// Convention centres.
  public static let conventionCenter = MKPointOfInterestCategory("MKPOICategoryConventionCenter")
  /// Distilleries.
  public static let distillery = MKPointOfInterestCategory("MKPOICategoryDistillery")
  /// Electric vehicle chargers.
  public static let evCharger = MKPointOfInterestCategory("MKPOICategoryEVCharger")
  /// Fairgrounds.
  public static let fairground = MKPointOfInterestCategory("MKPOICategoryFairground")
  /// Fire stations.
  public static let fireStation = MKPointOfInterestCategory("MKPOICategoryFireStation")
  /// Fishing spots.
  public static let fishing = MKPointOfInterestCategory("MKPOICategoryFishing")
  /// Gyms and fitness centres.
  public static let fitnessCenter = MKPointOfInterestCategory("MKPOICategoryFitnessCenter")
  /// Food markets and grocery stores.
  public static let foodMarket = MKPointOfInterestCategory("MKPOICategoryFoodMarket")
  /// Fortresses.
  public static let fortress = MKPointOfInterestCategory("MKPOICategoryFortress")
  /// Petrol stations.
  public static let gasStation = MKPointOfInterestCategory("MKPOICategoryGasStation")
  /// Go-kart tracks.
  public static let goKart = MKPointOfInterestCategory("MKPOICategoryGoKart")
  /// Golf courses.
  public static let golf = MKPointOfInterestCategory("MKPOICategoryGolf")
  /// Hiking trails.
  public static let hiking = MKPointOfInterestCategory("MKPOICategoryHiking")
  /// Hospitals.
  public static let hospital = MKPointOfInterestCategory("MKPOICategoryHospital")
  /// Hotels.
  public static let hotel = MKPointOfInterestCategory("MKPOICategoryHotel")
  /// Kayaking spots.
  public static let kayaking = MKPointOfInterestCategory("MKPOICategoryKayaking")
  /// Landmarks.
  public static let landmark = MKPointOfInterestCategory("MKPOICategoryLandmark")
  /// Laundries.
  public static let laundry = MKPointOfInterestCategory("MKPOICategoryLaundry")
  /// Libraries.
  public static let library = MKPointOfInterestCategory("MKPOICategoryLibrary")
  /// Mailboxes.
  public static let mailbox = MKPointOfInterestCategory("MKPOICategoryMailbox")
  /// Marinas.
  public static let marina = MKPointOfInterestCategory("MKPOICategoryMarina")
  /// Mini golf courses.
  public static let miniGolf = MKPointOfInterestCategory("MKPOICategoryMiniGolf")
  /// Cinemas.
  public static let movieTheater = MKPointOfInterestCategory("MKPOICategoryMovieTheater")
  /// Museums.
  public static let museum = MKPointOfInterestCategory("MKPOICategoryMuseum")
  /// Music venues.
  public static let musicVenue = MKPointOfInterestCategory("MKPOICategoryMusicVenue")
  /// National monuments.
  public static let nationalMonument = MKPointOfInterestCategory("MKPOICategoryNationalMonument")
  /// National parks.
  public static let nationalPark = MKPointOfInterestCategory("MKPOICategoryNationalPark")
  /// Bars and nightclubs.
  public static let nightlife = MKPointOfInterestCategory("MKPOICategoryNightlife")
  /// Parks.
  public static let park = MKPointOfInterestCategory("MKPOICategoryPark")
  /// Car parks.
  public static let parking = MKPointOfInterestCategory("MKPOICategoryParking")
  /// Pharmacies.
  public static let pharmacy = MKPointOfInterestCategory("MKPOICategoryPharmacy")
  /// Planetariums.
  public static let planetarium = MKPointOfInterestCategory("MKPOICategoryPlanetarium")
  /// Police stations.
  public static let police = MKPointOfInterestCategory("MKPOICategoryPolice")
  /// Post offices.
  public static let postOffice = MKPointOfInterestCategory("MKPOICategoryPostOffice")
  /// Public transport stations and stops.
  public static let publicTransport = MKPointOfInterestCategory("MKPOICategoryPublicTransport")
  /// Restaurants.
  public static let restaurant = MKPointOfInterestCategory("MKPOICategoryRestaurant")
  /// Public toilets.
  public static let restroom = MKPointOfInterestCategory("MKPOICategoryRestroom")
  /// Climbing spots and gyms.
  public static let rockClimbing = MKPointOfInterestCategory("MKPOICategoryRockClimbing")
  /// RV parks.
  public static let rvPark = MKPointOfInterestCategory("MKPOICategoryRVPark")
  /// Schools.
  public static let school = MKPointOfInterestCategory("MKPOICategorySchool")
  /// Skate parks.
  public static let skatePark = MKPointOfInterestCategory("MKPOICategorySkatePark")
  /// Skating rinks.
  public static let skating = MKPointOfInterestCategory("MKPOICategorySkating")
  /// Ski areas.
  public static let skiing = MKPointOfInterestCategory("MKPOICategorySkiing")
  /// Football pitches.
  public static let soccer = MKPointOfInterestCategory("MKPOICategorySoccer")
  /// Spas.
  public static let spa = MKPointOfInterestCategory("MKPOICategorySpa")
  /// Stadiums.
  public static let stadium = MKPointOfInterestCategory("MKPOICategoryStadium")
  /// Shops.
  public static let store = MKPointOfInterestCategory("MKPOICategoryStore")
  /// Surf spots.
  public static let surfing = MKPointOfInterestCategory("MKPOICategorySurfing")
  /// Swimming pools.
  public static let swimming = MKPointOfInterestCategory("MKPOICategorySwimming")
  /// Tennis courts.
  public static let tennis = MKPointOfInterestCategory("MKPOICategoryTennis")
  /// Theatres.
  public static let theater = MKPointOfInterestCategory("MKPOICategoryTheater")
  /// Universities.
  public static let university = MKPointOfInterestCategory("MKPOICategoryUniversity")
  /// Volleyball courts.
  public static let volleyball = MKPointOfInterestCategory("MKPOICategoryVolleyball")
  /// Wineries.
  public static let winery = MKPointOfInterestCategory("MKPOICategoryWinery")
  /// Zoos.
  public static let zoo = MKPointOfInterestCategory("MKPOICategoryZoo")
}

/// Which points of interest a search or a map includes.
public struct MKPointOfInterestFilter: Sendable {
  private let included: Set<MKPointOfInterestCategory>?
  private let excluded: Set<MKPointOfInterestCategory>

  /// A filter that includes only `categories`.
  ///
  /// - Parameter categories: The categories to include.
  public init(including categories: [MKPointOfInterestCategory]) {
    included = Set(categories)
    excluded = []
  }

  /// A filter that includes every category but `categories`.
  ///
  /// - Parameter categories: The categories to exclude.
  public init(excluding categories: [MKPointOfInterestCategory]) {
    included = nil
    excluded = Set(categories)
  }

  /// The filter that includes every category.
  public static let includingAll = MKPointOfInterestFilter(excluding: [])
  /// The filter that includes no category.
  public static let excludingAll = MKPointOfInterestFilter(including: [])

  /// Whether the filter includes `category`.
  ///
  /// - Parameter category: The category to test.
  /// - Returns: Whether points of interest of that category are included.
  public func includes(_ category: MKPointOfInterestCategory) -> Bool {
    included.map { $0.contains(category) } ?? !excluded.contains(category)
  }

  /// Whether the filter excludes `category`.
  ///
  /// - Parameter category: The category to test.
  /// - Returns: Whether points of interest of that category are excluded.
  public func excludes(_ category: MKPointOfInterestCategory) -> Bool { !includes(category) }
}
