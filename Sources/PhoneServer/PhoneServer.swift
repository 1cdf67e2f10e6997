import Emulator
import Foundation
import Geo
public import Hummingbird
import Logging
import NIOCore
import PermissionHandling
import PetMap
public import Basemap
import Traces
import ServiceLifecycle
import UnixSignals

#if canImport(Glibc)
  import Glibc
#endif

/// The HTTP JSON API of `locemu serve` over a ``PhoneHub`` (routes in the README and in
/// `openapi.yaml`): phones listed, made, read and deleted; location, permission, services,
/// accuracy, app state and the prompt's script set; the app's own calls made; the transcript
/// streamed as server-sent events; a virtual clock advanced.
///
/// Bad input is a 4xx with `{"error": "…"}` and changes nothing: an unknown phone 404, a body
/// that is not the JSON asked for or a value out of range 400, a body over 1 MB 413.
public struct PhoneServer: Sendable {
  public let hub: PhoneHub
  public var host: String
  public var port: Int

  /// Request bodies larger than this are refused (413).
  public static let maxBody = 1 << 20

  /// When set, every request must carry it (`Authorization: Bearer TOKEN`, or `?token=TOKEN`
  /// for a browser's page and event stream); else 401.
  public var token: String?
  /// Streets, water and parks under the phones' maps (`/phones/{id}/map.svg`, the web page), or nil.
  public var basemap: Basemap?
  /// How often every event stream gets a keep-alive comment.
  public var keepAliveInterval: Duration = .seconds(15)

  public init(hub: PhoneHub, host: String = "127.0.0.1", port: Int = 0, token: String? = nil) {
    self.hub = hub
    self.host = host
    self.port = port
    self.token = token
  }

  /// Whether `host` is a loopback address (the only ones served without a token).
  public static func isLoopback(_ host: String) -> Bool {
    ["127.0.0.1", "::1", "localhost"].contains(host) || host.hasPrefix("127.")
  }

  /// A random token of 32 hex digits (128 bits from the system's generator).
  public static func makeToken() -> String {
    var generator = SystemRandomNumberGenerator()
    return (0..<4).map { _ in String(format: "%08x", UInt32.random(in: .min ... .max, using: &generator)) }.joined()
  }

  /// Ends a running server with a graceful shutdown: it stops accepting, lets the responses
  /// in flight finish (end the event streams first, with ``PhoneHub/shutdown()``), and
  /// ``PhoneServer/run(handlesSignals:stop:onListening:)`` returns.
  public final class StopHandle: Sendable {
    private let state = Locked<(group: ServiceGroup?, requested: Bool)>((nil, false))

    public init() {}

    public func stop() async {
      let group = state.withLock { s -> ServiceGroup? in
        s.requested = true
        return s.group
      }
      await group?.triggerGracefulShutdown()
    }

    func attach(_ group: ServiceGroup) async {
      let requested = state.withLock { s -> Bool in
        s.group = group
        return s.requested
      }
      if requested { await group.triggerGracefulShutdown() }
    }
  }

  /// Serves until SIGINT/SIGTERM (with `handlesSignals`), `stop`, or the task's cancellation.
  /// - Parameter onListening: called once with the port the server listens on.
  /// - Throws: ``PhoneServerError`` when the address cannot be bound.
  public func run(
    handlesSignals: Bool = true, stop: StopHandle? = nil, onListening: @escaping @Sendable (Int) -> Void = { _ in }
  ) async throws {
    var logger = Logger(label: "locemu.serve")
    logger.logLevel = .critical
    let app = Application(
      router: makeRouter(), configuration: .init(address: .hostname(host, port: port), serverName: "locemu"),
      onServerRunning: { channel in onListening(channel.localAddress?.port ?? 0) }, logger: logger)
    let group = ServiceGroup(
      configuration: .init(
        services: [app], gracefulShutdownSignals: handlesSignals ? [.sigterm, .sigint] : [], logger: logger))
    await stop?.attach(group)
    // Keep-alives on every event stream, on real time (a network matter, not the phones'), so
    // a client that went away is noticed while its phone is quiet.
    let hub = self.hub, interval = keepAliveInterval
    let keepAlive = Task {
      while (try? await Task.sleep(for: interval)) != nil {
        for phone in hub.phones { phone.keepAlive() }
      }
    }
    defer { keepAlive.cancel() }
    do {
      try await group.run()
    } catch let error as IOError {
      throw PhoneServerError(description: String(cString: strerror(error.errnoCode)))
    }
  }

