import Foundation
import Geo
import Hummingbird
import Logging
import NIOCore
public import PetMap
import LocationModel

/// The announcements backend, served from an ``AnnouncementRepository`` (usually a
/// ``FileAnnouncementRepository``) over HTTP/1.1 with Hummingbird.
///
/// `GET /api/v1/announcements?lat=X&lng=Y&range=KM[&limit=N]` answers 200 with the
/// announcements object (newest first, within `range` km of `lat`,`lng`, at most `limit`);
/// without `lat`/`lng`, all of them. Bad parameters answer 400 with `{"error": "…"}`; other
/// paths 404. For tests of the client's error paths, ``Behaviour`` can delay every answer or
/// replace it by an error status.
/// Why the server could not run, in the operating system's words ("Address already in use").
public struct AnnouncementServerError: Error, CustomStringConvertible, Sendable {
  public var description: String
}

public struct AnnouncementServer: Sendable {
  /// How the server misbehaves on purpose.
  public struct Behaviour: Sendable, Hashable {
    /// Added before every answer.
    public var delay: Duration
    /// When set, every announcements request is answered with this status and an error body.
    public var failureStatus: Int?

    public init(delay: Duration = .zero, failureStatus: Int? = nil) {
      self.delay = delay
      self.failureStatus = failureStatus
    }
  }

  public var repository: any AnnouncementRepository
  public var host: String
  /// 0: any free port (see ``run(onListening:)``).
  public var port: Int
  public var behaviour: Behaviour

  public init(repository: any AnnouncementRepository, host: String = "127.0.0.1", port: Int = 0, behaviour: Behaviour = Behaviour()) {
    self.repository = repository
    self.host = host
    self.port = port
    self.behaviour = behaviour
  }

  /// Serves until the calling task is cancelled.
  /// - Parameter onListening: called once with the port the server listens on.
  /// - Throws: when the address cannot be bound.
  public func run(onListening: @escaping @Sendable (Int) -> Void = { _ in }) async throws {
    let router = Router()
    let repository = self.repository, behaviour = self.behaviour
    router.get("api/v1/announcements") { request, _ -> Response in
      if behaviour.delay > .zero { try await Task.sleep(for: behaviour.delay) }
      if let status = behaviour.failureStatus {
        return Self.json(["error": "failure requested by the server's configuration"], status: .init(code: status))
      }
      let query: AnnouncementListQuery
      var parameters: [String: String] = [:]
      for (key, value) in request.uri.queryParameters where parameters[String(key)] == nil {
        parameters[String(key)] = String(value)
      }
      switch Self.query(from: parameters) {
      case .success(let q): query = q
      case .failure(let problem): return Self.json(["error": problem.message], status: .badRequest)
      }
      do {
        let found = try await repository.announcements(for: query)
        return Response(
          status: .ok, headers: [.contentType: "application/json"],
          body: ResponseBody(byteBuffer: ByteBuffer(bytes: AnnouncementMapper.encode(found))))
      } catch {
        return Self.json(["error": String(describing: error)], status: .internalServerError)
      }
    }
    var logger = Logger(label: "locemu.serve-announcements")
    logger.logLevel = .critical
    let app = Application(
      router: router, configuration: .init(address: .hostname(host, port: port), serverName: "locemu"),
      onServerRunning: { channel in onListening(channel.localAddress?.port ?? 0) }, logger: logger)
    do {
      try await app.run()
    } catch let error as IOError {
      // NIO's own text is "bind(descriptor:ptr:bytes:): Address already in use) (errno: 98)".
      throw AnnouncementServerError(description: String(cString: strerror(error.errnoCode)))
    }
  }

  struct Problem: Error { var message: String }

  /// The query of `GET /api/v1/announcements`'s parameters.
  static func query(from parameters: [String: String]) -> Result<AnnouncementListQuery, Problem> {
    func number(_ name: String) -> Result<Double?, Problem> {
      guard let text = parameters[name] else { return .success(nil) }
      guard let value = Double(text), value.isFinite else { return .failure(Problem(message: "\(name) must be a number, got '\(text)'")) }
      return .success(value)
    }
    do {
      let lat = try number("lat").get(), lng = try number("lng").get()
      let range = try number("range").get() ?? 10
      let limit = try number("limit").get()
      guard (lat == nil) == (lng == nil) else { return .failure(Problem(message: "give both lat and lng, or neither")) }
      var location: Coordinate?
      if let lat, let lng {
        guard let c = Coordinate(latitude: lat, longitude: lng) else {
          return .failure(Problem(message: "lat must be within -90…90 and lng within -180…180"))
        }
        location = c
      }
      guard range > 0, range <= 20_037 else { return .failure(Problem(message: "range must be above 0 and at most 20037 km")) }
      if let limit, limit < 0 || limit != limit.rounded() { return .failure(Problem(message: "limit must be a whole number ≥ 0")) }
      return .success(
        AnnouncementListQuery(limit: limit.map { Int($0) }, location: location, range: Int(range.rounded(.up))))
    } catch let problem {
      return .failure(problem)
    }
  }

  private static func json(_ object: [String: String], status: HTTPResponse.Status) -> Response {
    let body = "{" + object.map { "\(JSONText.quoted($0.key)):\(JSONText.quoted($0.value))" }.joined(separator: ",") + "}\n"
    return Response(status: status, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
  }
}
