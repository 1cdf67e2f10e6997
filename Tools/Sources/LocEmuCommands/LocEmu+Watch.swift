import ArgumentParser
import GPSD
import Geo
import LocationModel

extension LocEmu {
  struct Watch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "watch",
      abstract: "Print fix records from a running gpsd (through libgps).",
      discussion: """
        Connects to gpsd, asks for its reports and prints one JSON fix record \
        per epoch (gpsd's several reports of one epoch merged; no-fix as mode 1). \
        When gpsd goes away or restarts, watch reconnects with a capped backoff \
        and goes on; connections and losses are reported on standard error.

        Example: locemu watch --gpsd 127.0.0.1:2947 --count 10 > drive.jsonl

        Exit status: 0 after --count records or when interrupted (Ctrl-C, SIGTERM), 1 \
        when gpsd could not be reached, or sent nothing, for --timeout seconds; \
        64 for bad options.
        """
    )

    @Option(help: ArgumentHelp("The gpsd to read.", valueName: "HOST:PORT"))
    var gpsd: Endpoint = Endpoint(argument: "127.0.0.1:2947")!

    @Option(parsing: .unconditional, help: "Stop after N records.")
    var count: Int?

    @Option(
      parsing: .unconditional, help: ArgumentHelp("Give up after S seconds without a connection or without a record.", valueName: "S"))
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
      let progress = Progress()
      let report = gpsdEventReporter(command: "watch")
      let source = GPSDSource(
        configuration: .init(
          host: gpsd.host, port: gpsd.port, device: device, connectTimeout: timeout,
          onEvent: { [progress] event in
            if case .connected = event { progress.connected() }
            report(event)
          }))
      let limit = count
      let fixOnly = self.fixOnly
      let printed: Int
      do {
        // Ctrl-C or SIGTERM end the watch like --count: what was printed is complete, exit 0.
        let watched = try await untilSignal { () async throws -> Int in
          try await withThrowingTaskGroup(of: Int?.self) { group in
            group.addTask {
              var output = OutputBuffer()
              for try await fix in source {
                if fixOnly && !fix.hasFix { continue }
                output.writeLine(FixRecord.json(fix))
                output.flush()
                let n = progress.bump()
                if let limit, n >= limit { return n }
              }
              return progress.value
            }
            group.addTask {
              // Idle watchdog: connected, and no record for `timeout` since the connection or the
              // last record, ends the watch with an error. (Before a connection, the source's own
              // connect timeout applies.) A deadline from the last record: not up to twice as long.
              while true {
                guard let last = progress.last else {
                  try await Task.sleep(for: timeout)
                  continue
                }
                try await Task.sleep(until: last + timeout, clock: .continuous)
                if let last = progress.last, last + timeout <= .now { return nil }
              }
            }
            let first = try await group.next()!
            group.cancelAll()
            guard let first else { throw WatchIdle() }
            return first
          }
        }
        printed = watched ?? progress.value
      } catch is WatchIdle {
        throw CommandFailure("no record from gpsd at \(gpsd) for \(self.timeout) s")
      } catch let error as GPSDError {
        throw CommandFailure("\(error)")
      }
      printError("locemu watch: \(printed) records from gpsd at \(gpsd)")
    }
  }
}

private struct WatchIdle: Error {}

/// Records printed, and when the connection or the last record came (nil before a connection).
private final class Progress: Sendable {
  private let state = Locked<(count: Int, last: ContinuousClock.Instant?)>((0, nil))
  var value: Int { state.withLock { $0.count } }
  var last: ContinuousClock.Instant? { state.withLock { $0.last } }
  func connected() { state.withLock { $0.last = .now } }
  func bump() -> Int {
    state.withLock {
      $0.count += 1
      $0.last = .now
      return $0.count
    }
  }
}
