import ArgumentParser
import Dispatch
import Foundation
import GPSD
import Geo
import LocationEmulatorClient
import Traces
import LocationModel
import NMEA

#if canImport(Glibc)
  import Glibc
#endif

extension LocEmu {
  struct Record: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "record",
      abstract: "Record a live receiver (through gpsd) or a served phone as a trace that replay and feed play back.",
      discussion: """
        Drive once with a USB GPS, replay the drive in CI for ever. To OUT.nmea goes the \
        raw NMEA gpsd relays from its receiver, as received, after a '# Date:' header (the \
        receiver's date, for sentences without one); to OUT.gpx a GPX track of gpsd's fixes \
        with every member GPX holds (time, position, elevation, speed, course, accuracy as \
        hdop/vdop, fix type). 'locemu replay' and 'locemu feed' play either back.

        With --server URL [--phone ID], the fixes a phone of 'locemu serve' delivers to its \
        app are recorded instead (as NMEA epochs or GPX points).

        Recording ends after --count epochs, after --duration seconds, or on Ctrl-C / \
        SIGTERM; the file is complete in every case (a GPX file gets its closing tags). \
        OUT is not replaced unless --force. On a terminal, standard error shows the \
        epochs recorded (of --count) or the seconds (of --duration) as they go (--quiet: not).

        Example: locemu record --gpsd 127.0.0.1:2947 drive.nmea --duration 600

        Exit status: 0 recorded (also when interrupted); 1 gpsd or the server could not be \
        reached, went away, or OUT cannot be written; 64 bad options.
        """
    )

    @Argument(help: ArgumentHelp("The trace to write: .nmea (raw sentences) or .gpx.", valueName: "OUT"))
    var output: String

    @Option(help: ArgumentHelp("The gpsd to record (default 127.0.0.1:2947).", valueName: "HOST:PORT"))
    var gpsd: Endpoint?

    @OptionGroup(title: "A served phone") var served: ServedPhoneOptions

    @Option(help: ArgumentHelp("OUT's format; by default from its name.", valueName: "nmea|gpx"))
    var format: Trace.Format?

    @Option(parsing: .unconditional, help: "Stop after N epochs.")
    var count: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("Stop after S seconds.", valueName: "S"))
    var duration: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("Give up after S seconds without a connection.", valueName: "S"))
    var timeout: Double = 10

    @Flag(help: "Replace OUT if it exists.")
    var force = false

    @Flag(help: "No progress line on standard error (one is shown only when it is a terminal).")
    var quiet = false

    var outputFormat: Trace.Format? {
      if let format { return format }
      if output.hasSuffix(".gpx") { return .gpx }
      if output.hasSuffix(".nmea") || output.hasSuffix(".log") || output.hasSuffix(".txt") { return .nmea }
      return nil
    }

    func validate() throws {
      if gpsd != nil && served.server != nil { throw ValidationError("give --gpsd or --server, not both") }
      guard let outputFormat else { throw ValidationError("OUT must end in .nmea or .gpx (or give --format)") }
      if outputFormat == .jsonl { throw ValidationError("record writes nmea or gpx (for fix records: locemu watch > FILE.jsonl)") }
      if let count, count < 1 { throw ValidationError("--count must be at least 1") }
      if let duration, !(duration > 0 && duration <= 864_000) { throw ValidationError("--duration must be above 0 and at most 864000") }
      guard timeout > 0, timeout <= 86_400 else { throw ValidationError("--timeout must be above 0 and at most 86400") }
    }

    func run() async throws {
      if FileManager.default.fileExists(atPath: output) && !force {
        throw CommandFailure("\(output) exists; --force replaces it")
      }
      guard FileManager.default.createFile(atPath: output, contents: nil), let file = FileHandle(forWritingAtPath: output) else {
        throw CommandFailure("cannot write \(output): \(String(cString: strerror(errno)))")
      }
      let sink = TraceRecorder(file: file, format: outputFormat ?? .nmea, name: output)
      let started = ContinuousClock.now
      // Of --count epochs, or of --duration seconds, or the epochs so far; redrawn as epochs come.
      let progress = ProgressLine("record", unit: count == nil && duration != nil ? .seconds : .epochs, quiet: quiet)
      let count = count, duration = duration
      let recorded: @Sendable (Int) -> Void = { epochs in
        if let count {
          progress.update(Int64(epochs), of: Int64(count))
        } else if let duration {
          progress.update(Int64((ContinuousClock.now - started).seconds), of: Int64(duration.rounded(.up)))
        } else {
          progress.update(Int64(epochs), of: nil)
        }
      }
      // Ctrl-C, SIGTERM and --duration end the recording; the file is finished either way.
      var failure: (any Error)?
      do {
        _ = try await untilSignal { [self] in
          try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
              if let remote = served.remote {
                try await recordServedPhone(remote, into: sink, recorded: recorded)
              } else if outputFormat == .gpx {
                try await recordFixes(into: sink, recorded: recorded)
              } else {
                try await recordSentences(into: sink, recorded: recorded)
              }
            }
            if let duration { group.addTask { try await Task.sleep(for: .milliseconds(Int64(duration * 1000))) } }
            try await group.next()
            group.cancelAll()
          }
        }
      } catch is CancellationError {
      } catch {
        failure = error
      }
      sink.finish()
      progress.finish()
      let seconds = FixRecord.fixed((ContinuousClock.now - started).seconds, 1)
      printError("locemu record: \(output): \(sink.epochs) epochs in \(seconds) s")
      if let failure {
        // Nothing recorded: no empty trace left behind to be mistaken for one.
        if sink.epochs == 0 { try? FileManager.default.removeItem(atPath: output) }
        throw CommandFailure("\(failure)")
      }
    }

    /// gpsd's raw sentences, as received. An epoch is a time stamp: it begins with the first
    /// sentence whose time differs from the one before (sentences without a time, GSA and GSV,
    /// belong to the epoch they come in), so `--count N` stops before the (N+1)-th begins.
    /// `recorded` is told the epochs written after each write.
    func recordSentences(into sink: TraceRecorder, recorded: @Sendable (Int) -> Void) async throws {
      let endpoint = gpsd ?? Endpoint(argument: "127.0.0.1:2947")!
      for try await sentence in GPSDSentenceSource(
        host: endpoint.host, port: endpoint.port, connectTimeout: .milliseconds(Int64(timeout * 1000)))
      {
        if !sink.write(sentence: sentence, epochLimit: count) { return }
        recorded(sink.epochs)
      }
    }

    /// gpsd's fixes (one per epoch, through libgps) as GPX points.
    func recordFixes(into sink: TraceRecorder, recorded: @Sendable (Int) -> Void) async throws {
      let endpoint = gpsd ?? Endpoint(argument: "127.0.0.1:2947")!
      let source = GPSDSource(
        configuration: .init(
          host: endpoint.host, port: endpoint.port, connectTimeout: .milliseconds(Int64(timeout * 1000)),
          onEvent: gpsdEventReporter(command: "record")))
      for try await fix in source where fix.hasFix {
        sink.write(fix: fix)
        recorded(sink.epochs)
        if let count, sink.epochs >= count { return }
      }
    }

    /// The fixes a served phone delivers to its app.
    func recordServedPhone(_ phone: RemotePhone, into sink: TraceRecorder, recorded: @Sendable (Int) -> Void) async throws {
      let events = try await phone.transcript()
      for try await event in events where event.event == "fix" {
        guard let fix = FixRecord.fix(event.members) else { continue }
        sink.write(fix: fix)
        recorded(sink.epochs)
        if let count, sink.epochs >= count { return }
      }
      throw EmulatorClientError.unreachable("the server ended phone \(phone.id)'s event stream")
    }
  }
}
