import ArgumentParser
import Basemap
import Dispatch
import Emulator
import Foundation
import Geo
import PermissionHandling
import PhoneServer

#if canImport(Glibc)
  import Glibc
#endif

extension LocEmu {
  struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
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
        while the fix is lost; 'gpsd -N -n tcp://HOST:PORT' then serves the phone to any \
        gpsd client. The port is read-only and has no token. Prints 'nmea on \
        tcp://HOST:PORT' once ready.

        Phone 1 starts with the state and source options below (no source unless one is \
        given: then only 'location set' moves it); --phones N starts N phones.

        On the real clock by default. With --virtual-time the clock moves only when told \
        (POST /clock/advance, 'locemu ctl clock advance S'): a remote test as deterministic \
        as one in process. Prints 'listening on http://HOST:PORT' on standard error once \
        ready (port 0 picks a free one).

        Listens on loopback by default. Any other address needs a token: --token, or one \
        is made and printed ('token …' on standard error); then every request must carry \
        it (Authorization: Bearer TOKEN, or ?token=TOKEN for a browser) or gets 401.

        Example: locemu serve --virtual-time --listen 127.0.0.1:0

        Exit status: 0 when interrupted (SIGINT or SIGTERM: the phones are stopped and the \
        server ends cleanly); 1 when the address cannot be bound or a file cannot be read; \
        64 for bad options.
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
        "Every request must carry this token (Authorization: Bearer TOKEN). Required to listen beyond loopback: without it one is made and printed.",
        valueName: "TOKEN"))
    var token: String?

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp("Seconds between keep-alive comments on event streams (a client that went away is noticed at the next).", valueName: "S"))
    var keepAlive: Double = 15

    @Option(help: ArgumentHelp("Draw the phones' maps (map.svg, the web page) over this basemap ('locemu basemap build').", valueName: "FILE"))
    var basemap: String?

    @OptionGroup var options: ScenarioOptions

    func validate() throws {
      guard keepAlive >= 0.05, keepAlive <= 3600 else { throw ValidationError("--keep-alive must be 0.05 to 3600 seconds") }
      guard (0...10_000).contains(phones) else { throw ValidationError("--phones must be 0 to 10000") }
      if nmeaListen != nil && phones < 1 { throw ValidationError("--nmea-listen serves phone 1: give --phones 1 or more") }
      if !options.steps.isEmpty || options.duration != nil || options.control != nil {
        throw ValidationError("--at, --duration and --control script a run; a served phone is driven by requests")
      }
      if let token, token.count < 16 || token.contains(where: { $0.isWhitespace }) {
        throw ValidationError("--token must be at least 16 characters without spaces")
      }
    }

    func run() async throws {
      let scenario = try options.makeScenario(command: "serve", mapEvents: false)
      let sourceGiven = options.fixed != nil || options.trace != nil || options.gpsd != nil
      let source = sourceGiven ? try options.source(command: "serve") : .none
      let hub = PhoneHub(virtualTime: options.virtualTime)
      let first = PhoneSettings(
        permission: scenario.initial.appStatus, services: scenario.initial.servicesEnabled, accuracy: scenario.initial.accuracy,
        app: scenario.initial.app, backgroundLocationUpdates: scenario.initial.backgroundLocationUpdates,
        promptAnswer: scenario.promptAnswer, promptDelay: scenario.promptDelay)
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
      let feed: PhoneNMEAFeed?
      if let nmeaListen, let first = hub.phone("1") {
        do {
          feed = try await PhoneNMEAFeed.start(phone: first.phone, host: nmeaListen.host, port: nmeaListen.port)
        } catch {
          await hub.shutdown()
          printError("locemu serve: --nmea-listen: \(error)")
          throw ExitCode(1)
        }
        let shown = nmeaListen.host.contains(":") ? "[\(nmeaListen.host)]" : nmeaListen.host
        printError("nmea on tcp://\(shown):\(feed?.port ?? 0)")
      } else {
        feed = nil
      }
      var server = PhoneServer(hub: hub, host: listen.host, port: listen.port, token: token)
      server.keepAliveInterval = .milliseconds(Int64(keepAlive * 1000))
      if let basemap {
        do {
          server.basemap = try Basemap(path: basemap)
        } catch {
          await feed?.stop()
          await hub.shutdown()
          printError("locemu serve: --basemap: \(error)")
          throw ExitCode(1)
        }
      }
      let host = listen.host
      let stop = PhoneServer.StopHandle()
      let serving = Task {
        try await server.run(handlesSignals: false, stop: stop) { port in
          let shown = host.contains(":") ? "[\(host)]" : host
          printError("listening on http://\(shown):\(port)")
        }
      }
      // SIGINT/SIGTERM end the server: the phones stop first (which ends every event stream,
      // so no response is left open for the graceful shutdown to wait on), then the server
      // stops accepting and finishes what it is sending, and the process ends with 0.
      let stopping = Locked(false)
      let signals = [SIGINT, SIGTERM].map { number -> any DispatchSourceSignal in
        signal(number, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
        source.setEventHandler {
          guard !stopping.withLock({ stopped in defer { stopped = true }; return stopped }) else { return }
          Task {
            await feed?.stop()
            await hub.shutdown()
            await stop.stop()
          }
        }
        source.resume()
        return source
      }
      defer { for source in signals { source.cancel() } }
      do {
        try await serving.value
      } catch is CancellationError {
      } catch let error as PhoneServerError {
        await feed?.stop()
        await hub.shutdown()
        printError("locemu serve: cannot listen on \(listen): \(error)")
        throw ExitCode(1)
      }
      await feed?.stop()
      await hub.shutdown()
      printError("locemu serve: stopped")
    }
  }
}
