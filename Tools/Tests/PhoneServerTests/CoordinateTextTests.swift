import Geo
import LocationModel
import PhoneServer
import Testing

/// The map page's search reads coordinates as people type and paste them (issue 32 item 5).
@Suite("CoordinateText: coordinates typed in any common form")
struct CoordinateTextTests {
  @Test(arguments: [
    ("60.1699, 24.9384", 60.1699, 24.9384), ("60.1699 24.9384", 60.1699, 24.9384), ("-33.8688,151.2093", -33.8688, 151.2093),
    ("-22.9068 -43.1729", -22.9068, -43.1729), ("60.1699N 24.9384E", 60.1699, 24.9384), ("S 33.8688 E 151.2093", -33.8688, 151.2093),
    ("151.2093 E, 33.8688 S", -33.8688, 151.2093), ("60°10.194'N 24°56.304'E", 60.1699, 24.9384),
    ("60 10 11.64 N 24 56 18.24 E", 60.1699, 24.9384), ("33°52′7.68″S 151°12′33.48″E", -33.8688, 151.2093),
    ("40.7128° N, 74.0060° W", 40.7128, -74.0060), ("  +48.8566 ; +2.3522 ", 48.8566, 2.3522), ("60 10.194 24 56.304", 60.1699, 24.9384),
  ])
  func readsTheCommonForms(text: String, lat: Double, lon: Double) throws {
    let c = try #require(CoordinateText.parse(text), "\(text)")
    #expect(abs(c.latitude - lat) < 1e-6 && abs(c.longitude - lon) < 1e-6, "\(text): \(c)")
  }

  @Test(arguments: [
    "Helsinki", "Kaartinkaupunki 60", "91, 0", "0, 181", "60 61 N 24 E", "60.5 10 N 24 E", "1 2 3", "60.1699", "", "N E",
    "60.1699N 24.9384N", "-60 N 24 E", "60,1699",
  ])
  func refusesWhatIsNotACoordinate(text: String) {
    #expect(CoordinateText.parse(text) == nil, "\(text)")
  }
}