  /// The routes, for a server or a test.
  public func makeRouter() -> Router<BasicRequestContext> {
    let router = Router()
    let hub = self.hub, basemap = self.basemap
    if let token { router.add(middleware: TokenCheck(token: token)) }
    router.get("/") { _, _ in
      Response(
        status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-cache"],
        body: ResponseBody(byteBuffer: ByteBuffer(string: WebPage.html)))
    }
    router.get("phones/:id/map.svg") { request, context in
      try await Self.guarded {
        let phone = try Self.phone(hub, context)
        let radius = request.uri.queryParameters.get("radius", as: Double.self) ?? 10_000
        guard radius >= 100, radius <= 1_000_000 else { throw APIError.bad("radius must be 100 to 1000000 metres") }
        return Response(
          status: .ok, headers: [.contentType: "image/svg+xml", .cacheControl: "no-cache"],
          body: ResponseBody(byteBuffer: ByteBuffer(string: Self.map(of: phone.phone, radius: radius, basemap: basemap))))
      }
    }
    router.get("phones") { _, _ in
      Self.json("{\"phones\":[" + hub.phones.map(\.stateJSON).joined(separator: ",") + "]}")
    }
    router.post("phones") { request, _ in
      try await Self.handle(request) { body in
        // Everything is checked before the phone is made: a refused request makes nothing.
        let settings = try Self.settings(body)
        var location: LocationFix?
        if let value = body["location"] {
          guard let object = value as? [String: Any] else { throw APIError.bad("location must be an object") }
          location = try Self.fix(object)
        }
        var run: TraceRun?
        if let value = body["trace"] {
          guard let object = value as? [String: Any] else { throw APIError.bad("trace must be an object with a path") }
          run = try Self.traceRun(object)
        }
        if location != nil && run != nil { throw APIError.bad("give location or trace, not both") }
        let phone = await hub.create(settings)
        if var location {
          location.timestamp = phone.phone.date
          await phone.phone.send(location)
        }
        if let run { phone.start(run.trace, options: run.options(from: phone.phone.date)) }
        try await Self.settle(hub.clock)
        return Self.json(phone.stateJSON, status: .created)
      }
    }
    router.get("phones/:id") { _, context in
      try await Self.guarded { Self.json(try Self.phone(hub, context).stateJSON) }
    }
    router.delete("phones/:id") { _, context in
      try await Self.guarded {
        let id = try context.parameters.require("id")
        guard await hub.delete(id) else { throw APIError.notFound("no phone \(id)") }
        return Response(status: .noContent)
      }
    }
    router.post("phones/:id/location") { request, context in
      try await Self.handle(request) { body in
        let phone = try Self.phone(hub, context)
        var fix = try Self.fix(body)
        fix.timestamp = phone.phone.date
        phone.stopPlaying()
        if phone.phone.isFixLost { await phone.phone.setFixAvailable(true) }
        await phone.phone.send(fix)
        return Self.json(phone.stateJSON)
      }
    }
    router.delete("phones/:id/location") { _, context in
      try await Self.guarded {
        let phone = try Self.phone(hub, context)
        phone.stopPlaying()
        await phone.phone.setFixAvailable(false)
        return Self.json(phone.stateJSON)
      }
    }
    router.post("phones/:id/route") { request, context in
      try await Self.handle(request) { body in
        let phone = try Self.phone(hub, context)
        guard let list = body["waypoints"] as? [Any], !list.isEmpty, list.count <= 10_000 else {
          throw APIError.bad("give \"waypoints\": 1 to 10000 objects with lat and lon")
        }
        let waypoints = try list.map { item -> Coordinate in
          guard let object = item as? [String: Any] else { throw APIError.bad("each waypoint is an object with lat and lon") }
          guard let coordinate = try Self.fix(object).coordinate else { throw APIError.bad("a waypoint has no position") }
          return coordinate
        }
        let speed = try Self.number(body, "speed") ?? 1.4
        guard speed > 0, speed <= 1000 else { throw APIError.bad("speed must be above 0 and at most 1000 m/s") }
        let interval = try Self.number(body, "interval") ?? 1
        guard interval >= 0.01, interval <= 3600 else { throw APIError.bad("interval must be 0.01 to 3600 seconds") }
        let route = RouteWalk(waypoints: waypoints, speed: speed, interval: .milliseconds(Int64((interval * 1000).rounded())))
        guard let fixes = route.fixes() else {
          throw APIError.bad("the route would take over \(RouteWalk.maxFixes) fixes: raise speed or interval")
        }
        if phone.phone.isFixLost { await phone.phone.setFixAvailable(true) }
        phone.start(route, fixes: fixes)
        try await Self.settle(phone.phone.clock)
        return Self.json(phone.stateJSON)
      }
    }
    router.post("phones/:id/trace") { request, context in
      try await Self.handle(request) { body in
        let phone = try Self.phone(hub, context)
        let run = try Self.traceRun(body)
        if phone.phone.isFixLost { await phone.phone.setFixAvailable(true) }
        phone.start(run.trace, options: run.options(from: phone.phone.date))
        try await Self.settle(phone.phone.clock)
        return Self.json(phone.stateJSON)
      }
    }
    router.post("phones/:id/privacy") { request, context in
      try await Self.handle(request) { body in
        let phone = try Self.phone(hub, context)
        let action = try Self.string(body, "action", of: ["grant", "revoke", "reset", "restrict"])
        let always = try Self.bool(body, "always") ?? false
        let status: LocationPermissionStatus =
          switch action {
          case "grant": always ? .authorizedAlways : .authorizedWhenInUse
          case "revoke": .denied
          case "reset": .notDetermined
          default: .restricted
          }
        return try await Self.apply(.permission(status), to: phone)
      }
    }
    router.post("phones/:id/services") { request, context in
      try await Self.handle(request) { body in
        let phone = try Self.phone(hub, context)
        guard let enabled = try Self.bool(body, "enabled") else { throw APIError.bad("give \"enabled\": true or false") }
        return try await Self.apply(.services(enabled), to: phone)
      }
    }
    router.post("phones/:id/accuracy") { request, context in
      try await Self.handle(request) { body in
        let phone = try Self.phone(hub, context)
        let accuracy = try Self.string(body, "accuracy", of: LocationAccuracyAuthorization.allCases.map(\.rawValue))
        return try await Self.apply(.accuracy(LocationAccuracyAuthorization(rawValue: accuracy)!), to: phone)
      }
    }
    router.post("phones/:id/app") { request, context in
      try await Self.handle(request) { body in
        let phone = try Self.phone(hub, context)
        let state = try Self.string(body, "state", of: ["foreground", "background"])
        return try await Self.apply(state == "background" ? .background : .foreground, to: phone)
      }
    }
    router.post("phones/:id/prompt") { request, context in
      try await Self.handle(request) { body in
        let phone = try Self.phone(hub, context)
        let answer = PromptAnswer(rawValue: try Self.string(body, "answer", of: PromptAnswer.allCases.map(\.rawValue)))!
        var delay: Duration?
        if let seconds = try Self.number(body, "delay") {
          guard seconds >= 0, seconds <= 86_400 else { throw APIError.bad("delay must be 0 to 86400 seconds") }
          delay = .milliseconds(Int64((seconds * 1000).rounded()))
        }
        phone.phone.setPromptAnswer(answer, delay: delay)
        return Self.json(phone.stateJSON)
      }
    }
    router.post("phones/:id/calls/:call") { _, context in
      try await Self.guarded {
        let phone = try Self.phone(hub, context)
        let call = try context.parameters.require("call")
        let event: ScenarioEvent
        switch call {
        case "authorize": event = .authorize
        case "request": event = .request
        case "locate": event = .locate
        default: throw APIError.notFound("no call \(call): authorize, request or locate")
        }
        phone.runner.apply(event)
        try await Self.settle(hub.clock)
        return Self.json(phone.stateJSON, status: .accepted)
      }
    }
    router.post("phones/:id/events") { request, context in
      try await Self.handle(request) { body in
        let phone = try Self.phone(hub, context)
        guard let text = body["event"] as? String else { throw APIError.bad("give \"event\", e.g. \"permission=denied\"") }
        let event: ScenarioEvent
        do {
          event = try ScenarioEvent(parsing: text)
        } catch {
          throw APIError.bad("\(error)")
        }
        guard !event.isMapEvent else { throw APIError.bad("'\(text)' is a map event: a served phone has no map") }
        return try await Self.apply(event, to: phone)
      }
    }
    router.get("phones/:id/events") { request, context in
      try await Self.guarded {
        let phone = try Self.phone(hub, context)
        let history = request.uri.queryParameters.get("history", as: Int.self) ?? 0
        let subscription = phone.events(history: max(0, min(history, ServedPhone.historyLimit)))
        return Response(
          status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"],
          body: ResponseBody { writer in
            // A write that fails (the client went away) ends the subscription at once.
            defer { subscription.cancel() }
            for await line in subscription.lines {
              try await writer.write(ByteBuffer(string: line == ServedPhone.keepAliveLine ? ": keep-alive\n\n" : "data: \(line)\n\n"))
            }
            try await writer.finish(nil)
          })
      }
    }
    router.get("clock") { _, _ in
      Self.json("{\"virtual\":\(hub.clock.isVirtual),\"elapsed\":\(FixRecord.fixed(hub.elapsed.seconds, 3))}")
    }
    router.post("clock/advance") { request, _ in
      try await Self.handle(request) { body in
        guard hub.clock.isVirtual else { throw APIError.conflict("the clock is real time: start the server with --virtual-time") }
        guard let seconds = try Self.number(body, "seconds"), seconds >= 0, seconds <= 864_000 else {
          throw APIError.bad("give \"seconds\": 0 to 864000")
        }
        do {
          try await hub.advance(by: .milliseconds(Int64((seconds * 1000).rounded())))
        } catch {
          throw APIError.conflict("\(error)")
        }
        return Self.json("{\"virtual\":true,\"elapsed\":\(FixRecord.fixed(hub.elapsed.seconds, 3))}")
      }
    }
    return router
  }

