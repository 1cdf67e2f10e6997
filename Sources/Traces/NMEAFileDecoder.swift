public import NMEA
import Foundation
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A trace file that could not be read.
public struct TraceFileError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The file's path (`-` for standard input), or the name of a trace held in memory.
  public var path: String
  /// The operating system's message, e.g. "No such file or directory".
  public var message: String

  /// Creates an error.
  /// - Parameters:
  ///   - path: the file's path or the trace's name.
  ///   - message: what went wrong.
  public init(path: String, message: String) {
    self.path = path
    self.message = message
  }

  /// The error as `cannot read path: message`.
  public var description: String { "cannot read \(path): \(message)" }
}

/// Decodes an NMEA log from a file or standard input, streaming in fixed-size chunks.
///
/// Memory stays constant whatever the file size: one read buffer
/// (``chunkSize`` bytes) and the decoder's line buffer.
public enum NMEAFileDecoder {
  /// Bytes read per `read(2)` call.
  public static let chunkSize = 1 << 16

  /// Decodes `path` (`-` for standard input) and calls `onFix` for every epoch.
  ///
  /// A directory or a device is refused; ``TraceLimits/junkBytes`` read without a single
  /// well-formed sentence end the decoding with a ``TraceFileError`` (not an NMEA log).
  ///
  /// - Returns: what the decoder counted.
  /// - Throws: ``TraceFileError`` when the file cannot be opened or read; whatever `onFix` throws.
  @discardableResult
  public static func decode(
    path: String, options: NMEAEpochAssembler.Options = .init(), _ onFix: (NMEAFix) throws -> Void
  ) throws -> NMEADecoderStatistics {
    let input = try ByteInput(path: path)
    defer { input.close() }
    var decoder = NMEADecoder(options: options)
    var junk = JunkLimit(what: "NMEA sentence")
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
    defer { buffer.deallocate() }
    while true {
      let n = try input.read(into: buffer)
      if n == 0 { break }
      let wellFormed = decoder.statistics.accepted + decoder.statistics.unknown
      try decoder.decode(UnsafeRawBufferPointer(rebasing: buffer[0..<n]), onFix)
      if decoder.statistics.accepted + decoder.statistics.unknown > wellFormed { junk.good() }
      try junk.read(n, path: path)
    }
    try decoder.finish(onFix)
    return decoder.statistics
  }
}

extension NMEAFileDecoder {
  /// Decodes `path` on a thread of its own while the caller's thread handles the fixes: the
  /// fixes `keep` accepts come to `onBatch` in order, in batches of `batchSize`, through a queue
  /// of at most `depth` batches (so memory stays flat however large the log). The same fixes, in
  /// the same order, as ``decode(path:options:_:)``, in about the time of the slower side rather
  /// than the sum of both.
  ///
  /// - Returns: what the decoder counted.
  /// - Throws: ``TraceFileError`` when the file cannot be opened or read; whatever `onBatch`
  ///   throws (the decoding thread then stops at its next batch).
  @discardableResult
  public static func decodePipelined(
    path: String, options: NMEAEpochAssembler.Options = .init(), batchSize: Int = 512, depth: Int = 4,
    keep: @escaping @Sendable (NMEAFix) -> Bool = { _ in true }, onBatch: ([NMEAFix]) throws -> Void
  ) throws -> NMEADecoderStatistics {
    let queue = BatchQueue(depth: max(1, depth))
    let size = max(1, batchSize)
    let decoder = Thread {
      var batch: [NMEAFix] = []
      batch.reserveCapacity(size)
      let result = Result {
        try decode(path: path, options: options) { fix in
          guard keep(fix) else { return }
          batch.append(fix)
          if batch.count == size {
            guard queue.put(batch) else { throw BatchQueue.Abandoned() }
            batch.removeAll(keepingCapacity: true)
          }
        }
      }
      _ = queue.put(batch)
      queue.finish(result)
    }
    decoder.stackSize = 1 << 20
    decoder.start()
    do {
      while let batch = queue.take() { try onBatch(batch) }
    } catch {
      queue.abandon()
      throw error
    }
    return try queue.result!.get()
  }
}

/// The decoding thread's batches, handed to the caller's thread through a bounded queue.
private final class BatchQueue: @unchecked Sendable {
  /// The caller stopped taking batches (its handler threw).
  struct Abandoned: Error {}

  private let condition = NSCondition()
  private let depth: Int
  private var queue: [[NMEAFix]] = []
  private var head = 0
  private var ended: Result<NMEADecoderStatistics, any Error>?
  private var abandoned = false

  init(depth: Int) { self.depth = depth }

  /// Waits while the queue is full, then adds `batch` (nothing for an empty one); false once
  /// the caller has abandoned the queue.
  func put(_ batch: [NMEAFix]) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    while queue.count - head >= depth && !abandoned { condition.wait() }
    guard !abandoned else { return false }
    if !batch.isEmpty {
      queue.append(batch)
      condition.broadcast()
    }
    return true
  }

  /// The decoder's end: its statistics or its error. No batch follows.
  func finish(_ result: Result<NMEADecoderStatistics, any Error>) {
    condition.lock()
    ended = result
    condition.broadcast()
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
    condition.broadcast()
    return batch
  }

  /// The caller stops taking: the decoding thread stops at its next batch.
  func abandon() {
    condition.lock()
    abandoned = true
    condition.broadcast()
    condition.unlock()
  }

  /// How the decoder ended; set once ``take()`` has returned nil.
  var result: Result<NMEADecoderStatistics, any Error>? {
    condition.lock()
    defer { condition.unlock() }
    return ended
  }
}
