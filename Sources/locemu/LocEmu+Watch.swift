import ArgumentParser
import GPSD
import Geo

extension LocEmu {
  struct Watch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Print fix records from a running gpsd (through libgps).",
      discussion: """
        Connects to gpsd, asks for its reports and prints one JSON fix record \
        per epoch (gpsd's several reports of one epoch merged; no-fix as mode 1). \
        When gpsd goes away or restarts, watch reconnects with a capped backoff \
        and goes on; connections and losses are reported on standard error.

        Example: locemu watch --gpsd 127.0.0.1:2947 --count 10 > drive.jsonl

        Exit status: 0 after --count records, 130 when interrupted (Ctrl-C), 143 on SIGTERM, 1 \
        when gpsd could not be reached, or sent nothing, for --timeout seconds; \
        64 for bad options.
        """
    )

    @Option(help: ArgumentHelp("The gpsd to read.", valueName: "HOST:PORT"))
    var gpsd: Endpoint = Endpoint(argument: "127.0.0.1:2947")!

    @Option(parsing: .unconditional, help: "Stop after N records.")
    var count: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("Give up after S seconds without a connection or without a record.", valueName: "S"))
    var timeout: Double = 10

    @Option(help: ArgumentHelp("Watch only this device, as gpsd names it.", valueName: "PATH"))
    var device: String?

    @Flag(help: "Print only records with a 2D or 3D fix.")
    var fixOnly = false

    func validate() throws {
      if let count, count < 1 { throw ValidationError("--count must be at least 1, got \(count)") }
      guard timeout > 0, timeout <= 86_400 else { throw ValidationError("--timeout must be between 0 and 86400 seconds") }
    }

    func run() async throws {
      let timeout = Duration.milliseconds(Int64(timeout * 1000))
      let source = GPSDSource(
        configuration: .init(
          host: gpsd.host, port: gpsd.port, device: device, connectTimeout: timeout,
          onEvent: { event in
            switch event {
            case .connected(let endpoint): printError("locemu watch: connected to gpsd at \(endpoint)")
            case .disconnected(let error, let retry):
              printError("locemu watch: \(error); retrying in \(FixRecord.fixed(retry.seconds, 1)) s")
            case .problem(let error): printError("locemu watch: \(error)")
            case .stopped: break
            }
          }))
      let limit = count
      let fixOnly = self.fixOnly
      let printed: Int
      do {
        printed = try await withThrowingTaskGroup(of: Int?.self) { group in
          let progress = Progress()
          group.addTask {
            var output = OutputBuffer()
            for try await fix in source {
              if fixOnly && !fix.hasFix { continue }
              output.writeLine(FixRecord.json(fix))
              output.flush()
              let n = await progress.bump()
              if let limit, n >= limit { return n }
            }
            return await progress.value
          }
          group.addTask {
            // Idle watchdog: no record for `timeout` ends the watch with an error.
            var seen = -1
            while true {
              try await Task.sleep(for: timeout)
              let now = await progress.value
              if now == seen { return nil }
              seen = now
            }
          }
          let first = try await group.next()!
          group.cancelAll()
          guard let first else { throw WatchIdle() }
          return first
        }
      } catch is WatchIdle {
        printError("locemu watch: no record from gpsd at \(gpsd) for \(self.timeout) s")
        throw ExitCode(1)
      } catch let error as GPSDError {
        printError("locemu watch: \(error)")
        throw ExitCode(1)
      }
      printError("locemu watch: \(printed) records from gpsd at \(gpsd)")
    }
  }
}

private struct WatchIdle: Error {}

private actor Progress {
  var value = 0
  func bump() -> Int {
    value += 1
    return value
  }
}
