// Without the Servers trait (scripts/run.sh's demo build) locemu has no servers: no SwiftNIO, no Hummingbird.
#if Servers
  import AnnouncementServer
  import ArgumentParser
  import Foundation
  import Geo
  import LocationModel
  import PetMap

  extension LocEmu {
    struct ServeAnnouncements: AsyncParsableCommand {
      static let configuration = CommandConfiguration(
        commandName: "serve-announcements",
        abstract: "Serve an announcements file as the lost-pets backend over HTTP.",
        discussion: """
          GET /api/v1/announcements?lat=X&lng=Y&range=KM[&limit=N] answers with the \
          announcements object ({"announcements": [...]}): the file's ACTIVE and FOUND \
          announcements within range km of lat,lng (great-circle), newest first, at \
          most limit. Without lat and lng, all of them; range defaults to 10. Bad \
          parameters answer 400 with {"error": "..."}.

          Prints "listening on http://HOST:PORT" on standard output once it accepts \
          connections (with --listen HOST:0, the port the system chose), and serves \
          until it is interrupted or terminated.

          --delay and --fail-with make the server slow or failing, for tests of a \
          client's timeout and error paths.

          Example: locemu serve-announcements traces/announcements.json --listen 127.0.0.1:8080

          Exit status: 0 when interrupted (Ctrl-C, SIGTERM: the server stops cleanly); 1 the file cannot be read or the address cannot be bound; 64 bad options.
          """
      )

      @Argument(help: ArgumentHelp("The announcements file (JSON).", valueName: "FILE"))
      var file: String

      @Option(help: ArgumentHelp("Address to listen on.", valueName: "HOST:PORT"))
      var listen: Endpoint = Endpoint(argument: "127.0.0.1:8080")!

      @Option(parsing: .unconditional, help: ArgumentHelp("Seconds to wait before every answer.", valueName: "S"))
      var delay: Double = 0

      @Option(help: ArgumentHelp("Answer every request with this HTTP status instead.", valueName: "STATUS"))
      var failWith: Int?

      func validate() throws {
        guard delay >= 0, delay <= 3600 else { throw ValidationError("--delay must be 0 to 3600 seconds") }
        if let failWith, !(400...599).contains(failWith) { throw ValidationError("--fail-with must be an HTTP error status (400–599)") }
      }

      func run() async throws {
        let repository: FileAnnouncementRepository
        do {
          repository = try FileAnnouncementRepository(contentsOf: file)
        } catch {
          throw CommandFailure("\(error)")
        }
        // Said once listening, so that a failure to listen is the only line.
        let summary =
          "locemu serve-announcements: \(file): \(repository.all.count) announcements (\(repository.dropped))"
        let server = AnnouncementServer(
          repository: repository, host: listen.host, port: listen.port,
          behaviour: .init(delay: .milliseconds(Int64(delay * 1000)), failureStatus: failWith))
        let host = listen.host
        do {
          // Ctrl-C or SIGTERM: the server stops, exit 0.
          _ = try await untilSignal {
            try await server.run { port in
              var output = OutputBuffer()
              output.writeLine("listening on http://\(host):\(port)")
              output.flush()
              printError(summary)
            }
          }
        } catch {
          throw CommandFailure("cannot listen on \(listen): \(error)")
        }
      }
    }
  }
#endif