  // MARK: Helpers

  /// The phone's position on the preview's map (16:9, `radius` around it, the circle the
  /// preview draws); a map of nothing that says so while the phone has no fix.
  static func map(of phone: EmulatedPhone, radius: Double, basemap: Basemap?) -> String {
    guard let fix = phone.latestFix, fix.hasFix, let location = fix.coordinate, !phone.isFixLost else {
      return """
        <svg xmlns="http://www.w3.org/2000/svg" width="640" height="360" viewBox="0 0 640 360">\
        <rect width="640" height="360" fill="#e8e8e8"/><text x="320" y="185" text-anchor="middle" \
        font-family="sans-serif" font-size="18" fill="#666">No location</text></svg>
        """
    }
    let request = MapSnapshotRequest(region: location.mapRegion(radiusMeters: radius).fitted(aspectRatio: 16.0 / 9.0), userLocation: location)
    return (try? SVGMapSnapshotter(radiusMeters: radius, basemap: basemap).render(request).svg) ?? ""
  }

  enum APIError: Error {
    case bad(String), notFound(String), conflict(String), tooLarge

    var status: HTTPResponse.Status {
      switch self {
      case .bad: .badRequest
      case .notFound: .notFound
      case .conflict: .conflict
      case .tooLarge: .contentTooLarge
      }
    }

