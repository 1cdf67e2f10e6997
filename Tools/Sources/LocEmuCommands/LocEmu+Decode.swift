import ArgumentParser
import Foundation
import Geo
import NMEA
import Traces
import LocationModel

#if canImport(Glibc)
  import Glibc
#endif

extension LocEmu {
  struct Decode: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "decode",
      abstract: "Decode an NMEA 0183 log into one fix record per epoch.",
      discussion: """
        Reads FILE (or standard input for -) as NMEA 0183 and prints one JSON \
        fix record per epoch (the sentences of one time stamp merged). Bad \
        lines are counted and skipped; a one-line summary goes to standard \
        error: lines read, sentences accepted, rejected by reason (checksum, \
        framing, unknown), epochs and fixes.

        By default epochs are reported as gpsd reports them: gpsd learns which \
        sentence ends the receiver's reporting cycle and reports each epoch as it \
        stood at that sentence; an epoch without it is not reported (counted as \
        'unreported'). --reporting every-time-stamp reports every epoch with \
        all of its sentences.

        A regular file is decoded on every core, a few megabytes at a time, \
        with the same output as decoding it from start to end on one.

        Dates come from RMC and ZDA sentences. A '# Date: yyyy-mm-dd' header \
        line sets the century of two-digit years and the reference for GPS \
        week-rollover correction; --date does the same and also dates the \
        epochs of logs that carry no date at all. Without either, no rollover \
        is corrected unless --rollover-reference gives the date to resolve \
        against (gpsd uses the day it started).

        Example: locemu decode --all receiver.log > fixes.jsonl

        On a terminal, standard error shows the bytes of a large file decoded so far (--quiet: \
        not).

        Exit status: 0 when the input was read (even if it held no fix), \
        1 when it could not be read, 64 for bad options.
        """
    )

    @OptionGroup
    var nmea: NMEAOptions

    @Flag(help: "Also print epochs without a fix (mode 1).")
    var all = false

    /// How much of the file one thread decodes at a time: a test's small file then goes through
    /// the parallel decoder too.
    @Option(help: ArgumentHelp("Bytes of the file a thread decodes at a time.", visibility: .hidden))
    var chunkBytes: Int = 2 << 20

    @Argument(help: "The NMEA log, or - for standard input.", completion: .file(extensions: ["nmea", "log", "txt"]))
    var file: String

    @Flag(help: "No progress line on standard error (one is shown only when it is a terminal).")
    var quiet = false

    func validate() throws {
      guard chunkBytes >= 1024 else { throw ValidationError("--chunk-bytes must be at least 1024") }
    }

    func run() throws {
      let all = self.all
      // Every core decodes a part of the file and writes its records; the output is the same,
      // to the byte, as decoding and writing on one thread (see the library's parallel decoder).
      let output = StandardStreams.current.output
      StandardStreams.widenPipe(output)
      let progress = ProgressLine("decode", unit: .bytes, quiet: quiet)
      let decoded = Result {
        try NMEAFileDecoder.decodeInParallel(path: file, options: nmea.assemblerOptions, chunkSize: chunkBytes) { fix, bytes in
          guard all || fix.mode >= .twoD else { return }
          FixRecord.append(LocationFix(fix), gpsd: fix.gpsdMembers, to: &bytes)
          bytes.append(0x0A)
        } write: { bytes in
          // stdout closed (e.g. a pipe to head): the rest is dropped.
          bytes.withUnsafeBytes { _ = StandardStreams.write($0, to: output) }
        } progress: { done, total in
          progress.update(done, of: total)
        }
      }
      progress.finish()
      switch decoded {
      case .success(let statistics): printError("locemu decode: \(file): \(statistics.summary)")
      case .failure(let error as TraceFileError): throw CommandFailure("\(error)")
      case .failure(let error): throw CommandFailure("\(file): \(error)")
      }
    }
  }
}
