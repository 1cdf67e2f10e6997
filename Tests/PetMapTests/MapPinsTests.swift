import Foundation
import Geo
import PetMap
import Testing
import LocationModel

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The pins data model (ios-map-pins.data-model.md): queries, mapper, repositories, pins on the preview.
@Suite struct MapPinsTests {
  @Test func pins_landingPageQueryIsFiveNewestWithin10km() {
    let q = AnnouncementListQuery.landingPageQuery(location: warsaw)
    #expect(q.limit == 5)
    #expect(q.sortBy == .createdAtDescending)
    #expect(q.location == warsaw)
    #expect(q.range == 10)
  }

  @Test func pins_defaultQueryIsUnlimitedWithin100km() {
    let q = AnnouncementListQuery.defaultQuery(location: nil)
    #expect(q.limit == nil)
    #expect(q.range == 100)
    #expect(q.sortBy == .createdAtDescending)
  }

  @Test func pins_FR014_onlyActiveAndFoundArePinEligible() {
    #expect(AnnouncementStatus.active.isPinEligible)
    #expect(AnnouncementStatus.found.isPinEligible)
    #expect(!AnnouncementStatus.closed.isPinEligible)
    #expect(PinModel(announcement("c", warsaw, .closed)) == nil)
    #expect(AnnouncementStatus(backend: "MISSING") == .active)
  }

  @Test func pins_pinModelsAreComparedById() {
    let a = PinModel(id: "x", coordinate: warsaw, status: .active)
    let b = PinModel(id: "x", coordinate: krakow, status: .found)
    #expect(a == b)
    #expect(MapPreviewState.map(region: warsaw.mapRegion(), pins: [a]) == .map(region: warsaw.mapRegion(), pins: [b]))
    #expect(a != PinModel(id: "y", coordinate: warsaw, status: .active))
  }

  @Test func pins_mapperDropsBadCoordinatesClosedAndMalformedRecords() throws {
    let json = """
      {"announcements": [
        {"id": "ok", "latitude": 52.1, "longitude": 21.0, "status": "ACTIVE", "createdAt": "2026-01-01T00:00:00Z", "extra": [1,2]},
        {"id": "missing", "latitude": 52.1, "longitude": 21.0, "status": "MISSING", "createdAt": "2026-01-01T00:00:00.500+01:00"},
        {"id": "lat", "latitude": 91, "longitude": 21.0, "status": "ACTIVE", "createdAt": "2026-01-01T00:00:00Z"},
        {"id": "lon", "latitude": 52, "longitude": -180.5, "status": "FOUND", "createdAt": "2026-01-01T00:00:00Z"},
        {"id": "nolat", "longitude": 21.0, "status": "FOUND", "createdAt": "2026-01-01T00:00:00Z"},
        {"id": "bool", "latitude": true, "longitude": 21.0, "status": "FOUND", "createdAt": "2026-01-01T00:00:00Z"},
        {"id": "closed", "latitude": 52.1, "longitude": 21.0, "status": "CLOSED", "createdAt": "2026-01-01T00:00:00Z"},
        {"id": "status", "latitude": 52.1, "longitude": 21.0, "status": "ADOPTED", "createdAt": "2026-01-01T00:00:00Z"},
        {"id": "time", "latitude": 52.1, "longitude": 21.0, "status": "FOUND", "createdAt": "yesterday"},
        {"latitude": 52.1, "longitude": 21.0, "status": "FOUND", "createdAt": "2026-01-01T00:00:00Z"},
        "not an object"
      ]}
      """
    let (announcements, dropped) = try AnnouncementMapper.decode(Data(json.utf8))
    #expect(announcements.map(\.id) == ["ok", "missing"])
    #expect(announcements[1].status == .active)
    #expect(announcements[1].createdAt == date("2025-12-31T23:00:00.5Z"))
    #expect(dropped.invalidCoordinate == 4)
    #expect(dropped.closed == 1)
    #expect(dropped.malformed == 4)
  }

  /// Duplicate ids gave duplicate pins (`pinIds=["ok1","42","ok1"]`): one pin per id, the first record kept.
  @Test func pins_aDuplicateIdIsDroppedAndCounted() throws {
    let json = """
      {"announcements": [
        {"id": "ok1", "latitude": 52.1, "longitude": 21.0, "status": "ACTIVE", "createdAt": "2026-01-02T00:00:00Z"},
        {"id": 42, "latitude": 52.2, "longitude": 21.0, "status": "ACTIVE", "createdAt": "2026-01-01T00:00:00Z"},
        {"id": "ok1", "latitude": 52.3, "longitude": 21.0, "status": "FOUND", "createdAt": "2026-01-03T00:00:00Z"},
        {"id": "42", "latitude": 52.4, "longitude": 21.0, "status": "FOUND", "createdAt": "2026-01-03T00:00:00Z"}
      ]}
      """
    let (announcements, dropped) = try AnnouncementMapper.decode(Data(json.utf8))
    #expect(announcements.map(\.id) == ["ok1", "42"])
    #expect(announcements[0].coordinate.latitude == 52.1)
    #expect(dropped.duplicate == 2)
    #expect(dropped.description == "dropped 0 closed, 0 with a bad coordinate, 0 malformed, 2 with a duplicate id")
  }

  @Test(arguments: ["", "[]", "{\"items\": []}", "{\"announcements\": {}}", "{\"announcements\": [", "\u{0}\u{1}"])
  func pins_mapperRejectsADocumentThatIsNotAnnouncements(text: String) {
    #expect(throws: AnnouncementError.self) { try AnnouncementMapper.decode(Data(text.utf8)) }
  }

