import ArgumentParser
import Geo
import NMEA
import Traces

#if canImport(Glibc)
  import Glibc
#endif

extension LocEmu {
  struct Decode: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Decode an NMEA 0183 log into one fix record per epoch.",
      discussion: """
        Reads FILE (or standard input for -) as NMEA 0183 and prints one JSON \
        fix record per epoch (the sentences of one time stamp merged). Bad \
        lines are counted and skipped; a one-line summary goes to standard \
        error: lines read, sentences accepted, rejected by reason (checksum, \
        framing, unknown), epochs and fixes.

        Dates come from RMC and ZDA sentences. A '# Date: yyyy-mm-dd' header \
        line sets the century of two-digit years and the reference for GPS \
        week-rollover correction; --date does the same and also dates the \
        epochs of logs that carry no date at all.

        Exit status: 0 when the input was read (even if it held no fix), \
        1 when it could not be read, 64 for bad options.
        """
    )

    @Option(help: ArgumentHelp("The UTC date of the log's first epoch, for logs without a date (YYYY-MM-DD).", valueName: "YYYY-MM-DD"))
    var date: String?

    @Flag(help: "Also print epochs without a fix (mode 1).")
    var all = false

    @Argument(help: "The NMEA log, or - for standard input.", completion: .file(extensions: ["nmea", "log", "txt"]))
    var file: String

    func validate() throws {
      if let date {
        guard let parsed = NMEADate(iso: date) else {
          throw ValidationError("--date must be a calendar date as YYYY-MM-DD, got '\(date)'")
        }
        guard NMEATimestamp.representableYears.contains(parsed.year) else {
          throw ValidationError("--date must be between 1700 and 2200, got '\(date)'")
        }
      }
    }

    func run() throws {
      let options = NMEAEpochAssembler.Options(date: date.flatMap { NMEADate(iso: $0) })
      var output = OutputBuffer()
      let statistics: NMEADecoderStatistics
      do {
        statistics = try NMEAFileDecoder.decode(path: file, options: options) { fix in
          guard all || fix.mode >= .twoD else { return }
          output.writeLine(FixRecord.json(LocationFix(fix)))
        }
      } catch let error as TraceFileError {
        output.flush()
        printError("locemu decode: \(error)")
        throw ExitCode(1)
      }
      output.flush()
      printError("locemu decode: \(file): \(statistics.summary)")
    }
  }
}
