import Emulator
import Foundation
import GNSSReceiver
import Geo
import Hummingbird
import LocationEmulatorClient
import Logging
import NIOCore
import PermissionHandling
import Scenarios
import MapRendering
import Basemap
import Traces
import ServiceLifecycle
import UnixSignals
import NIOPosix
import LocationModel

#if canImport(Glibc)
  import Glibc
#endif

// What the routes share: reading and checking requests, making responses, the phone asked for.
extension PhoneServer {
  // MARK: Helpers

  /// The phone's position on the preview's map (16:9, `radius` around it, the circle the
  /// preview draws); a map of nothing that says so while the phone has no fix.
  static func map(of phone: EmulatedPhone, radius: Double, basemaps: [Basemap]) -> String {
    guard let fix = phone.latestFix, fix.hasFix, let location = fix.coordinate, !phone.isFixLost else {
      return """
        <svg xmlns="http://www.w3.org/2000/svg" width="640" height="360" viewBox="0 0 640 360">\
        <rect width="640" height="360" fill="#e8e8e8"/><text x="320" y="185" text-anchor="middle" \
        font-family="sans-serif" font-size="18" fill="#666">No location</text></svg>
        """
    }
    let request = MapSnapshotRequest(
      region: location.mapRegion(radiusMeters: radius).fitted(aspectRatio: 16.0 / 9.0), userLocation: location)
    return (try? SVGMapSnapshotter(layers: basemaps, radiusMeters: radius).render(request).svg) ?? ""
  }

  enum APIError: Error {
    case bad(String), notFound(String), conflict(String), busy(String)
    /// The server's own failure (a basemap it cannot read).
    case failed(String)
    /// A body over `limit` bytes.
    case tooLarge(Int)
    /// A trace refused with its own status and message.
    case trace(TraceIntakeError)
    /// A body that did not arrive within the time.
    case timeout(Duration)

    var status: HTTPResponse.Status {
      switch self {
      case .bad: .badRequest
      case .notFound: .notFound
      case .conflict: .conflict
      case .busy: .tooManyRequests
      case .tooLarge: .contentTooLarge
      case .trace(let error): HTTPResponse.Status(code: error.status)
      case .timeout: .requestTimeout
      case .failed: .internalServerError
      }
    }

    var message: String {
      switch self {
      case .bad(let m), .notFound(let m), .conflict(let m), .busy(let m), .failed(let m): m
      case .tooLarge(let limit): "the body is over this server's limit of \(limit) bytes"
      case .trace(let error): error.message
      case .timeout(let limit): "the body did not arrive within \(limit.seconds) s"
      }
    }
  }

  /// What `GET /places?q=` answers: a coordinate typed in (``CoordinateText``) first, then the
  /// basemaps' named places, stations, water, parks and streets whose names hold the text.
  static func places(_ text: String, limit: Int, basemaps: [Basemap]) throws -> [Wire.Place] {
    var places: [Wire.Place] = []
    if let c = CoordinateText.parse(text) {
      let name = String(format: "%.6f, %.6f", c.latitude, c.longitude)
      places.append(Wire.Place(name: name, kind: "coordinate", lat: c.latitude, lon: c.longitude))
    }
    var seen = Set<String>()
    for basemap in basemaps.reversed() where basemap.shoreline == nil {
      for place in try basemap.search(text, limit: limit) where places.count < limit {
        guard seen.insert("\(place.name)|\(place.kindName)").inserted else { continue }
        places.append(
          Wire.Place(name: place.name, kind: place.kindName, lat: place.coordinate.latitude, lon: place.coordinate.longitude))
      }
    }
    return places
  }

  /// `body` (reading the basemaps: blocking) on the blocking-I/O pool, off the event loop.
  /// - Throws: ``APIError`` 429 when the server is stopping, 500 with `body`'s error (after
  ///   `what`, when given) when it fails.
  static func offLoop<T: Sendable>(_ what: String?, _ body: @escaping @Sendable () throws -> T) async throws -> T {
    let result: Result<T, any Error>
    do {
      result = try await NIOThreadPool.singleton.runIfActive { Result { try body() } }
    } catch {
      throw APIError.busy("the server is stopping")
    }
    switch result {
    case .success(let value): return value
    case .failure(let error): throw APIError.failed(what.map { "\($0): \(error)" } ?? "\(error)")
    }
  }

  /// Runs `body`; API errors become their status with `{"error": …}`.
  static func guarded(_ body: () async throws -> Response) async throws -> Response {
    do {
      return try await body()
    } catch let error as APIError {
      return errorResponse(error)
    }
  }

  /// Whether the request says its body is JSON (`Content-Type: application/json`).
  static func isJSON(_ request: Request) -> Bool {
    request.headers[.contentType]?.lowercased().hasPrefix("application/json") ?? false
  }

