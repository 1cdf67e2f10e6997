import EmulatorTesting
import Foundation
import Geo
import LostPetsApp
import PetMap
import PetMapNetworking
import Testing
import ToolsTestSupport
import LocationModel

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

let warsaw = Coordinate(latitude: 52.2297, longitude: 21.0122)!

/// A point `meters` north of `c`.
func north(of c: Coordinate, _ meters: Double) -> Coordinate {
  Coordinate(latitude: c.latitude + meters / 111_195.08, longitude: c.longitude)!
}

func announcement(
  _ id: String, _ coordinate: Coordinate, _ status: AnnouncementStatus = .active, created: String = "2026-05-01T10:00:00Z"
) -> Announcement {
  Announcement(id: id, coordinate: coordinate, status: status, createdAt: ISO8601Time.parse(created)!, petName: "Pet \(id)")
}

/// The two HTTP clients of announcements: the app's (URLSession, PetMapNetworking) and
/// locemu's (libcurl loaded on first use, LostPetsApp), which must ask and read alike.
enum AnnouncementClient: String, CaseIterable, Sendable {
  case urlSession, libcurl

  /// - Parameter timeout: the client's request timeout; by default long enough that only a
  ///   hang reaches it (the server runs under ThreadSanitizer beside other tests).
  func repository(_ base: URL, timeout: TimeInterval = 600) -> any AnnouncementRepository {
    switch self {
    case .urlSession: HTTPAnnouncementRepository(baseURL: base, timeout: timeout)
    case .libcurl: LibcurlAnnouncementRepository(baseURL: base, timeout: timeout)
    }
  }
}

/// The app's HTTP announcements repository, and locemu's, against the real `locemu serve-announcements`.
@Suite struct AnnouncementServerTests {
  @Test(arguments: AnnouncementClient.allCases)
  func httpRepository_fetchesFromTheServer(client kind: AnnouncementClient) async throws {
    let list = (0..<12).map { i in
      announcement("h\(i)", north(of: warsaw, Double(i) * 1500), i == 3 ? .closed : .active, created: "2026-05-\(10 + i)T00:00:00Z")
    }
    try await withServer(list) { base in
      let client = kind.repository(base)
      let pins = try await client.announcements(for: .landingPageQuery(location: warsaw)).map(\.id)
      #expect(pins == ["h6", "h5", "h4", "h2", "h1"])
      let all = try await client.announcements(for: .defaultQuery(location: warsaw)).map(\.id)
      #expect(all == ["h11", "h10", "h9", "h8", "h7", "h6", "h5", "h4", "h2", "h1", "h0"])
      #expect(
        HTTPAnnouncementRepository(baseURL: base).url(for: .landingPageQuery(location: warsaw)).absoluteString.hasSuffix(
          "/api/v1/announcements?lat=52.2297&lng=21.0122&range=10&limit=5"))
    }
  }

  @Test(arguments: AnnouncementClient.allCases)
  func httpRepository_errorStatusIsAnError(client kind: AnnouncementClient) async throws {
    try await withServer([], failWith: 503) { base in
      await #expect(throws: AnnouncementError.httpStatus(503)) {
        try await kind.repository(base).announcements(for: .landingPageQuery(location: warsaw))
      }
    }
  }

  @Test func httpRepository_badParametersAnswer400() async throws {
    try await withServer([]) { base in
      for query in ["lat=91&lng=0", "lat=1", "lat=x&lng=1", "range=0", "range=-1", "lat=1&lng=1&limit=1.5"] {
        let url = URL(string: base.absoluteString + "/api/v1/announcements?" + query)!
        let (data, response) = try await fetch(url)
        #expect(response == 400, "\(query)")
        #expect(String(decoding: data, as: UTF8.self).contains("\"error\""))
      }
      #expect(try await fetch(URL(string: base.absoluteString + "/api/v2/nothing")!).1 == 404)
    }
  }

  @Test(arguments: AnnouncementClient.allCases)
  func httpRepository_unreachableServerIsATransportError(client kind: AnnouncementClient) async throws {
    try await withUnreachablePort { port in
      do {
        _ = try await kind.repository(URL(string: "http://127.0.0.1:\(port)")!)
          .announcements(for: .landingPageQuery(location: warsaw))
        Issue.record("nothing listens on \(port)")
      } catch let error as AnnouncementError {
        guard case .transport(let reason) = error else {
          Issue.record("\(error)")
          return
        }
        // Both clients say it in the same words.
        #expect(reason == "cannot connect to 127.0.0.1:\(port) (is the server running?)")
      }
    }
  }

  /// Cancelling the task that waits for announcements ends the request, however long the
  /// server would take: a server that accepts and never answers. The request's timeout is an
  /// hour, so only a hang reaches it; the error says which ended it, the cancellation (both
  /// clients say it alike), not the timeout ("… did not answer in time").
  @Test(arguments: AnnouncementClient.allCases)
  func httpRepository_cancellingEndsTheRequest(client kind: AnnouncementClient) async throws {
    let listener = try LoopbackListener()
    let request = Task {
      try await kind.repository(URL(string: "http://127.0.0.1:\(listener.port)")!, timeout: 3600)
        .announcements(for: .landingPageQuery(location: warsaw))
    }
    // Cancelled once the request is under way: its connection waits in the listener's queue.
    try await Self.connectionWaits(on: listener)
    request.cancel()
    await #expect(throws: AnnouncementError.transport("cancelled")) { try await request.value }
  }

  /// Waits until a connection waits on `listener` (`poll` on a thread of its own, at most
  /// `limit`: a hang guard).
  static func connectionWaits(on listener: LoopbackListener, within limit: Duration = .seconds(600)) async throws {
    let milliseconds = Int32(limit.components.seconds * 1000)
    let connected = await offPool {
      var waiting = pollfd(fd: listener.fd, events: Int16(POLLIN), revents: 0)
      return poll(&waiting, 1, milliseconds) == 1
    }
    guard connected else { throw LoopbackError(description: "the request's connection to reach the listener: not within \(limit)") }
  }
}

/// Runs `body` with a real announcements server on a free loopback port: `locemu
/// serve-announcements` (the built binary beside the test bundle) serving `announcements`.
///
/// A process of its own rather than an in-process server: under ThreadSanitizer with every
/// suite running at once, in-process servers sometimes never reported listening (2026-11-22).
func withServer(_ announcements: [Announcement], failWith status: Int? = nil, _ body: (URL) async throws -> Void) async throws {
  let file = FileManager.default.temporaryDirectory.appendingPathComponent("locemu-announcements-\(UUID().uuidString).json")
  try AnnouncementMapper.encode(announcements).write(to: file)
  defer { try? FileManager.default.removeItem(at: file) }
  var arguments = ["serve-announcements", file.path, "--listen", "127.0.0.1:0"]
  if let status { arguments += ["--fail-with", String(status)] }
  let server = try await ServerProcess.start(locemuBinary, arguments)
  defer { server.stop() }
  #expect(server.url.hasPrefix("http://127.0.0.1:"), "serve-announcements did not start")
  try await body(URL(string: server.url)!)
}

/// Status code and body of a GET (its timeout a hang guard).
func fetch(_ url: URL) async throws -> (Data, Int) {
  let (data, response) = try await URLSession.shared.data(for: URLRequest(url: url, timeoutInterval: 600))
  return (data, (response as? HTTPURLResponse)?.statusCode ?? 0)
}
