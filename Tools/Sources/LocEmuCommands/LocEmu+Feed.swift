// Without the Servers trait (scripts/run.sh's demo build) locemu has no servers: no SwiftNIO, no Hummingbird.
#if Servers
  import ArgumentParser
  import Foundation
  import PhoneServer
  import Traces

  extension LocEmu {
    struct Feed: AsyncParsableCommand {
      static let configuration = CommandConfiguration(
        commandName: "feed",
        abstract: "Serve a trace as paced NMEA over TCP, for gpsd or any NMEA client.",
        discussion: """
          Every client that connects gets the whole trace from its start, paced \
          by the trace's time stamps. NMEA logs are sent as recorded, each time \
          stamp's sentences at its time (--reporting does not apply: gpsd does \
          its own reporting); GPX traces \
          as generated GGA + RMC sentences (points without times stamped from \
          now; --now or --start-time restamp the whole trace). \
          Point a real gpsd at it:

            locemu feed traces/city-walk.nmea --listen 127.0.0.1:4000 &
            gpsd -N -n -S 2948 tcp://127.0.0.1:4000

          and cgps, gpspipe or 'locemu watch --gpsd 127.0.0.1:2948' see the trace. \
          With --realism the trace is the truth and each client gets a seeded \
          receiver's epochs over it (its sky, used set, DOPs, errors in GST and \
          GBS, time to first fix and outages: see locemu simulate), the same bytes \
          for every client of a seed. \
          With port 0 the kernel picks a free port; the 'listening' line on \
          standard error and --port-file tell which. Runs until interrupted \
          (or, with --once, until the first client's trace ends).

          The trace is read through once before listening, so a file that cannot \
          be read or holds no epoch is an error at once, not for each client.

          Exit status: 0 with --once at the end of the first client's trace, and when \
          interrupted (Ctrl-C, SIGTERM: every client closed, the port released); 1 when the trace cannot be \
          read, holds no epoch, or the address cannot be bound; 64 for bad \
          options (a trace on standard input).
          """
      )

      @Argument(help: "The trace: an NMEA log, a GPX file or fix records (JSON lines).")
      var trace: String

      @Option(help: ArgumentHelp("Where to listen; port 0 picks a free port.", valueName: "HOST:PORT"))
      var listen: Endpoint

      @Option(parsing: .unconditional, help: ArgumentHelp("Replay speed, 0.1 to 1000 times real time.", valueName: "X"))
      var speed: Double = 1

      @Flag(help: "Start again at the end of the trace.")
      var loop = false

      @Option(help: ArgumentHelp("Write the port listened on to this file once listening.", valueName: "FILE"))
      var portFile: String?

      @Flag(help: "Exit when the first client's trace has ended.")
      var once = false

      @OptionGroup var realismOptions: RealismOptions
      @OptionGroup var traceOptions: TraceOptions
      @OptionGroup var timeOptions: TimeBaseOptions

      func validate() throws {
        guard ReplayOptions.speedRange.contains(speed) else {
          throw ValidationError("--speed must be between 0.1 and 1000, got \(speed)")
        }
      }

      func run() async throws {
        if self.trace == "-" {
          throw CommandFailure("every client gets the trace from its start, so it must be a file, not standard input", status: 64)
        }
        let trace = try traceOptions.trace(self.trace, command: "feed")
        // Read it through once before listening: a trace that cannot be read, or holds no
        // epoch, is an error now rather than for every client that connects.
        let epochs = try trace.check(command: "feed", wholeFile: true)
        let options = ReplayOptions(speed: speed, loop: loop, timeBase: timeOptions.timeBase(), untimedStart: Date())
        let receiver = try realismOptions.receiver(command: "feed")
        let server: NMEATCPServer
        do {
          server = try await NMEATCPServer.bind(host: listen.host, port: listen.port)
        } catch {
          throw CommandFailure("\(error)")
        }
        var feed = NMEATraceFeed(server: server, trace: trace, options: options) { line in printError("locemu feed: \(line)") }
        feed.once = once
        feed.receiver = receiver
        let endpoint = Endpoint(argument: "\(listen.host):\(server.port)").map { "\($0)" } ?? "\(server.port)"
        if let portFile {
          do {
            try "\(server.port)\n".write(toFile: portFile, atomically: true, encoding: .utf8)
          } catch {
            throw CommandFailure("cannot write \(portFile): \(error.localizedDescription)")
          }
        }
        printError("locemu feed: listening on \(endpoint), serving \(self.trace) (\(epochs) epochs)")
        // Ctrl-C or SIGTERM: every client closed, the port released, exit 0.
        let running = feed
        _ = try await untilSignal { try await running.run() }
      }
    }
  }
#endif