  static func errorResponse(_ error: APIError) -> Response {
    json(Wire.Failure(error: error.message), status: error.status)
  }

  static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
    var data = Wire.encode(value)
    data.append(0x0A)
    return Response(status: status, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
  }

  static func phone(_ hub: PhoneHub, _ context: BasicRequestContext) throws -> ServedPhone {
    let id = try context.parameters.require("id")
    guard let phone = hub.phone(id) else { throw APIError.notFound("no phone \(id)") }
    return phone
  }

  /// Applies a setting through the phone's runner (so it is on the transcript) and lets the
  /// phone settle; answers the state it produced.
  static func apply(_ event: ScenarioEvent, to phone: ServedPhone) async throws -> Response {
    phone.runner.apply(event)
    try await settle(phone.phone.clock)
    return json(phone.state)
  }

  /// On a virtual clock, everything due now happens before the answer (so a client reads
  /// back what it set); on the real clock the phone's own loop runs it.
  static func settle(_ clock: EmulatorClock) async throws {
    guard clock.isVirtual else { return }
    do {
      try await clock.advance(by: .zero)
    } catch {
      throw APIError.conflict("\(error)")
    }
  }

  /// The receiver a request asks for; nil when its profile is null (realism off). Only the
  /// built-in profiles: a request names no file of the server's machine.
  /// The largest seed a request may give: 2⁵³ − 1, the largest integer every JSON reader keeps exactly.
  static let largestSeed: UInt64 = 9_007_199_254_740_991

  static func receiver(_ realism: Wire.Realism) throws -> GNSSReceiver.Options? {
    guard let name = realism.profile else { return nil }
    guard let profile = ReceiverProfile.named(name) else {
      throw APIError.bad("profile: one of \(ReceiverProfile.builtIn.map(\.name).joined(separator: ", ")), or null for none")
    }
    // JSON's exact integers: a larger seed would not read back as it was given.
    let seed = realism.seed ?? 1
    guard seed <= Self.largestSeed else { throw APIError.bad("seed: a whole number from 0 to \(Self.largestSeed)") }
    var options = GNSSReceiver.Options(profile: profile, seed: seed, assisted: realism.assisted ?? true)
    if let start = realism.start {
      guard let kind = GNSSReceiver.Start(rawValue: start) else { throw APIError.bad("start: cold, warm or hot") }
      options.start = kind
    }
    return options
  }

  /// A trace to play and how: decoded once (off the event loop), played from memory.
  struct TraceRun {
    var trace: DecodedTrace
    var speed: Double
    var loop: Bool
    var offset: Double

    /// Stamped with the phone's date from `now` (the phone lives now, not when the trace was made).
    func options(from now: Date) -> ReplayOptions {
      ReplayOptions(speed: speed, loop: loop, startOffset: offset, timeBase: .startingAt(now))
    }
  }

  /// A trace run from JSON — `name` a trace in the server's directory, `data` the trace's text.
  static func traceRun(_ run: Wire.TraceRun, _ traces: TraceIntake) async throws -> TraceRun {
    if run.path != nil {
      throw APIError.bad(
        "a request cannot name a file of the server's machine: send the trace as the body, give its text as \"data\", or \"name\" a trace in the server's --traces directory"
      )
    }
    let options = try traceOptions(format: run.format.map(Trace.Format.init), speed: run.speed, loop: run.loop, offset: run.offset)
    let trace: DecodedTrace
    switch (run.name, run.data) {
    case (let name?, nil):
      do { trace = try await traces.load(name: name, format: options.format) } catch { throw APIError.trace(error) }
    case (nil, let data?):
      let bytes = TraceBytes(Array(data.utf8))
      do { trace = try await traces.load(bytes: bytes, name: "data", format: options.format) } catch { throw APIError.trace(error) }
    default:
      throw APIError.bad("give the trace as \"name\" (a trace in the server's --traces directory) or \"data\" (its text), one of them")
    }
    return TraceRun(trace: trace, speed: options.speed, loop: options.loop, offset: options.offset)
  }

