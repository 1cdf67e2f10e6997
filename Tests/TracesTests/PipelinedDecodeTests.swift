import EmulatorTesting
import NMEA
import Testing
import TestSupport
import Traces

/// The pipelined decoder: the decoding on a thread of its own, the fixes on the caller's. The
/// caller's thread waits for the decoder's batches, so the calls run off the cooperative pool.
@Suite("NMEAFileDecoder.decodePipelined")
struct PipelinedDecodeTests {
  @Test(
    "the same fixes in the same order and the same counts as decoding on one thread, in batches of the size asked", arguments: [1, 7, 512])
  func sameAsOneThread(batchSize: Int) async throws {
    let path = tracePath("city-walk.nmea")
    var expected: [NMEAFix] = []
    let statistics = try NMEAFileDecoder.decode(path: path) { if $0.mode >= .twoD { expected.append($0) } }
    let (got, sizes, pipelined) = try await offPool { () throws -> ([NMEAFix], [Int], NMEADecoderStatistics) in
      var got: [NMEAFix] = []
      var sizes: [Int] = []
      let pipelined = try NMEAFileDecoder.decodePipelined(path: path, batchSize: batchSize, depth: 2, keep: { $0.mode >= .twoD }) {
        got += $0
        sizes.append($0.count)
      }
      return (got, sizes, pipelined)
    }
    #expect(got == expected && !got.isEmpty)
    #expect(pipelined == statistics)
    #expect(sizes.dropLast().allSatisfy { $0 == batchSize } && (sizes.last ?? 0) <= batchSize)
  }

  @Test("a file that cannot be read is a TraceFileError; a handler's error stops the decoding and comes back")
  func errors() async throws {
    await #expect(throws: TraceFileError.self) {
      try await offPool { try NMEAFileDecoder.decodePipelined(path: "/nonexistent/log.nmea") { _ in } }
    }
    struct Enough: Error {}
    let (batches, thrown) = await offPool { () -> (Int, (any Error)?) in
      var batches = 0
      do {
        _ = try NMEAFileDecoder.decodePipelined(path: tracePath("city-walk.nmea"), batchSize: 4, depth: 1) { _ in
          batches += 1
          if batches == 3 { throw Enough() }
        }
        return (batches, nil)
      } catch {
        return (batches, error)
      }
    }
    #expect(thrown is Enough, "\(String(describing: thrown))")
    #expect(batches == 3)
  }
}
