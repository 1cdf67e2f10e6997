import Emulator
import Foundation
import GNSSReceiver
import Geo
package import Hummingbird
import LocationEmulatorClient
import Logging
import NIOCore
import PermissionHandling
import Scenarios
import PetMap
package import Basemap
import Traces
package import ServiceLifecycle
import UnixSignals
import NIOPosix
import LocationServices

#if canImport(Glibc)
  import Glibc
#endif

/// The HTTP JSON API of `locemu serve` over a ``PhoneHub`` (routes in the README and in
/// `openapi.yaml`): phones listed, made, read and deleted; location, permission, services,
/// accuracy, app state and the prompt's script set; the app's own calls made; traces played
/// (uploaded, or named from the server's trace directory); the transcript streamed as
/// server-sent events; a virtual clock advanced.
///
/// Bad input is a 4xx with `{"error": "…"}` and changes nothing: an unknown phone 404, a body
/// that is not the JSON asked for or a value out of range 400, a body that does not arrive in
/// time 408, a body over its limit 413, a limit reached (phones, event clients, bytes being
/// received at once) 429. No request makes the server read a file outside its trace directory.
package struct PhoneServer: Sendable {
  package let hub: PhoneHub
  package var host: String
  package var port: Int

  /// What the server accepts, and how much of it at once.
  package struct Limits: Sendable, Hashable {
    /// A JSON request body (1 MB).
    package var maxBodyBytes = 1 << 20
    /// Phones held at once (``PhoneHub/maxPhones`` enforces it).
    package var maxPhones = 10_000
    /// Event-stream clients of one phone at once.
    package var maxEventClientsPerPhone = 64
    /// How long a request body may take to arrive in full.
    package var bodyTimeout: Duration = .seconds(10)
    /// Body bytes held at once across every request being received (64 MB): past it a
    /// request is refused with 429 rather than held.
    package var maxBodyBytesInFlight = 64 << 20

    package init() {}
  }

  package var limits = Limits()
  /// Where traces come from: uploads, and names in the server's trace directory.
  package var traces: TraceIntake

  /// When set, every request must carry it (`Authorization: Bearer TOKEN`, or `?token=TOKEN`
  /// for a browser's page and event stream); else 401.
  package var token: String?
  /// Streets, water and parks under the phones' maps (`/phones/{id}/map.svg`, the web page), or nil.
  package var basemaps: [Basemap] = []
  /// How often every event stream gets a keep-alive comment.
  package var keepAliveInterval: Duration = .seconds(15)
  /// How long a shutdown (SIGINT, SIGTERM) waits for the phones and the requests in flight
  /// before it cancels them; cancelling is given as long again, then ``run(services:handlesSignals:onListening:)`` returns.
  package var shutdownGrace: Duration = .seconds(2)

  package init(hub: PhoneHub, host: String = "127.0.0.1", port: Int = 0, token: String? = nil, traces: TraceIntake? = nil) {
    self.hub = hub
    self.host = host
    self.port = port
    self.token = token
    self.traces = traces ?? (try! TraceIntake(directory: nil))
  }

  /// Whether `host` is a loopback address (the only ones served without a token).
  package static func isLoopback(_ host: String) -> Bool {
    ["127.0.0.1", "::1", "localhost"].contains(host) || host.hasPrefix("127.")
  }

  /// A random token of 32 hex digits (128 bits from the system's generator).
  package static func makeToken() -> String {
    var generator = SystemRandomNumberGenerator()
    return (0..<4).map { _ in String(format: "%08x", UInt32.random(in: .min ... .max, using: &generator)) }.joined()
  }

  /// Serves until SIGINT/SIGTERM (with `handlesSignals`) or the task's cancellation, as one
  /// `ServiceGroup`: the phones (with the event streams' keep-alives), `services` (an NMEA
  /// feed, say), and the HTTP server. On a signal they stop in that order, each given
  /// ``shutdownGrace``: the phones first (which ends every event stream, so no response is
  /// left open), then `services`, then the server stops accepting and finishes what it is
  /// sending; what is still running after the grace (a request stuck on a slow client) is
  /// cancelled, so the call returns within about twice the grace.
  /// - Parameter onListening: called once with the port the server listens on.
  /// - Throws: ``PhoneServerError`` when the address cannot be bound; what a service throws.
  package func run(
    services: [any Service] = [], handlesSignals: Bool = true, onListening: @escaping @Sendable (Int) -> Void = { _ in }
  ) async throws {
    var logger = Logger(label: "locemu.serve")
    logger.logLevel = .critical
    let app = Application(
      router: makeRouter(),
      configuration: .init(address: .hostname(host, port: port), serverName: "locemu"),
      onServerRunning: { channel in onListening(channel.localAddress?.port ?? 0) }, logger: logger)
    // Shut down last to first: the phones, then the services, then the server.
    var configuration = ServiceGroupConfiguration(
      services: [app] + services + [PhonesService(hub: hub, keepAliveInterval: keepAliveInterval)],
      gracefulShutdownSignals: handlesSignals ? [.sigterm, .sigint] : [], logger: logger)
    configuration.maximumGracefulShutdownDuration = shutdownGrace
    configuration.maximumCancellationDuration = shutdownGrace
    let group = ServiceGroup(configuration: configuration)
    do {
      try await group.run()
    } catch let error as IOError {
      throw PhoneServerError(description: String(cString: strerror(error.errnoCode)))
    } catch let error as ServiceGroupError {
      // Past the grace: what was stuck was cancelled; the server is down all the same.
      logger.debug("\(error)")
    }
  }

  /// The routes, for a server or a test.
  package func makeRouter() -> Router<BasicRequestContext> {
    let router = Router()
    let hub = self.hub, basemaps = self.basemaps, limits = self.limits, traces = self.traces
    let reader = BodyReader(timeout: limits.bodyTimeout, budget: ByteBudget(limit: limits.maxBodyBytesInFlight))
    hub.maxPhones = limits.maxPhones
    /// The body as `T`, within the JSON body's limit (an empty body decodes as `{}`).
    @Sendable func body<T: Decodable & SendableMetatype>(_ request: Request, as type: T.Type) async throws -> T {
      var bytes = try await reader.collect(request, upTo: limits.maxBodyBytes)
      if bytes.isEmpty { bytes = Array("{}".utf8) }
      do {
        return try Wire.decode(type, from: Data(bytes))
      } catch {
        throw APIError.bad(error.message)
      }
    }
    if let token { router.add(middleware: TokenCheck(token: token)) }
    let page = WebPage.html(defaultCenter: StreetMap.center(basemaps: basemaps))
    router.get("/") { _, _ in
      Response(
        status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-cache"],
        body: ResponseBody(byteBuffer: ByteBuffer(string: page)))
    }
    router.get("phones/:id/map.svg") { request, context in
      try await Self.guarded {
        let phone = try Self.phone(hub, context)
        let view = request.uri.queryParameters.get("view") ?? "preview"
        guard view == "preview" || view == "street" else { throw APIError.bad("view must be preview or street") }
        let radius = request.uri.queryParameters.get("radius", as: Double.self) ?? (view == "street" ? 250 : 10_000)
        guard radius >= 100, radius <= 1_000_000 else { throw APIError.bad("radius must be 100 to 1000000 metres") }
        let svg =
          view == "street"
          ? StreetMap.render(phone, radius: radius, basemaps: basemaps) : Self.map(of: phone.phone, radius: radius, basemaps: basemaps)
        return Response(
          status: .ok, headers: [.contentType: "image/svg+xml", .cacheControl: "no-cache"],
          body: ResponseBody(byteBuffer: ByteBuffer(string: svg)))
      }
    }
    let worldPage = WorldMapPage.html(defaultCenter: StreetMap.center(basemaps: basemaps))
    router.get("map") { _, _ in
      Response(
        status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-cache"],
        body: ResponseBody(byteBuffer: ByteBuffer(string: worldPage)))
    }
    @Sendable func leaflet(_ name: String) throws -> Response {
      guard let (data, type) = WorldMapPage.leafletFile(name) else {
        throw APIError.notFound(
          "no Leaflet file \(name): /map needs Debian's libjs-leaflet in \(WorldMapPage.leafletDirectory) (apt-get install libjs-leaflet)")
      }
      return Response(
        status: .ok, headers: [.contentType: type, .cacheControl: "public, max-age=86400"],
        body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
    router.get("leaflet/:file") { _, context in
      try await Self.guarded { try leaflet(try context.parameters.require("file")) }
    }
    router.get("leaflet/images/:file") { _, context in
      try await Self.guarded { try leaflet("images/" + (try context.parameters.require("file"))) }
    }
    router.get("places") { request, _ in
      try await Self.guarded {
        let text = request.uri.queryParameters.get("q") ?? ""
        guard !text.isEmpty, text.count <= 200 else { throw APIError.bad("q must be 1 to 200 characters: a name or a coordinate") }
        let limit = request.uri.queryParameters.get("limit", as: Int.self) ?? 20
        guard (1...100).contains(limit) else { throw APIError.bad("limit must be 1 to 100") }
        let places = try await Self.offLoop(nil) { try Self.places(text, limit: limit, basemaps: basemaps) }
        return Self.json(Wire.PlaceList(places: places))
      }
    }
    let tiles = MapTiles(basemaps: basemaps)
    router.get("tiles/:z/:x/:y") { _, context in
      try await Self.guarded {
        // y is "Y.svg" (or bare Y).
        let name = try context.parameters.require("y")
        let yText = name.hasSuffix(".svg") ? String(name.dropLast(4)) : name
        guard let z = Int(try context.parameters.require("z")), let x = Int(try context.parameters.require("x")), let y = Int(yText),
          MapTiles.isValid(z: z, x: x, y: y)
        else {
          throw APIError.notFound("no such tile: zoom 0 to \(MapTiles.maximumZoom), x and y 0 to 2^zoom - 1 (/tiles/Z/X/Y.svg)")
        }
        let data = try await Self.offLoop("tile \(z)/\(x)/\(y)") { try tiles.tile(z: z, x: x, y: y) }
        return Response(
          status: .ok, headers: [.contentType: "image/svg+xml", .cacheControl: "public, max-age=3600"],
          body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
      }
    }
    router.get("phones") { _, _ in
      Self.json(Wire.PhoneList(phones: hub.phones.map(\.state)))
    }
    router.post("phones") { request, _ in
      try await Self.guarded {
        let new = try await body(request, as: Wire.NewPhone.self)
        // Everything is checked before the phone is made: a refused request makes nothing.
        let settings = try Self.settings(new)
        let location = try new.location.map(Self.fix)
        var run: TraceRun?
        if let trace = new.trace { run = try await Self.traceRun(trace, traces) }
        if location != nil && run != nil { throw APIError.bad("give location or trace, not both") }
        let realism = try new.realism.flatMap { wire in try Self.receiver(wire).map { ($0, wire) } }
        guard let phone = await hub.create(settings) else {
          throw APIError.busy("this server holds its limit of \(limits.maxPhones) phones (--max-phones): delete one first")
        }
        if let realism { phone.setRealism(realism) }
        if var location {
          location.timestamp = phone.phone.date
          if phone.isRealistic { phone.stand(at: location) } else { await phone.phone.send(location) }
        }
        if let run { phone.start(run.trace, options: run.options(from: phone.phone.date)) }
        try await Self.settle(hub.clock)
        return Self.json(phone.state, status: .created)
      }
    }
    router.get("phones/:id") { _, context in
      try await Self.guarded { Self.json(try Self.phone(hub, context).state) }
    }
    router.delete("phones/:id") { _, context in
      try await Self.guarded {
        let id = try context.parameters.require("id")
        guard await hub.delete(id) else { throw APIError.notFound("no phone \(id)") }
        return Response(status: .noContent)
      }
    }
    router.post("phones/:id/location") { request, context in
      try await Self.guarded {
        let phone = try Self.phone(hub, context)
        var fix = try Self.fix(try await body(request, as: Wire.Location.self))
        fix.timestamp = phone.phone.date
        phone.stopPlaying()
        if phone.phone.isFixLost { await phone.phone.setFixAvailable(true) }
        if phone.isRealistic {
          // Through the receiver: it stands there, one fix a second.
          phone.stand(at: fix)
          try await Self.settle(phone.phone.clock)
        } else {
          await phone.phone.send(fix)
        }
        return Self.json(phone.state)
      }
    }
    router.delete("phones/:id/location") { _, context in
      try await Self.guarded {
        let phone = try Self.phone(hub, context)
        phone.stopPlaying()
        await phone.phone.setFixAvailable(false)
        return Self.json(phone.state)
      }
    }
    router.post("phones/:id/route") { request, context in
      try await Self.guarded {
        let phone = try Self.phone(hub, context)
        let route = try await body(request, as: Wire.Route.self)
        guard !route.waypoints.isEmpty, route.waypoints.count <= 10_000 else {
          throw APIError.bad("give \"waypoints\": 1 to 10000 objects with lat and lon")
        }
        let waypoints = try route.waypoints.map { try Self.fix($0).coordinate! }
        let speed = try Self.finite(route.speed, "speed") ?? 1.4
        guard speed > 0, speed <= 1000 else { throw APIError.bad("speed must be above 0 and at most 1000 m/s") }
        let interval = try Self.finite(route.interval, "interval") ?? 1
        guard interval >= 0.01, interval <= 3600 else { throw APIError.bad("interval must be 0.01 to 3600 seconds") }
        let walk = RouteWalk(waypoints: waypoints, speed: speed, interval: .milliseconds(Int64((interval * 1000).rounded())))
        guard let fixes = walk.fixes() else {
          throw APIError.bad("the route would take over \(RouteWalk.maxFixes) fixes: raise speed or interval")
        }
        if phone.phone.isFixLost { await phone.phone.setFixAvailable(true) }
        phone.start(walk, fixes: fixes)
        try await Self.settle(phone.phone.clock)
        return Self.json(phone.state)
      }
    }
    router.post("phones/:id/trace") { request, context in
      try await Self.guarded {
        let phone = try Self.phone(hub, context)
        let run: TraceRun
        if Self.isJSON(request) {
          run = try await Self.traceRun(try await body(request, as: Wire.TraceRun.self), traces)
        } else {
          // The body is the trace; how to play it is in the query.
          run = try await Self.traceRun(uploaded: request, reader, traces)
        }
        if phone.phone.isFixLost { await phone.phone.setFixAvailable(true) }
        phone.start(run.trace, options: run.options(from: phone.phone.date))
        try await Self.settle(phone.phone.clock)
        return Self.json(phone.state)
      }
    }
    router.post("phones/:id/playback") { request, context in
      try await Self.guarded {
        let phone = try Self.phone(hub, context)
        let playback = try await body(request, as: Wire.Playback.self)
        guard phone.setPaused(playback.paused) else { throw APIError.conflict("nothing is playing") }
        return Self.json(phone.state)
      }
    }
    router.post("phones/:id/seek") { request, context in
      try await Self.guarded {
        let phone = try Self.phone(hub, context)
        let seek = try await body(request, as: Wire.Seek.self)
        guard (seek.fix == nil) != (seek.seconds == nil) else { throw APIError.bad("give fix (an index from 0) or seconds, one of them") }
        if let fix = seek.fix, fix < 0 { throw APIError.bad("fix must be 0 or more") }
        if let seconds = seek.seconds, !(seconds >= 0 && seconds <= 1e9) { throw APIError.bad("seconds must be 0 to 1000000000") }
        guard phone.seek(fix: seek.fix, seconds: seek.seconds) != nil else {
          throw APIError.conflict("nothing seekable is playing: a trace or a route can be sought, a source cannot")
        }
        try await Self.settle(phone.phone.clock)
        return Self.json(phone.state)
      }
    }
    router.post("phones/:id/realism") { request, context in
      try await Self.guarded {
        let phone = try Self.phone(hub, context)
        let realism = try await body(request, as: Wire.Realism.self)
        phone.setRealism(try Self.receiver(realism).map { ($0, realism) })
        return Self.json(phone.state)
      }
    }
    router.post("phones/:id/privacy") { request, context in
      try await Self.guarded {
        let phone = try Self.phone(hub, context)
        let privacy = try await body(request, as: Wire.Privacy.self)
        let status: LocationPermissionStatus =
          switch privacy.action {
          case .grant: privacy.always == true ? .authorizedAlways : .authorizedWhenInUse
          case .revoke: .denied
          case .reset: .notDetermined
          case .restrict: .restricted
          }
        return try await Self.apply(.permission(status), to: phone)
      }
    }
    router.post("phones/:id/services") { request, context in
      try await Self.guarded {
        let phone = try Self.phone(hub, context)
        return try await Self.apply(.services(try await body(request, as: Wire.Services.self).enabled), to: phone)
      }
    }
    router.post("phones/:id/accuracy") { request, context in
      try await Self.guarded {
        let phone = try Self.phone(hub, context)
        return try await Self.apply(.accuracy(try await body(request, as: Wire.Accuracy.self).accuracy), to: phone)
      }
    }
    router.post("phones/:id/app") { request, context in
      try await Self.guarded {
        let phone = try Self.phone(hub, context)
        let state = try await body(request, as: Wire.App.self).state
        return try await Self.apply(state == .background ? .background : .foreground, to: phone)
      }
    }
    router.post("phones/:id/prompt") { request, context in
      try await Self.guarded {
        let phone = try Self.phone(hub, context)
        let prompt = try await body(request, as: Wire.Prompt.self)
        var delay: Duration?
        if let seconds = try Self.finite(prompt.delay, "delay") {
          guard seconds >= 0, seconds <= 86_400 else { throw APIError.bad("delay must be 0 to 86400 seconds") }
          delay = .milliseconds(Int64((seconds * 1000).rounded()))
        }
        phone.phone.setPromptAnswer(prompt.answer, delay: delay)
        return Self.json(phone.state)
      }
    }
    router.post("phones/:id/calls/:call") { _, context in
      try await Self.guarded {
        let phone = try Self.phone(hub, context)
        let call = try context.parameters.require("call")
        let event: ScenarioEvent
        switch call {
        case "authorize": event = .authorize
        case "authorizeAlways": event = .authorizeAlways
        case "request": event = .request
        case "locate": event = .locate
        default: throw APIError.notFound("no call \(call): authorize, authorizeAlways, request or locate")
        }
        phone.runner.apply(event)
        try await Self.settle(hub.clock)
        return Self.json(phone.state, status: .accepted)
      }
    }
    router.post("phones/:id/events") { request, context in
      try await Self.guarded {
        let phone = try Self.phone(hub, context)
        let text = try await body(request, as: Wire.Event.self).event
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
        guard
          let subscription = phone.events(
            history: max(0, min(history, ServedPhone.historyLimit)), maxClients: limits.maxEventClientsPerPhone)
        else {
          throw APIError.busy("phone \(phone.id) has its limit of \(limits.maxEventClientsPerPhone) event-stream clients")
        }
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
    router.get("traces") { _, _ in
      let names = try await NIOThreadPool.singleton.runIfActive { traces.names() }
      return Self.json(Wire.TraceList(directory: traces.directory != nil, maxBytes: traces.maxBytes, names: names))
    }
    router.get("clock") { _, _ in
      Self.json(Wire.Clock(virtual: hub.clock.isVirtual, elapsed: hub.elapsed.seconds))
    }
    router.post("clock/advance") { request, _ in
      try await Self.guarded {
        guard hub.clock.isVirtual else { throw APIError.conflict("the clock is real time: start the server with --virtual-time") }
        let seconds = try await body(request, as: Wire.ClockAdvance.self).seconds
        guard seconds.isFinite, seconds >= 0, seconds <= 864_000 else { throw APIError.bad("give \"seconds\": 0 to 864000") }
        do {
          try await hub.advance(by: .milliseconds(Int64((seconds * 1000).rounded())))
        } catch {
          throw APIError.conflict("\(error)")
        }
        return Self.json(Wire.Clock(virtual: true, elapsed: hub.elapsed.seconds))
      }
    }
    return router
  }

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
    let options = try traceOptions(format: run.format, speed: run.speed, loop: run.loop, offset: run.offset)
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
      backgroundLocationUpdates: new.backgroundLocationUpdates, promptAnswer: new.promptAnswer)
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

/// Refuses a request without the server's token (401), compared in constant time.
struct TokenCheck<Context: RequestContext>: RouterMiddleware {
  let token: String

  @concurrent
  func handle(_ request: Request, context: Context, next: @concurrent (Request, Context) async throws -> Response) async throws -> Response
  {
    // Leaflet's own files are public (Debian's library, nothing of the phones'): the page's
    // <script> and <link> cannot carry the token.
    // Only the exact names of its files, so no other route can be reached past the check.
    let path = request.uri.path
    if request.method == .get, path.hasPrefix("/leaflet/"), WorldMapPage.leafletFiles[String(path.dropFirst(9))] != nil {
      return try await next(request, context)
    }
    var given: Substring?
    if let header = request.headers[.authorization], header.hasPrefix("Bearer ") {
      given = header.dropFirst(7)
    } else if let query = request.uri.queryParameters["token"] {
      given = Substring(query)
    }
    guard let given, Self.same(Array(given.utf8), Array(token.utf8)) else {
      var response = PhoneServer.json(
        Wire.Failure(error: "this server needs its token: Authorization: Bearer TOKEN (locemu ctl --token, $LOCEMU_TOKEN)"),
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
package struct PhoneServerError: Error, CustomStringConvertible, Sendable {
  package var description: String
}