  /// A trace run from an upload: the body is the trace (NMEA, GPX or JSON lines, at most the
  /// intake's ``TraceIntake/maxBytes``); `format`, `speed`, `loop`, `offset` and `name` in the query.
  static func traceRun(uploaded request: Request, _ reader: BodyReader, _ traces: TraceIntake) async throws -> TraceRun {
    let query = request.uri.queryParameters
    func text(_ name: String) -> String? { query[name[...]].map(String.init) }
    func number(_ name: String) throws -> Double? {
      guard let value = text(name) else { return nil }
      guard let number = Double(value) else { throw APIError.bad("\(name) must be a number") }
      return number
    }
    var format: Trace.Format?
    if let value = text("format") {
      guard let f = Trace.Format(rawValue: value) else {
        throw APIError.bad("format: one of \(Trace.Format.allCases.map(\.rawValue).joined(separator: ", "))")
      }
      format = f
    }
    var loop: Bool?
    if let value = text("loop") {
      guard value == "true" || value == "false" else { throw APIError.bad("loop must be true or false") }
      loop = value == "true"
    }
    let options = try traceOptions(format: format, speed: try number("speed"), loop: loop, offset: try number("offset"))
    let name = text("name") ?? "upload"
    let bytes = try await reader.collect(request, upTo: traces.maxBytes)
    guard !bytes.isEmpty else { throw APIError.bad("the body is empty: send the trace (NMEA, GPX or JSON lines) as the body") }
    do {
      let trace = try await traces.load(bytes: TraceBytes(bytes), name: name, format: options.format)
      return TraceRun(trace: trace, speed: options.speed, loop: options.loop, offset: options.offset)
    } catch {
      throw APIError.trace(error)
    }
  }

  /// The members of a trace run other than the trace, checked.
  static func traceOptions(
    format: Trace.Format?, speed: Double?, loop: Bool?, offset: Double?
  ) throws -> (
    format: Trace.Format?, speed: Double, loop: Bool, offset: Double
  ) {
    let speed = try finite(speed, "speed") ?? 1
    guard ReplayOptions.speedRange.contains(speed) else {
      throw APIError.bad("speed must be \(ReplayOptions.speedRange.lowerBound) to \(ReplayOptions.speedRange.upperBound)")
    }
    let offset = try finite(offset, "offset") ?? 0
    guard offset >= 0, offset <= 864_000 else { throw APIError.bad("offset must be 0 to 864000 seconds") }
    return (format, speed, loop ?? false, offset)
  }

  /// `value` when it is a finite number.
  static func finite(_ value: Double?, _ name: String) throws -> Double? {
    guard let value else { return nil }
    guard value.isFinite else { throw APIError.bad("\(name) must be a number") }
    return value
  }

  static func settings(_ new: Wire.NewPhone) throws -> PhoneSettings {
    var settings = PhoneSettings(
      permission: new.permission, services: new.services.map { $0 == .on }, accuracy: new.accuracy, app: new.app,
      backgroundLocationUpdates: new.backgroundLocationUpdates, promptAnswer: new.promptAnswer, mapFeatures: new.mapFeatures)
    if let delay = try finite(new.promptDelay, "promptDelay") {
      guard delay >= 0, delay <= 86_400 else { throw APIError.bad("promptDelay must be 0 to 86400 seconds") }
      settings.promptDelay = delay
    }
    return settings
  }

  /// A fix from a wire location, checked.
  static func fix(_ location: Wire.Location) throws -> LocationFix {
    guard let coordinate = Coordinate(latitude: location.lat, longitude: location.lon) else {
      throw APIError.bad("lat must be within -90…90 and lon within -180…180")
    }
    let altitude = try finite(location.altitude, "altitude")
    if let altitude, abs(altitude) > 100_000 { throw APIError.bad("altitude must be within ±100000 m") }
    func positive(_ value: Double?, _ name: String, max: Double) throws -> Double? {
      guard let v = try finite(value, name) else { return nil }
      guard v >= 0, v <= max else { throw APIError.bad("\(name) must be 0 to \(Int(max))") }
      return v
    }
    let course = try finite(location.course, "course")
    if let course, !(course >= 0 && course < 360) { throw APIError.bad("course must be 0 to 360 degrees") }
    return LocationFix(
      mode: altitude == nil ? .twoD : .threeD, coordinate: coordinate, altitudeMSL: altitude,
      speed: try positive(location.speed, "speed", max: 1000), course: course,
      horizontalAccuracy: try positive(location.horizontalAccuracy, "horizontalAccuracy", max: 100_000) ?? 5,
      verticalAccuracy: try positive(location.verticalAccuracy, "verticalAccuracy", max: 100_000))
  }
}

/// A request's JSON body as a value, within the limit of a JSON body.
struct JSONBody: Sendable {
  let reader: BodyReader
  let limit: Int

  /// The body as `T` (an empty body decodes as `{}`); a body that is not `T` is a 400.
  func callAsFunction<T: Decodable & SendableMetatype>(_ request: Request, as type: T.Type) async throws -> T {
    var bytes = try await reader.collect(request, upTo: limit)
    if bytes.isEmpty { bytes = Array("{}".utf8) }
    do {
      return try Wire.decode(type, from: Data(bytes))
    } catch {
      throw PhoneServer.APIError.bad(error.message)
    }
  }
}

extension Trace.Format {
  /// The format the API names.
  init(_ format: Wire.TraceFormat) {
    switch format {
    case .nmea: self = .nmea
    case .gpx: self = .gpx
    case .jsonl: self = .jsonl
    case .kml: self = .kml
    case .geojson: self = .geojson
    }
  }
}