  @Test func pins_encodedAnnouncementsReadBackEqual() throws {
    let list = [
      Announcement(
        id: "q\"1", coordinate: warsaw, status: .found, createdAt: date("2026-05-01T10:00:00.250Z"), petName: "Zażółć",
        species: "CAT", description: "line\nbreak"),
      announcement("q2", krakow),
    ]
    let back = try AnnouncementMapper.decode(AnnouncementMapper.encode(list)).announcements
    #expect(back == list)
  }

  /// The table "Pin Count Scenarios" of the data model.
  @Test func pins_pinCountScenarios() async {
    // 5 announcements: 3 active, 1 found, 1 closed → 4 pins.
    let five = [
      announcement("a1", north(of: warsaw, 100), .active, created: "2026-05-05T00:00:00Z"),
      announcement("a2", north(of: warsaw, 200), .active, created: "2026-05-04T00:00:00Z"),
      announcement("a3", north(of: warsaw, 300), .active, created: "2026-05-03T00:00:00Z"),
      announcement("f1", north(of: warsaw, 400), .found, created: "2026-05-02T00:00:00Z"),
      announcement("c1", north(of: warsaw, 500), .closed, created: "2026-05-06T00:00:00Z"),
    ]
    #expect(await pins(RecordingRepository(five)) == ["a1", "a2", "a3", "f1"])
    // No announcements within 10 km → an empty map.
    #expect(await pins(RecordingRepository([announcement("far", krakow)])) == [])
    // All closed → an empty map.
    #expect(await pins(RecordingRepository([announcement("c", warsaw, .closed)])) == [])
    // Overlapping coordinates → one pin each.
    #expect(await pins(RecordingRepository([announcement("o1", warsaw), announcement("o2", warsaw)])).count == 2)
  }

  @Test func pins_FR006_backendErrorGivesTheMapWithNoPins() async throws {
    let h = PreviewHarness(repository: FailingRepository())
    #expect(try await h.startLoaded())
    #expect(h.state.pins.isEmpty)
    #expect(h.logs.all.contains { $0.contains("announcements unavailable") })
  }

  @Test func pins_previewAsksTheLandingPageQueryAtTheCapturedLocation() async throws {
    let repository = RecordingRepository([])
    let h = PreviewHarness(repository: repository)
    #expect(try await h.startLoaded(at: krakow))
    #expect(repository.queries.all == [.landingPageQuery(location: krakow)])
  }

  @Test func pins_onlyTheFiveNewestWithin10kmArePinned() async {
    var list = (0..<8).map { i in
      announcement("n\(i)", north(of: warsaw, Double(i) * 1000), created: "2026-05-0\(i + 1)T00:00:00Z")
    }
    list.append(announcement("outside", north(of: warsaw, 10_500), created: "2026-06-01T00:00:00Z"))
    #expect(await pins(FileAnnouncementRepository(list)) == ["n7", "n6", "n5", "n4", "n3"])
  }

  private func pins(_ repository: any AnnouncementRepository) async -> [String] {
    let h = PreviewHarness(repository: repository)
    guard (try? await h.startLoaded()) == true else { return ["<not loaded>"] }
    return h.state.pins.map(\.id)
  }

  // MARK: - The file-backed repository

  @Test func fileRepository_indexAnswersLikeAFullScan() async throws {
    var generator = SeededRandom(seed: 7)
    let centers = [warsaw, krakow, Coordinate(latitude: 0.05, longitude: 179.97)!, Coordinate(latitude: 89.9, longitude: 10)!]
    var list: [Announcement] = []
    for i in 0..<4000 {
      let c = centers[i % centers.count]
      let lat = max(-90, min(90, c.latitude + generator.uniform(-0.3, 0.3)))
      var lon = c.longitude + generator.uniform(-0.5, 0.5)
      if lon > 180 { lon -= 360 }
      let status: AnnouncementStatus = i % 7 == 0 ? .closed : (i % 3 == 0 ? .found : .active)
      list.append(
        Announcement(
          id: "r\(i)", coordinate: Coordinate(latitude: lat, longitude: lon)!, status: status,
          createdAt: Date(timeIntervalSince1970: 1_700_000_000 + Double(generator.next() % 1_000_000))))
    }
    let repository = FileAnnouncementRepository(list)
    for center in centers {
      for range in [1, 10, 30, 100] {
        for limit in [5, nil] as [Int?] {
          let query = AnnouncementListQuery(limit: limit, location: center, range: range)
          let expected = query.ordered(list.filter { $0.status != .closed && query.covers($0) })
          #expect(try await repository.announcements(for: query) == expected, "\(center) \(range) km limit \(String(describing: limit))")
        }
      }
    }
    // The index reads a small part for a small circle.
    #expect(repository.candidateCount(around: warsaw, radius: 10_000) < list.count / 4)
  }

  @Test func fileRepository_readsTheBundledFile() throws {
    let repository = try FileAnnouncementRepository(contentsOf: repositoryRoot.appendingPathComponent("traces/announcements.json").path)
    #expect(repository.all.count == 9)
    #expect(repository.dropped.closed == 1)
    #expect(repository.dropped.invalidCoordinate == 1)
    let pins = repository.search(.landingPageQuery(location: Coordinate(latitude: 52.2476, longitude: 21.0137)!)).map(\.id)
    #expect(pins == ["a-101", "a-102", "a-103", "a-104", "a-106"])
  }

  @Test func fileRepository_missingFileIsAClearError() {
    #expect(throws: AnnouncementError.unreadable(path: "/nonexistent/a.json", reason: "no such file")) {
      try FileAnnouncementRepository(contentsOf: "/nonexistent/a.json")
    }
  }

}
