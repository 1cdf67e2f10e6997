import ArgumentParser
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

        Phone 1 starts with the state and source options below (no source unless one is \
        given: then only 'location set' moves it); --phones N starts N phones.

        On the real clock by default. With --virtual-time the clock moves only when told \
        (POST /clock/advance, 'locemu ctl clock advance S'): a remote test as deterministic \
        as one in process. Prints 'listening on http://HOST:PORT' on standard error once \
        ready (port 0 picks a free one).

        Example: locemu serve --virtual-time --listen 127.0.0.1:0

        Exit status: 0 when interrupted (SIGINT or SIGTERM: the phones are stopped and the \
        server ends cleanly); 1 when the address cannot be bound or a file cannot be read; \
        64 for bad options.
        """
    )

    @Option(help: ArgumentHelp("Where to listen (loopback by default).", valueName: "HOST:PORT"))
    var listen: Endpoint = Endpoint(argument: "127.0.0.1:8947")!

    @Option(parsing: .unconditional, help: ArgumentHelp("Phones to start with.", valueName: "N"))
    var phones: Int = 1

    @OptionGroup var options: ScenarioOptions

    func validate() throws {
      guard (0...10_000).contains(phones) else { throw ValidationError("--phones must be 0 to 10000") }
      if !options.steps.isEmpty || options.duration != nil || options.control != nil {
        throw ValidationError("--at, --duration and --control script a run; a served phone is driven by requests")
      }
      if !["127.0.0.1", "::1", "localhost"].contains(listen.host) {
        throw ValidationError("serve binds loopback only (127.0.0.1, ::1): it has no authentication yet")
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
      for n in 0..<phones { _ = await hub.create(n == 0 ? first : PhoneSettings(), source: n == 0 ? source : .none) }

      let server = PhoneServer(hub: hub, host: listen.host, port: listen.port)
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
        await hub.shutdown()
        printError("locemu serve: cannot listen on \(listen): \(error)")
        throw ExitCode(1)
      }
      await hub.shutdown()
      printError("locemu serve: stopped")
    }
  }
}
