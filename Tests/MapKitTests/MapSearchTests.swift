import CoreLocation
import Foundation
@testable import MapKit
import TestSupport
import Testing

/// MapKit's places: map items, local search and iOS 26's geocoding requests, answered from the
/// placemarks a test registers (placemarks carry a word unique to each test: the registry is the
/// process's).
@Suite("MapKit: map items, local search, geocoding requests")
struct MapSearchTests {
  static let cafe = CLPlacemark(
    location: CLLocation(latitude: 60.1675, longitude: 24.9427), name: "Cafe Mkzebra", thoroughfare: "Aleksanterinkatu",
    subThoroughfare: "52", locality: "Helsinki", postalCode: "00100", isoCountryCode: "FI", country: "Finland")
  static let park = CLPlacemark(
    location: CLLocation(latitude: 60.1841, longitude: 24.9296), name: "Mkzebra Park", locality: "Helsinki", isoCountryCode: "FI",
    country: "Finland")
  static let registered: Void = LocationEmulatorGeocoding.register([cafe, park])

  @Test("LOC-MK-07: a map item from a placemark: name, address, iOS 26 address representations; Maps does not open here")
  func mapItem() {
    let item = MKMapItem(placemark: MKPlacemark(placemark: Self.cafe))
    #expect(item.name == "Cafe Mkzebra" && !item.isCurrentLocation)
    #expect(item.placemark.coordinate.latitude == 60.1675 && item.placemark.countryCode == "FI")
    #expect(item.placemark.title == "Cafe Mkzebra")
    #expect(item.address?.fullAddress == "52 Aleksanterinkatu, 00100 Helsinki, Finland")
    #expect(item.address?.shortAddress == "52 Aleksanterinkatu")
    #expect(item.addressRepresentations?.cityName == "Helsinki")
    #expect(item.addressRepresentations?.cityWithContext == "Helsinki, Finland")
    #expect(item.addressRepresentations?.fullAddress(includingRegion: false, singleLine: false) == "52 Aleksanterinkatu\n00100 Helsinki")
    #expect(!item.openInMaps())
    #expect(MKMapItem.forCurrentLocation().isCurrentLocation)
    let dictionary = MKPlacemark(
      coordinate: CLLocationCoordinate2D(latitude: 1, longitude: 2),
      addressDictionary: ["Street": "Main St 1", "City": "Town", "CountryCode": "US"])
    #expect(dictionary.thoroughfare == "Main St 1" && dictionary.locality == "Town" && dictionary.countryCode == "US")
    let made = MKMapItem(
      location: CLLocation(latitude: 1, longitude: 2), address: MKAddress(fullAddress: "1 Main St, Town", shortAddress: "1 Main St"))
    #expect(made.address?.fullAddress == "1 Main St, Town" && made.location.coordinate.longitude == 2)
    #expect(MKAddress(fullAddress: " ", shortAddress: nil) == nil)
  }

