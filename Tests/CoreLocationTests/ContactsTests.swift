import Contacts
import CoreLocation
import Foundation
import Testing

/// Postal addresses, as location code writes and geocodes them (the opt-in Contacts product).
@Suite("Contacts: postal addresses beside CoreLocation")
struct ContactsTests {
  static let office = CLPlacemark(
    location: CLLocation(latitude: 60.1675, longitude: 24.9427), name: "Cafe Cnzebra", thoroughfare: "Aleksanterinkatu",
    subThoroughfare: "52", locality: "Helsinki", postalCode: "00100", isoCountryCode: "FI", country: "Finland")

  @Test("LOC-CN-01: a placemark's postal address, written in its country's order; a US address keeps city, state and ZIP on one line")
  func postalAddressAndFormatter() throws {
    let address = try #require(Self.office.postalAddress)
    #expect(address.street == "52 Aleksanterinkatu" && address.city == "Helsinki" && address.isoCountryCode == "FI")
    #expect(CNPostalAddressFormatter.string(from: address, style: .mailingAddress) == "52 Aleksanterinkatu\n00100 Helsinki\nFinland")
    let us = CNMutablePostalAddress()
    us.street = "1 Infinite Loop"
    us.city = "Cupertino"
    us.state = "CA"
    us.postalCode = "95014"
    us.isoCountryCode = "us"
    us.country = "United States"
    let formatter = CNPostalAddressFormatter()
    #expect(formatter.string(from: us) == "1 Infinite Loop\nCupertino CA 95014\nUnited States")
    let frozen = try #require(us.copy() as? CNPostalAddress)
    #expect(frozen == us && !(frozen is CNMutablePostalAddress))
    let again = try #require(frozen.mutableCopy() as? CNMutablePostalAddress)
    again.city = "Palo Alto"
    #expect(frozen.city == "Cupertino" && again != frozen)
    #expect(CNPostalAddress.localizedString(forKey: CNPostalAddressCityKey) == "City")
    #expect(CLPlacemark(location: CLLocation(latitude: 0, longitude: 0), name: nil).postalAddress == nil)
  }

  @Test("LOC-CN-02: geocoding a postal address finds the registered place")
  func geocodePostalAddress() async throws {
    // The registry is the process's: an address of its own, so other tests' places do not match.
    let place = CLPlacemark(
      location: CLLocation(latitude: 60.19, longitude: 24.95), name: "Cnzebra Office", thoroughfare: "Cnzebrankatu",
      subThoroughfare: "7", locality: "Helsinki", postalCode: "00510", isoCountryCode: "FI", country: "Finland")
    LocationEmulatorGeocoding.register([place])
    let address = CNMutablePostalAddress()
    address.street = "7 Cnzebrankatu"
    address.city = "Helsinki"
    let found = try await CLGeocoder().geocodePostalAddress(address)
    #expect(found.map(\.name) == ["Cnzebra Office"])
  }
}
