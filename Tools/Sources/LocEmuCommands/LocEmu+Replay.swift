import ArgumentParser
import Emulator
import Geo
import LocationModel
import Traces

extension LocEmu {
  struct Replay: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "replay",
      abstract: "Replay a trace (NMEA log, GPX or fix records) as fix records, paced by its own time stamps.",
      discussion: """
        TRACE is an NMEA log, a GPX file (read as a stream: any size) or JSON \
        lines of fix records (what decode, replay and watch print, or gpsd's \
        TPV reports), or - for standard input; the format comes from the name, \
        else the first bytes, or --format.

        Prints one JSON fix record per epoch, with an added 'elapsed' member: \
        seconds since the start of the replay on the clock in use. Epoch n is \
        due at start + (t(n) - t(first)) / speed, deadline-based, so timing \
        error does not accumulate.

        Epochs without a fix are printed with mode 1. A pause in the trace \
        longer than --gap seconds (and 2.5 times its usual interval) is filled \
        with mode-1 records at the usual interval, as a receiver that lost its \
        fix reports them. GPX points without times are walked at a constant \
        speed (--walk, --drive, --mps), one record per second.

        --virtual-time runs on a virtual clock: no waiting, and 'elapsed' is \
        exactly the schedule, so output is the same on every run.

        Example: locemu replay traces/city-walk.nmea --speed 10 --count 5

        Exit status: 0 at the end of the trace (or --count), 1 when the trace \
        cannot be read or holds no epoch, 64 for bad options.
        """
    )

    @Argument(help: "The trace: an NMEA log, a GPX file, fix records (JSON lines), or - for standard input.")
    var trace: String

    @Option(parsing: .unconditional, help: ArgumentHelp("Replay speed, 0.1 to 1000 times real time (default 1).", valueName: "X"))
    var speed: Double?

    @Flag(help: "As fast as possible: no waiting at all (elapsed stays near 0).")
    var fast = false

    @Flag(help: "Start again at the end of the trace, its time line continuing.")
    var loop = false

    @Option(parsing: .unconditional, help: "Stop after N records.")
    var count: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("Skip this many seconds at the start of the trace.", valueName: "S"))
    var offset: Double = 0

    @Option(
      parsing: .unconditional, help: ArgumentHelp("Fill pauses longer than S seconds with no-fix records; 0 disables.", valueName: "S"))
    var gap: Double = 3

    @Flag(help: "Run on a virtual clock: instant and deterministic.")
    var virtualTime = false

    @OptionGroup var traceOptions: TraceOptions
    @OptionGroup var timeOptions: TimeBaseOptions

    func validate() throws {
      if let speed {
        if fast { throw ValidationError("give --fast or --speed, not both") }
        guard ReplayOptions.speedRange.contains(speed) else {
          throw ValidationError("--speed must be between 0.1 and 1000, got \(speed)")
        }
      }
      if let count, count < 1 { throw ValidationError("--count must be at least 1, got \(count)") }
      guard offset >= 0, offset.isFinite else { throw ValidationError("--offset must be 0 or more seconds") }
      guard gap >= 0, gap.isFinite else { throw ValidationError("--gap must be 0 or more seconds") }
    }

    var replayOptions: ReplayOptions {
      ReplayOptions(
        speed: fast ? nil : speed ?? 1, loop: loop, startOffset: offset, count: count, timeBase: timeOptions.timeBase(),
        gapThreshold: gap > 0 ? gap : nil)
    }

    func run() async throws {
      let trace = try traceOptions.trace(self.trace, command: "replay")
      if virtualTime {
        // On a virtual clock that moves as far as the replay needs: instant, and the same bytes every run.
        let clock = EmulatorClock()
        let replay = TraceReplay(trace: trace, options: replayOptions, clock: clock)
        let task = clock.spawn("replay") { () -> (any Error)? in
          do {
            try await play(replay, flushEach: false)
            return nil
          } catch {
            return error
          }
        }
        if let error = try await clock.advance(until: task, limit: .seconds(Int64.max / 2)) { throw error }
      } else {
        try await play(TraceReplay(trace: trace, options: replayOptions, clock: ContinuousClock()), flushEach: true)
      }
    }

    private func play<C: Clock>(_ replay: TraceReplay<C>, flushEach: Bool) async throws {
      let format = replay.trace.format
      var output = OutputBuffer()
      var records = 0
      var fixes = 0
      do {
        for try await replayed in replay {
          records += 1
          if replayed.fix.hasFix { fixes += 1 }
          output.writeLine(FixRecord.json(replayed.fix, extra: [("elapsed", FixRecord.fixed(replayed.elapsed.seconds, 3))]))
          if flushEach { output.flush() }
        }
      } catch {
        output.flush()
        throw CommandFailure("\(error)")
      }
      output.flush()
      if records == 0 {
        throw CommandFailure("\(trace): nothing to replay: no epochs read as \(format.displayName) (--format says what it is)")
      }
      printError("locemu replay: \(trace): \(records) records, \(fixes) with a fix")
    }
  }
}
