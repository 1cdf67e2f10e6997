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
import MapRendering
package import Basemap
import Traces
package import ServiceLifecycle
import UnixSignals
import NIOPosix
import LocationModel

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
  /// A tile server whose tiles the web pages' maps show under the phones (`serve --tiles`),
  /// the server's own offline tiles one choice away; nil: the offline tiles only.
  package var streetTiles: StreetTiles?
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

  /// The routes, for a server or a test: the pages, the phones, the traces and the clock, each
  /// a route collection of its own (`PhoneServer+…Routes.swift`), behind the token when set.
  package func makeRouter() -> Router<BasicRequestContext> {
    let router = Router()
    let reader = BodyReader(timeout: limits.bodyTimeout, budget: ByteBudget(limit: limits.maxBodyBytesInFlight))
    hub.maxPhones = limits.maxPhones
    let body = JSONBody(reader: reader, limit: limits.maxBodyBytes)
    if let token { router.add(middleware: TokenCheck(token: token)) }
    router.addRoutes(pageRoutes(body))
    router.addRoutes(phoneRoutes(body))
    router.addRoutes(clockRoutes(body))
    return router
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
