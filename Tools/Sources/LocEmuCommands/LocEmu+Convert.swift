import ArgumentParser
import Foundation
import Geo
import LocationModel
import Traces

extension LocEmu {
  struct Convert: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "convert",
      abstract: "Convert a trace between NMEA, GPX and JSON lines of fix records (and from KML and GeoJSON).",
      discussion: """
        IN is an NMEA log, a GPX file, a KML file (gx:Track with times, \
        LineString, Point), a GeoJSON file (LineString, MultiLineString, Point, \
        features; times from properties.coordTimes), or JSON lines of fix \
        records (what decode, replay and watch print); its format comes from its \
        name or its content, or --format. \
        → GPX writes a GPX 1.1 track, one trkpt per fix (ele, time, geoidheight, \
        fix, sat, hdop, vdop); a stretch without a fix starts a new trkseg. → NMEA \
        writes a GGA and an RMC sentence per point (with the satellites used and \
        the fix quality the source gave), so that a GPX walk from Xcode can feed \
        gpsd. → JSON lines writes one fix record per fix. GPX points without times are walked at a constant \
        speed (--walk, --drive, --mps) and stamped from now, since NMEA needs \
        times (--start-time or --now restamp the whole trace).

        The output format comes from OUT's extension (.gpx, .jsonl, or .nmea/.log/.txt) \
        or --to; OUT may be - for standard output with --to. OUT is written as a \
        temporary file renamed at the end, so a conversion that fails leaves \
        OUT as it was; OUT may not be IN (or a link to it). On a terminal, standard \
        error shows how far into the trace's time the conversion is (--quiet: not).

        Example: locemu convert drive.nmea drive.gpx

        Exit status: 0 on success, 1 when IN cannot be read (or holds nothing \
        to convert) or OUT written, \
        64 for bad options (OUT the same file as IN).
        """
    )

    @Argument(help: "The trace to read (NMEA log, GPX or JSON lines of fix records), or - for standard input.")
    var input: String

    @Argument(help: "The file to write, or - for standard output.")
    var output: String

    @Option(help: ArgumentHelp("The output format; by default from OUT's extension.", valueName: "nmea|gpx|jsonl"))
    var to: Trace.Format?

    @OptionGroup var traceOptions: TraceOptions
    @OptionGroup var timeOptions: TimeBaseOptions

    @Flag(help: "No progress line on standard error (one is shown only when it is a terminal).")
    var quiet = false

    func validate() throws {
      if outputFormat == nil {
        throw ValidationError("cannot tell the output format from '\(output)': name it .gpx, .nmea or .jsonl, or give --to")
      }
      if let format = outputFormat, !format.isWritable {
        throw ValidationError("\(format.displayName) is read, not written: convert to nmea, gpx or jsonl")
      }
    }

    var outputFormat: Trace.Format? {
      if let to { return to }
      let lower = output.lowercased()
      if lower.hasSuffix(".gpx") { return .gpx }
      if lower.hasSuffix(".jsonl") || lower.hasSuffix(".ndjson") { return .jsonl }
      if lower.hasSuffix(".nmea") || lower.hasSuffix(".log") || lower.hasSuffix(".txt") { return .nmea }
      return nil
    }

    func run() async throws {
      if FileSink.sameFile(input, output) {
        throw CommandFailure("\(output) is the input file: write the conversion to another file", status: 64)
      }
      let trace = try traceOptions.trace(input, command: "convert")
      let format = outputFormat!
      // NMEA needs times: points without one are stamped from now.
      let replay = TraceReplay(
        trace: trace,
        options: ReplayOptions(speed: nil, timeBase: timeOptions.timeBase(), gapThreshold: nil, untimedStart: Date()),
        clock: ContinuousClock())
      let sink: FileSink
      do {
        sink = try FileSink(path: output)
      } catch {
        throw CommandFailure("\(error)")
      }
      var gpx = GPXWriter()
      // The trace's time converted so far (its length is not known before the end).
      let progress = ProgressLine("convert", unit: .seconds, quiet: quiet)
      defer { progress.finish() }
      var firstTime: Date?
      var epochs = 0
      var written = 0
      var untimed = 0
      do {
        if format == .gpx { try sink.write(gpx.header(name: input)) }
        for try await replayed in replay {
          epochs += 1
          if progress.isShown, let time = replayed.fix.timestamp {
            progress.update(Int64(time.timeIntervalSince(firstTime ?? time)), of: nil)
            if firstTime == nil { firstTime = time }
          }
          switch format {
          case .gpx:
            try sink.write(gpx.append(replayed.fix, receiver: replayed.epoch.receiver))
            if replayed.fix.hasFix { written += 1 }
          case .jsonl:
            try sink.write(FixRecord.json(replayed.fix) + "\n")
            written += 1
          case .kml, .geojson: break  // refused in validate()
          case .nmea:
            let sentences = NMEAWriter.sentences(for: replayed.fix, receiver: replayed.epoch.receiver)
            if sentences.isEmpty { untimed += 1 } else { written += 1 }
            for s in sentences { try sink.write(s + "\r\n") }
          }
        }
        if format == .gpx { try sink.write(gpx.footer()) }
        if epochs == 0 {
          // The sink goes away unrenamed: OUT stays as it was.
          throw CommandFailure(
            "\(input): nothing to convert: no epochs read as \(trace.format.displayName) (--format says what it is); \(output) not written")
        }
        try sink.close()
      } catch let exit as ExitCode {
        throw exit
      } catch {
        throw CommandFailure("\(error)")
      }
      progress.finish()
      var summary = "locemu convert: \(input) → \(output): \(epochs) epochs, \(written) written as \(format.displayName)"
      if untimed > 0 { summary += ", \(untimed) without a time skipped (give --start-time)" }
      printError(summary)
    }
  }
}
