import ArgumentParser
import Foundation
import Geo
import NMEA
import Traces
import LocationServices

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

        By default epochs are reported as gpsd reports them: gpsd learns which \
        sentence ends the receiver's reporting cycle and reports each epoch as it \
        stood at that sentence; an epoch without it is not reported (counted as \
        'unreported'). --reporting every-time-stamp reports every epoch with \
        all of its sentences.

        Dates come from RMC and ZDA sentences. A '# Date: yyyy-mm-dd' header \
        line sets the century of two-digit years and the reference for GPS \
        week-rollover correction; --date does the same and also dates the \
        epochs of logs that carry no date at all. Without either, no rollover \
        is corrected unless --rollover-reference gives the date to resolve \
        against (gpsd uses the day it started).

        Example: locemu decode --all receiver.log > fixes.jsonl

        Exit status: 0 when the input was read (even if it held no fix), \
        1 when it could not be read, 64 for bad options.
        """
    )

    @OptionGroup
    var nmea: NMEAOptions

    @Flag(help: "Also print epochs without a fix (mode 1).")
    var all = false

    @Argument(help: "The NMEA log, or - for standard input.", completion: .file(extensions: ["nmea", "log", "txt"]))
    var file: String

    func run() throws {
      let options = nmea.assemblerOptions
      let all = self.all
      let path = file
      // Two threads: this one formats and writes the records while another decodes, handing
      // fixes over in batches through a bounded queue (so memory stays flat); the output is the
      // same, in the same order, as decoding and writing on one thread.
      let batches = FixBatches(capacity: 4)
      let decoder = Thread {
        var batch: [NMEAFix] = []
        batch.reserveCapacity(FixBatches.batchSize)
        do {
          let statistics = try NMEAFileDecoder.decode(path: path, options: options) { fix in
            guard all || fix.mode >= .twoD else { return }
            batch.append(fix)
            if batch.count == FixBatches.batchSize {
              batches.put(batch)
              batch.removeAll(keepingCapacity: true)
            }
          }
          batches.put(batch)
          batches.finish(.success(statistics))
        } catch {
          batches.put(batch)
          batches.finish(.failure(error))
        }
      }
      decoder.stackSize = 1 << 20
      decoder.start()
      var output = OutputBuffer()
      while let batch = batches.take() {
        for fix in batch { output.writeLine(LocationFix(fix)) }
      }
      output.flush()
      switch batches.result {
      case .success(let statistics):
        printError("locemu decode: \(file): \(statistics.summary)")
      case .failure(let error as TraceFileError):
        throw CommandFailure("\(error)")
      case .failure(let error):
        throw CommandFailure("\(file): \(error)")
      case nil:
        preconditionFailure("the decoding thread ended without a result")
      }
    }
  }
}

/// Batches of fixes from the decoding thread to the writing one, at most `capacity` waiting.
private final class FixBatches: @unchecked Sendable {
  static let batchSize = 512
  private let condition = NSCondition()
  private let capacity: Int
  private var queue: [[NMEAFix]] = []
  private var head = 0
  private var ended: Result<NMEADecoderStatistics, any Error>?

  init(capacity: Int) { self.capacity = capacity }

  /// Waits while the queue is full, then adds `batch` (nothing for an empty one).
  func put(_ batch: [NMEAFix]) {
    guard !batch.isEmpty else { return }
    condition.lock()
    while queue.count - head >= capacity { condition.wait() }
    queue.append(batch)
    condition.signal()
    condition.unlock()
  }

  /// The decoder's end: its statistics or its error. No batch follows.
  func finish(_ result: Result<NMEADecoderStatistics, any Error>) {
    condition.lock()
    ended = result
    condition.signal()
    condition.unlock()
  }

  /// The next batch, waiting for it; nil once the decoder has finished and every batch was taken.
  func take() -> [NMEAFix]? {
    condition.lock()
    defer { condition.unlock() }
    while head == queue.count && ended == nil { condition.wait() }
    guard head < queue.count else { return nil }
    let batch = queue[head]
    head += 1
    if head == queue.count {
      queue.removeAll(keepingCapacity: true)
      head = 0
    }
    condition.signal()
    return batch
  }

  /// How the decoder ended; set once ``take()`` has returned nil.
  var result: Result<NMEADecoderStatistics, any Error>? {
    condition.lock()
    defer { condition.unlock() }
    return ended
  }
}
