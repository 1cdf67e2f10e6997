// Without the Servers trait (scripts/run.sh's demo build) locemu has no servers: no SwiftNIO, no Hummingbird.
#if Servers
  import ArgumentParser
  import Basemap
  import Emulator
  import Foundation
  import LostPetsApp
  import Geo
  import LocationModel
  import PermissionHandling
  import PhoneServer
  import ServiceLifecycle
  import UnixSignals

  #if canImport(Glibc)
    import Glibc
  #endif

  extension LocEmu {
    struct Serve: AsyncParsableCommand {
      static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve emulated phones over HTTP: a test script (any language) sets location and permission and reads them back.",
        discussion: """
          Runs phones until interrupted, each driven by HTTP JSON requests (routes in the \
          README and openapi.yaml; 'locemu ctl' speaks them from a shell): location set, \
          walked along a route at a speed, or cleared; permission granted/revoked/reset/restricted, Location Services, precise or \
          approximate accuracy, app foreground/background, the prompt's scripted answer, and \
          the app's own calls (authorize, request a location, locate). GET \
          /phones/ID/events streams the phone's transcript (the JSON lines of 'locemu \
          permissions') as server-sent events.

          With --nmea-listen, phone 1 is also a GPS receiver on a TCP port: each fix of its \
          source (set, route, trace, gpsd) goes out as NMEA (GGA, GSA, GSV, RMC, VTG) to every \
          client when it happens, the last fix again each second in between, empty sentences \
          while the fix is lost; under a realistic receiver ('ctl realism'), the receiver's \
          own epochs (its used set, sky, GST and GBS errors). 'gpsd -N -n tcp://HOST:PORT' \
          then serves the phone to any gpsd client. The port is read-only and has no token. Prints 'nmea on \
          tcp://HOST:PORT' once ready.

          Phone 1 starts with the state and source options below (no source unless one is \
          given: then only 'location set' moves it); --phones N starts N phones.

          With --map-features phone 1 runs the lost-pets app's map features as 'locemu \
          preview' does (its pins from --announcements): the map events tap, back, swipeBack \
          and retry apply through POST /phones/ID/events ('locemu ctl event tap'), and the \
          app's lines (preview, navigation, fullscreenMap, tapIgnored) join the phone's \
          event stream; the web page shows the app on the phone's card and taps it. POST \
          /phones makes such a phone with "mapFeatures": true.

          The permission prompt waits for its user, as a simulator's does: 'locemu ctl privacy \
          grant' (or 'ctl prompt ANSWER') answers it. --prompt-answer ANSWER [--prompt-delay S] \
          answers it by itself instead.

          On the real clock by default. With --virtual-time the clock moves only when told \
          (POST /clock/advance, 'locemu ctl clock advance S'): a remote test as deterministic \
          as one in process. Prints 'listening on http://HOST:PORT' on standard error once \
          ready (port 0 picks a free one).

          The web page at http://HOST:PORT/ (printed as 'page …' once ready) shows each \
          phone's state, its position and trail on a map, and drives it: click to set the \
          location or lay a route, permission, prompt and app state, traces to play. The map \
          shows land, sea and lakes anywhere in the world and Helsinki's streets from the \
          bundled maps (the repository's data/, or $LOCEMU_DATA); --basemap adds a city's. \
          GET /tiles/Z/X/Y.svg serves the same map as 256-pixel Web Mercator tiles (OpenStreetMap's \
          numbering) for any tile client; http://HOST:PORT/map shows every phone on a web map \
          over them (Leaflet, from Debian's libjs-leaflet on this machine): pan and zoom from \
          the world to a street, a click sets the chosen phone's location. With a network, \
          --tiles URL_TEMPLATE (an OpenStreetMap-style tile server, e.g. \
          'https://tile.openstreetmap.org/{z}/{x}/{y}.png', with --tiles-attribution as its terms \
          ask) puts its street map under both pages' maps; the offline map stays the default.

          Listens on loopback by default. Any other address needs a token: --token, or one \
          is made and printed ('token …' on standard error); then every request must carry \
          it (Authorization: Bearer TOKEN, or ?token=TOKEN for a browser) or gets 401.

          Traces for served phones come in the request (the body is the trace, at most \
          --max-trace-bytes) or by name from --traces DIR (a regular file inside DIR, its \
          real path checked); no request reads any other file. Limits answer 413 (too big), \
          408 (a body slower than --body-timeout) or 429 (--max-phones, \
          --max-event-clients, too much being received at once).

          Example: locemu serve --virtual-time --listen 127.0.0.1:0

          Exit status: 0 when interrupted (SIGINT or SIGTERM: the phones are stopped, the \
          requests in flight get 2 s to finish and are then cancelled; the process ends within \
          5 s whatever a client does); 1 when the address cannot be bound or a file cannot be \
          read; 64 for bad options.
          """
      )

      @Option(help: ArgumentHelp("Where to listen (loopback by default).", valueName: "HOST:PORT"))
      var listen: Endpoint = Endpoint(argument: "127.0.0.1:8947")!

      @Option(
        help: ArgumentHelp(
          "Also serve phone 1 as a GPS receiver: its fixes as NMEA (GGA, GSA, GSV, RMC, VTG) to every TCP client, for gpsd -N -n tcp://HOST:PORT.",
          valueName: "HOST:PORT"))
      var nmeaListen: Endpoint?

      @Option(parsing: .unconditional, help: ArgumentHelp("Phones to start with.", valueName: "N"))
      var phones: Int = 1

      @Option(
        help: ArgumentHelp(
          "Every request must carry this token (Authorization: Bearer TOKEN, or ?token= for the page): at least 16 characters without spaces. Required to listen beyond loopback: without it one is made and printed.",
          valueName: "TOKEN"))
      var token: String?

      @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
          "Seconds between keep-alive comments on event streams (a client that went away is noticed at the next).", valueName: "S"))
      var keepAlive: Double = 15

      @Option(
        help: ArgumentHelp(
          "Draw this basemap ('locemu basemap build') over the bundled maps; repeat to stack them, "
            + "a shoreline first (scripts/make-shoreline.sh's), then a city's streets.",
          valueName: "FILE"))
      var basemap: [String] = []

      @Flag(
        help: "Leave out the bundled maps (the world's land and sea, Helsinki's streets): only --basemap, else a plain grid.")
      var noBundledBasemaps = false

      @Option(help: ArgumentHelp("Traces that requests may play by name (regular files inside DIR only).", valueName: "DIR"))
      var traces: String?

      @Option(
        help: ArgumentHelp(
          "A tile server's street map under the pages' maps (OpenStreetMap-style {z}/{x}/{y}); the offline map stays a click away.",
          valueName: "URL_TEMPLATE"))
      var tiles: String?

      @Option(help: ArgumentHelp("The credit --tiles' terms ask for (plain text).", valueName: "TEXT"))
      var tilesAttribution = "© OpenStreetMap contributors"

      @Flag(
        help: "Phone 1 runs the lost-pets app's map features, as 'locemu preview' does (POST /phones: \"mapFeatures\": true).")
      var mapFeatures = false

      @Option(
        help: ArgumentHelp(
          "Where the lost-pets app of a phone with map features gets its pins: an announcements file or a server's base URL.",
          valueName: "FILE|URL"))
      var announcements: String?

      @Option(
        parsing: .unconditional, help: ArgumentHelp("The largest trace a request may play, uploaded or from --traces.", valueName: "BYTES"))
      var maxTraceBytes: Int = TraceIntake.defaultMaxBytes

      @Option(parsing: .unconditional, help: ArgumentHelp("Phones held at once: POST /phones beyond it is refused (429).", valueName: "N"))
      var maxPhones: Int = PhoneServer.Limits().maxPhones

      @Option(parsing: .unconditional, help: ArgumentHelp("Event-stream clients of one phone at once (429 beyond).", valueName: "N"))
      var maxEventClients: Int = PhoneServer.Limits().maxEventClientsPerPhone

      @Option(parsing: .unconditional, help: ArgumentHelp("Seconds a request body may take to arrive (408 beyond).", valueName: "S"))
      var bodyTimeout: Double = PhoneServer.Limits().bodyTimeout.seconds

      @OptionGroup var options: ScenarioOptions
      @OptionGroup var realismOptions: RealismOptions
      @OptionGroup var traceOptions: TraceOptions
      @OptionGroup var timeOptions: TimeBaseOptions
      var sources: ScenarioOptions.Sources { .init(realism: realismOptions, trace: traceOptions, time: timeOptions) }

      func validate() throws {
        try options.validate(sources)
        guard keepAlive >= 0.05, keepAlive <= 3600 else { throw ValidationError("--keep-alive must be 0.05 to 3600 seconds") }
        guard (1...1_000_000).contains(maxPhones) else { throw ValidationError("--max-phones must be 1 to 1000000") }
        guard (0...min(10_000, maxPhones)).contains(phones) else {
          throw ValidationError("--phones must be 0 to 10000 and at most --max-phones")
        }
        guard (1...100_000).contains(maxEventClients) else { throw ValidationError("--max-event-clients must be 1 to 100000") }
        guard (1...(1 << 30)).contains(maxTraceBytes) else { throw ValidationError("--max-trace-bytes must be 1 to 1073741824") }
        guard bodyTimeout >= 0.1, bodyTimeout <= 3600 else { throw ValidationError("--body-timeout must be 0.1 to 3600 seconds") }
        if nmeaListen != nil && phones < 1 { throw ValidationError("--nmea-listen serves phone 1: give --phones 1 or more") }
        if mapFeatures && phones < 1 { throw ValidationError("--map-features runs on phone 1: give --phones 1 or more") }
        try AnnouncementSource.validate(announcements, virtualTime: options.virtualTime)
        if !options.steps.isEmpty || options.duration != nil || options.control != nil {
          throw ValidationError("--at, --duration and --control script a run; a served phone is driven by requests")
        }
        if let tiles, let problem = StreetTiles.problem(url: tiles) { throw ValidationError("--tiles: \(problem)") }
        if let token, token.count < 16 || token.contains(where: { $0.isWhitespace }) {
          throw ValidationError("--token must be at least 16 characters without spaces")
        }
      }

      func run() async throws {
        let scenario = try options.makeScenario(command: "serve", mapEvents: false)
        let intake: TraceIntake
        do {
          intake = try TraceIntake(directory: traces, maxBytes: maxTraceBytes)
        } catch {
          throw CommandFailure("--traces: \(error)")
        }
        let sourceGiven = options.fixed != nil || options.trace != nil || options.gpsd != nil
        let source = sourceGiven ? try options.source(command: "serve", sources) : .none
        let hub = PhoneHub(virtualTime: options.virtualTime, announcements: try AnnouncementSource.open(announcements, command: "serve"))
        let first = PhoneSettings(
          permission: scenario.initial.appStatus, services: scenario.initial.servicesEnabled, accuracy: scenario.initial.accuracy,
          app: scenario.initial.app, backgroundLocationUpdates: scenario.initial.backgroundLocationUpdates,
          promptAnswer: options.promptAnswer, promptDelay: scenario.promptDelay, mapFeatures: mapFeatures ? true : nil)
        for n in 0..<phones {
          _ = await hub.create(
            n == 0 ? first : PhoneSettings(), source: n == 0 ? source : .none, sourceName: n == 0 && sourceGiven ? options.sourceName : nil)
        }

        // Beyond loopback anyone on the network could drive the phones: a token is required.
        var token = self.token
        if token == nil, !PhoneServer.isLoopback(listen.host) {
          token = PhoneServer.makeToken()
          printError("token \(token!) (every request needs 'Authorization: Bearer TOKEN'; locemu ctl --token or $LOCEMU_TOKEN)")
        }
        var server = PhoneServer(hub: hub, host: listen.host, port: listen.port, token: token, traces: intake)
        server.keepAliveInterval = .milliseconds(Int64(keepAlive * 1000))
        server.limits.maxPhones = maxPhones
        server.limits.maxEventClientsPerPhone = maxEventClients
        server.limits.bodyTimeout = .milliseconds(Int64(bodyTimeout * 1000))
        server.streetTiles = tiles.map { StreetTiles(url: $0, attribution: tilesAttribution) }
        do {
          if !noBundledBasemaps { server.basemaps = try BundledBasemaps.open() }
        } catch {
          await hub.shutdown()
          throw CommandFailure("\(error)")
        }
        for basemap in basemap {
          do {
            server.basemaps.append(try Basemap(path: basemap))
          } catch {
            await hub.shutdown()
            throw CommandFailure("--basemap: \(error)")
          }
        }
        var services: [any Service] = []
        if let nmeaListen, let first = hub.phone("1") {
          do {
            let feed = try await PhoneNMEAFeed.bind(
              phone: first.phone, epochs: first.receiverEpochs, host: nmeaListen.host, port: nmeaListen.port)
            services.append(feed)
            printError("nmea on tcp://\(Endpoint.shown(nmeaListen.host)):\(feed.port)")
          } catch {
            await hub.shutdown()
            throw CommandFailure("--nmea-listen: \(error)")
          }
        }
        let host = listen.host
        // SIGINT/SIGTERM end the server (the service group's graceful shutdown: phones, feed,
        // then the server, each bounded). Should anything still hold the process past the
        // bound, the watchdog ends it: a signal always ends `serve`.
        let grace = server.shutdownGrace
        let watchdog = Task.detached {
          for await _ in await UnixSignalsSequence(trapping: .sigterm, .sigint) {
            // Cancelled when the server ended in time.
            guard (try? await Task.sleep(for: grace * 2 + .seconds(1))) != nil else { return }
            printError("locemu serve: stopping took longer than \((grace * 2 + .seconds(1)).seconds) s; exiting")
            Foundation.exit(0)
          }
        }
        defer { watchdog.cancel() }
        do {
          let (guarded, generated) = (token != nil, self.token == nil ? token : nil)
          try await server.run(services: services) { port in
            let base = "http://\(Endpoint.shown(host)):\(port)"
            printError("listening on \(base)")
            // The page's address: with a token made here (already printed above), in full; with
            // the user's own --token, not written into logs: the user has it.
            switch (guarded, generated) {
            case (false, _): printError("page \(base)/")
            case (true, let made?): printError("page \(base)/?token=\(made)")
            case (true, nil): printError("page \(base)/?token=TOKEN (the --token given)")
            }
          }
        } catch let error as PhoneServerError {
          await hub.shutdown()
          throw CommandFailure("cannot listen on \(listen): \(error)")
        }
        printError("locemu serve: stopped")
      }
    }
  }
#endif
