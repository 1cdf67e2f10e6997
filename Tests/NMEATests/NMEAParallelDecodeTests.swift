import Foundation
import EmulatorTesting
import Geo
import LocationModel
import NMEA
import Testing
import Traces

/// The parallel decoder (`NMEAFileDecoder.decodeInParallel`) against decoding on one thread, on
/// the corpus's 117 receiver logs: each log cut into small chunks whose decoders warm up
/// on few bytes, so that their guesses of the state a chunk begins in are sometimes right
/// (the chunk is kept) and sometimes wrong (decoded again). Either way the output must be the
/// same to the byte, and the counts the same.
struct ParallelDecodeTests {
  /// A fix as `locemu decode` writes it: every member gpsd reports, so any difference shows.
  @Sendable static func render(_ fix: NMEAFix, _ out: inout [UInt8]) {
    FixRecord.append(LocationFix(fix), gpsd: fix.gpsdMembers, to: &out)
    out.append(0x0A)
  }

  struct Totals {
    var logs = 0
    var chunks = 0
    var decodedAgain = 0
    var differences: [String: Int] = [:]
    var logsDecodedAgain: [String: Int] = [:]
  }

  /// The logs: all of them in the plain build; under ThreadSanitizer, which decodes ten times
  /// slower, every sixteenth (the threads' hand-offs are the same on every log).
  static let logs = GPSDConformanceTests.logs.enumerated().filter { !ThreadSanitizer.isActive || $0.offset % 16 == 0 }.map(\.element)

  func decodeCorpus(chunkSize: Int, warmUp: Int) async throws -> Totals {
    var totals = Totals()
    for log in Self.logs {
      let path = GPSDConformanceTests.directory.appendingPathComponent(log).path
      var expected: [UInt8] = []
      let expectedCounts = try NMEAFileDecoder.decode(path: path, options: GPSDConformanceTests.asGPSDRan) {
        Self.render($0, &expected)
      }
      // The parallel decoder waits for its threads (NSCondition): off the cooperative pool.
      let (got, counts, report) = try await offPool {
        () throws -> ([UInt8], NMEADecoderStatistics, NMEAFileDecoder.ParallelReport) in
        var got: [UInt8] = []
        let (counts, report) = try NMEAFileDecoder.decodeInParallelReporting(
          path: path, options: GPSDConformanceTests.asGPSDRan, threads: 2, chunkSize: chunkSize, warmUp: warmUp,
          render: Self.render
        ) { got += $0 }
        return (got, counts, report)
      }
      if got != expected {
        let a = String(decoding: expected, as: UTF8.self).split(separator: "\n")
        let b = String(decoding: got, as: UTF8.self).split(separator: "\n")
        let line = zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(a.count, b.count)
        Issue.record(
          "\(log): output differs at record \(line + 1) of \(a.count) (got \(b.count)):\n  one thread: \(line < a.count ? a[line] : "(none)")\n  in parallel: \(line < b.count ? b[line] : "(none)")"
        )
      }
      #expect(counts == expectedCounts, "\(log)")
      totals.logs += 1
      totals.chunks += report.chunks
      totals.decodedAgain += report.decodedAgain
      totals.differences.merge(report.differences, uniquingKeysWith: +)
      if report.decodedAgain > 0 { totals.logsDecodedAgain[log] = report.decodedAgain }
    }
    return totals
  }

  @Test("with no warm-up every chunk's guess is a new decoder: almost every chunk is decoded again, and the output is the same")
  func noWarmUp() async throws {
    let totals = try await decodeCorpus(chunkSize: 4096, warmUp: 0)
    #expect(totals.logs == Self.logs.count && Self.logs.count >= 7)
    #expect(totals.chunks > 300 / (ThreadSanitizer.isActive ? 16 : 1))
    // The warm-up doubles after each wrong guess, so later chunks of a log are guessed better.
    #expect(totals.decodedAgain > totals.chunks / 10)
  }

  /// Some state takes long to settle: the reporting cycle gpsd learns (a sentence type once seen
  /// to end a cycle stays learned), error members only some sentences set, so a few kilobytes
  /// of warm-up guess wrong on a third of these logs' chunks (on 2 MB chunks with 64 KB, see
  /// the bundled traces' test, every chunk is kept).
  @Test("with a few kilobytes of warm-up most chunks are kept, and the output is the same")
  func shortWarmUp() async throws {
    let totals = try await decodeCorpus(chunkSize: 4096, warmUp: 8192)
    #expect(totals.logs == Self.logs.count)
    #expect(totals.chunks > 300 / (ThreadSanitizer.isActive ? 16 : 1))
    #expect(
      ThreadSanitizer.isActive || (totals.decodedAgain > 0 && totals.decodedAgain * 2 < totals.chunks),
      "\(totals.decodedAgain) of \(totals.chunks) chunks decoded again: \(totals.differences) \(totals.logsDecodedAgain)")
  }
}