  @Test("LOC-MK-08: local search finds registered places by every word, within the region; nothing found is placemarkNotFound")
  func localSearch() async throws {
    _ = Self.registered
    let both = try await MKLocalSearch(request: MKLocalSearch.Request(naturalLanguageQuery: "mkzebra")).start()
    #expect(Set(both.mapItems.compactMap(\.name)) == ["Cafe Mkzebra", "Mkzebra Park"])
    #expect(abs(both.boundingRegion.span.latitudeDelta - (60.1841 - 60.1675)) < 1e-9)
    let near = MKCoordinateRegion(center: Self.cafe.location!.coordinate, latitudinalMeters: 500, longitudinalMeters: 500)
    let inRegion = try await MKLocalSearch(request: MKLocalSearch.Request(naturalLanguageQuery: "mkzebra", region: near)).start()
    #expect(inRegion.mapItems.map(\.name) == ["Cafe Mkzebra"])
    await #expect(throws: MKError.self) {
      _ = try await MKLocalSearch(request: MKLocalSearch.Request(naturalLanguageQuery: "mkzebra nowhere")).start()
    }
    do {
      _ = try await MKLocalSearch(request: MKLocalSearch.Request(naturalLanguageQuery: "mkzebra nowhere")).start()
    } catch let error as MKError {
      #expect(error.code == .placemarkNotFound)
    }
  }

  /// A search field's delegate, as apps write it: it keeps the completer's results.
  final class CompletionsKept: NSObject, MKLocalSearchCompleterDelegate, @unchecked Sendable {
    var updates: [[MKLocalSearchCompletion]] = []
    var next: CheckedContinuation<Void, Never>?

    func completerDidUpdateResults(_ completer: MKLocalSearchCompleter) {
      updates.append(completer.results)
      next?.resume()
      next = nil
    }
  }

  @Test("LOC-MK-11: a completer completes typed words from registered places, on the main queue; a search for a completion finds it")
  @MainActor
  func searchCompleter() async throws {
    _ = Self.registered
    let completer = MKLocalSearchCompleter()
    let delegate = CompletionsKept()
    completer.delegate = delegate
    #expect(completer.results.isEmpty && completer.resultTypes == [.address, .pointOfInterest, .query])
    func type(_ fragment: String) async -> [MKLocalSearchCompletion] {
      await withCheckedContinuation { done in
        delegate.next = done
        completer.queryFragment = fragment
      }
      return completer.results
    }
    let typed = await type("mkzeb par")
    #expect(typed.map(\.title) == ["Mkzebra Park"])
    #expect(typed.first?.subtitle == "Helsinki, Finland")
    #expect(typed.first?.titleHighlightRanges.map(\.rangeValue) == [NSRange(location: 0, length: 5), NSRange(location: 8, length: 3)])
    let both = await type("mkzebra")
    #expect(Set(both.map(\.title)) == ["Cafe Mkzebra", "Mkzebra Park"])
    let cafe = try #require(both.first { $0.title == "Cafe Mkzebra" })
    #expect(cafe.subtitle == "52 Aleksanterinkatu, Helsinki, Finland")
    #expect(await type("mkzebra nowhere").isEmpty)  // nothing matched: no results, and the delegate is told
    #expect(await type("").isEmpty)
    #expect(delegate.updates.count == 4)
    // A search for the chosen completion finds its place.
    let found = try await MKLocalSearch(request: MKLocalSearch.Request(completion: cafe)).start()
    #expect(found.mapItems.map(\.name) == ["Cafe Mkzebra"])
    // A fragment typed over one under way replaces it: only the last one's results come.
    completer.queryFragment = "mkzebra"
    let last = await type("cafe mkz")
    #expect(last.map(\.title) == ["Cafe Mkzebra"] && delegate.updates.count == 5)
  }

  @Test("LOC-MK-09: a cancelled search never calls its handler; the handler runs on the main queue")
  @MainActor  // the main queue cannot answer before the cancel
  func cancelAndMainQueue() async throws {
    _ = Self.registered
    let search = MKLocalSearch(request: MKLocalSearch.Request(naturalLanguageQuery: "cafe mkzebra"))
    search.start { _, _ in Issue.record("a cancelled search answered") }
    #expect(search.isSearching)
    search.cancel()
    #expect(!search.isSearching)
    let onMain: Bool = await withCheckedContinuation { done in
      MKLocalSearch(request: MKLocalSearch.Request(naturalLanguageQuery: "cafe mkzebra")).start { response, _ in
        done.resume(returning: isOnMainQueue && response?.mapItems.count == 1)
      }
    }
    #expect(onMain)
  }

  @Test("LOC-MK-09: a search cancelled or replaced while it runs is dropped: an awaited one throws CancellationError, never hangs")
  @MainActor  // the main queue answers after this turn: the cancel and the new start come first
  func cancelledOrReplacedSearchIsDropped() async throws {
    let run = MapSearchRun()
    let cancelled: String = await withCheckedContinuation { done in
      run.start({ .success(1) }, { _, _ in done.resume(returning: "answered") }, dropped: { done.resume(returning: "dropped") })
      run.cancel()
    }
    #expect(cancelled == "dropped" && run.isCancelled && !run.isRunning)
    // A new start replaces the one running: the first is dropped, the second answers.
    let (outcomes, outcome) = AsyncStream.makeStream(of: String.self)
    run.start({ .success(1) }, { _, _ in outcome.yield("first answered") }, dropped: { outcome.yield("first dropped") })
    run.start({ .success(2) }, { value, _ in outcome.yield("second answered \(value ?? 0)") }) {
      outcome.yield("second dropped")
    }
    var seen: [String] = []
    for await each in outcomes {
      seen.append(each)
      if seen.count == 2 { break }
    }
    #expect(seen == ["first dropped", "second answered 2"])
    // The async call ends with the dropped path's CancellationError (here its task was cancelled
    // before it started the search: it cancels itself once started).
    let task = Task { @MainActor in try await run.value { .success(3) } }
    task.cancel()
    do {
      let value = try await task.value
      // The task may have started before the cancel (the main queue's order is the runtime's):
      // then it answers; what it must never do is hang.
      #expect(value == 3)
    } catch {
      #expect(error is CancellationError)
    }
  }

  @Test("LOC-MK-10: iOS 26 geocoding requests: an address to map items, a location to the city's name")
  func geocodingRequests() async throws {
    _ = Self.registered
    let forward = try #require(MKGeocodingRequest(addressString: "Aleksanterinkatu 52 mkzebra"))
    #expect(try await forward.mapItems.first?.name == "Cafe Mkzebra")
    #expect(MKGeocodingRequest(addressString: "") == nil)
    let reverse = try #require(MKReverseGeocodingRequest(location: CLLocation(latitude: 60.1676, longitude: 24.9428)))
    #expect(try await reverse.mapItems.first?.addressRepresentations?.cityName == "Helsinki")
    #expect(MKReverseGeocodingRequest(location: CLLocation(latitude: 91, longitude: 0)) == nil)
    let far = try #require(MKReverseGeocodingRequest(location: CLLocation(latitude: -33.9, longitude: 151.2)))
    await #expect(throws: MKError.self) { _ = try await far.mapItems }
  }
}
