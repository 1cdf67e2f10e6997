import NMEA
import Testing
import TestSupport
import Traces

/// The pipelined decoder: the decoding on a thread of its own, the fixes on the caller's.
@Suite("NMEAFileDecoder.decodePipelined")
struct PipelinedDecodeTests {
  @Test(
    "the same fixes in the same order and the same counts as decoding on one thread, in batches of the size asked", arguments: [1, 7, 512])
  func sameAsOneThread(batchSize: Int) throws {
    let path = tracePath("city-walk.nmea")
    var expected: [NMEAFix] = []
    let statistics = try NMEAFileDecoder.decode(path: path) { if $0.mode >= .twoD { expected.append($0) } }
    var got: [NMEAFix] = []
    var sizes: [Int] = []
    let pipelined = try NMEAFileDecoder.decodePipelined(path: path, batchSize: batchSize, depth: 2, keep: { $0.mode >= .twoD }) {
      got += $0
      sizes.append($0.count)
    }
    #expect(got == expected && !got.isEmpty)
    #expect(pipelined == statistics)
    #expect(sizes.dropLast().allSatisfy { $0 == batchSize } && (sizes.last ?? 0) <= batchSize)
  }

  @Test("a file that cannot be read is a TraceFileError; a handler's error stops the decoding and comes back")
  func errors() throws {
    #expect(throws: TraceFileError.self) { try NMEAFileDecoder.decodePipelined(path: "/nonexistent/log.nmea") { _ in } }
    struct Enough: Error {}
    var batches = 0
    #expect(throws: Enough.self) {
      try NMEAFileDecoder.decodePipelined(path: tracePath("city-walk.nmea"), batchSize: 4, depth: 1) { _ in
        batches += 1
        if batches == 3 { throw Enough() }
      }
    }
    #expect(batches == 3)
  }
}