    var message: String {
      switch self {
      case .bad(let m), .notFound(let m), .conflict(let m): m
      case .tooLarge: "the body is over \(PhoneServer.maxBody) bytes"
      }
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

  /// Reads the body as a JSON object (an empty body is `{}`) and runs `body`; API errors
  /// become their status with `{"error": …}`.
  static func handle(_ request: Request, _ body: ([String: Any]) async throws -> Response) async throws -> Response {
    try await guarded {
      let buffer: ByteBuffer
      do {
        buffer = try await request.body.collect(upTo: maxBody)
      } catch {
        throw APIError.tooLarge
      }
      var object: [String: Any] = [:]
      if buffer.readableBytes > 0 {
        guard let parsed = try? JSONSerialization.jsonObject(with: Data(buffer.readableBytesView)) as? [String: Any] else {
          throw APIError.bad("the body must be a JSON object")
        }
        object = parsed
      }
      return try await body(object)
    }
  }

  static func errorResponse(_ error: APIError) -> Response {
    json("{\"error\":\(JSONText.quoted(error.message))}", status: error.status)
  }

  static func json(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
    Response(status: status, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(string: text + "\n")))
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
    return json(phone.stateJSON)
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

  /// A trace to play: `{"path", "format", "speed", "loop", "offset"}`, checked (the file is
  /// read up to its first epoch).
  struct TraceRun {
    var trace: Trace
    var speed: Double
    var loop: Bool
    var offset: Double

    /// Stamped with the phone's date from `now` (the phone lives now, not when the trace was made).
    func options(from now: Date) -> ReplayOptions {
      ReplayOptions(speed: speed, loop: loop, startOffset: offset, timeBase: .startingAt(now))
    }
  }

  static func traceRun(_ body: [String: Any]) throws -> TraceRun {
    guard let path = body["path"] as? String, path.hasPrefix("/") else {
      throw APIError.bad("give \"path\": the trace file's absolute path on the server's machine")
    }
    var format: Trace.Format?
    if body["format"] != nil {
      format = Trace.Format(rawValue: try string(body, "format", of: Trace.Format.allCases.map(\.rawValue)))
    }
    let speed = try number(body, "speed") ?? 1
    guard ReplayOptions.speedRange.contains(speed) else {
      throw APIError.bad("speed must be \(ReplayOptions.speedRange.lowerBound) to \(ReplayOptions.speedRange.upperBound)")
    }
    let offset = try number(body, "offset") ?? 0
    guard offset >= 0, offset <= 864_000 else { throw APIError.bad("offset must be 0 to 864000 seconds") }
    let loop = try bool(body, "loop") ?? false
    do {
      let trace = try Trace(path: path, format: format)
      try checkHasEpochs(trace)
      return TraceRun(trace: trace, speed: speed, loop: loop, offset: offset)
    } catch let error as APIError {
      throw error
    } catch {
      throw APIError.bad("\(error)")
    }
  }

  /// Refuses a trace with no epoch before it replaces what the phone plays.
  static func checkHasEpochs(_ trace: Trace) throws {
    let reader = try trace.makeReader()
    defer { reader.close() }
    guard try reader.next() != nil else {
      throw APIError.bad("\(trace.path): no epochs read as \(trace.format.displayName)")
    }
  }

  static func string(_ body: [String: Any], _ name: String, of allowed: [String]) throws -> String {
    guard let value = body[name] as? String, allowed.contains(value) else {
      throw APIError.bad("give \"\(name)\": one of \(allowed.joined(separator: ", "))")
    }
    return value
  }

  static func number(_ body: [String: Any], _ name: String) throws -> Double? {
    guard let value = body[name], !(value is NSNull) else { return nil }
    guard let number = JSONText.number(value), number.isFinite else { throw APIError.bad("\(name) must be a number") }
    return number
  }

  static func bool(_ body: [String: Any], _ name: String) throws -> Bool? {
    guard let value = body[name], !(value is NSNull) else { return nil }
    guard let bool = JSONText.bool(value) else { throw APIError.bad("\(name) must be true or false") }
    return bool
  }

  static func settings(_ body: [String: Any]) throws -> PhoneSettings {
    var settings = PhoneSettings()
    if let text = body["permission"] {
      guard let s = (text as? String).flatMap(LocationPermissionStatus.init(rawValue:)) else {
        throw APIError.bad("permission must be one of \(LocationPermissionStatus.allCases.map(\.rawValue).joined(separator: ", "))")
      }
      settings.permission = s
    }
    if let services = body["services"] {
      guard let s = services as? String, s == "on" || s == "off" else { throw APIError.bad("services must be on or off") }
      settings.services = s == "on"
    }
    if body["accuracy"] != nil {
      settings.accuracy = LocationAccuracyAuthorization(
        rawValue: try string(body, "accuracy", of: LocationAccuracyAuthorization.allCases.map(\.rawValue)))
    }
    if body["app"] != nil { settings.app = AppState(rawValue: try string(body, "app", of: AppState.allCases.map(\.rawValue))) }
    settings.backgroundLocationUpdates = try bool(body, "backgroundLocationUpdates")
    if body["promptAnswer"] != nil {
      settings.promptAnswer = PromptAnswer(rawValue: try string(body, "promptAnswer", of: PromptAnswer.allCases.map(\.rawValue)))
    }
    if let delay = try number(body, "promptDelay") {
      guard delay >= 0, delay <= 86_400 else { throw APIError.bad("promptDelay must be 0 to 86400 seconds") }
      settings.promptDelay = delay
    }
    return settings
  }

  /// A fix from `{"lat", "lon", "altitude", "horizontalAccuracy", "verticalAccuracy", "speed", "course"}`.
  static func fix(_ body: [String: Any]) throws -> LocationFix {
    guard let lat = try number(body, "lat"), let lon = try number(body, "lon") else { throw APIError.bad("give \"lat\" and \"lon\"") }
    guard let coordinate = Coordinate(latitude: lat, longitude: lon) else {
      throw APIError.bad("lat must be within -90…90 and lon within -180…180")
    }
    let altitude = try number(body, "altitude")
    if let altitude, abs(altitude) > 100_000 { throw APIError.bad("altitude must be within ±100000 m") }
    func positive(_ name: String, max: Double) throws -> Double? {
      guard let v = try number(body, name) else { return nil }
      guard v >= 0, v <= max else { throw APIError.bad("\(name) must be 0 to \(Int(max))") }
      return v
    }
    let course = try number(body, "course")
    if let course, !(course >= 0 && course < 360) { throw APIError.bad("course must be 0 to 360 degrees") }
    return LocationFix(
      mode: altitude == nil ? .twoD : .threeD, coordinate: coordinate, altitudeMSL: altitude,
      speed: try positive("speed", max: 1000), course: course,
      horizontalAccuracy: try positive("horizontalAccuracy", max: 100_000) ?? 5,
      verticalAccuracy: try positive("verticalAccuracy", max: 100_000))
  }
}

/// Refuses a request without the server's token (401), compared in constant time.
struct TokenCheck<Context: RequestContext>: RouterMiddleware {
  let token: String

  @concurrent
  func handle(_ request: Request, context: Context, next: @concurrent (Request, Context) async throws -> Response) async throws -> Response {
    var given: Substring?
    if let header = request.headers[.authorization], header.hasPrefix("Bearer ") {
      given = header.dropFirst(7)
    } else if let query = request.uri.queryParameters["token"] {
      given = Substring(query)
    }
    guard let given, Self.same(Array(given.utf8), Array(token.utf8)) else {
      var response = PhoneServer.json(
        "{\"error\":\"this server needs its token: Authorization: Bearer TOKEN (locemu ctl --token, $LOCEMU_TOKEN)\"}",
        status: .unauthorized)
      response.headers[.wwwAuthenticate] = "Bearer"
      return response
    }
    return try await next(request, context)
  }

  static func same(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    var difference = UInt8(truncatingIfNeeded: a.count ^ b.count)
    for i in 0..<max(a.count, b.count) { difference |= (i < a.count ? a[i] : 0) ^ (i < b.count ? b[i] : 0) }
    return difference == 0
  }
}

/// Why the server could not run, in the operating system's words.
public struct PhoneServerError: Error, CustomStringConvertible, Sendable {
  public var description: String
}
