public import NMEA
import Foundation
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension NMEAFileDecoder {
  /// Decodes `path` on several threads at once, with the same output, to the byte, and the same
  /// counts, as decoding it from the start on one.
  ///
  /// A regular file is cut into chunks of about `chunkSize` bytes at line ends (or anywhere in a
  /// line longer than 64 KB). Each thread takes the next chunk and decodes it from a guess of
  /// the decoder's state where the chunk begins: the state last known right (the end of the last
  /// chunk taken; before the first, the file's leading comment lines read) with its line, epoch
  /// and cycle in progress dropped (`NMEADecoder.afterAGap`), after reading the 64 KB before
  /// the chunk. What lasts (a date, the reporting cycle gpsd learned, error members gpsd carries
  /// from fix to fix) then comes from the state known right, and what changes every epoch from
  /// the bytes just before. The chunks are then taken in order: a chunk whose guessed state is
  /// the state the previous chunk ended in (`NMEADecoder` compared member by member, counts
  /// aside) is kept as decoded; any other chunk is decoded again, on the calling thread, from the
  /// previous chunk's end, and later chunks warm up on twice as many bytes. A log whose state
  /// keeps changing in ways a warm-up cannot learn is decoded in the time of one thread, never
  /// differently.
  ///
  /// `threads` is the number of decoding threads, by default one per processor core up to
  /// eight (each thread may hold two chunks and their records).
  /// `render` turns each fix into bytes, on the decoding threads; `write` gets them, a chunk at
  /// a time, in the file's order, on the calling thread. At most two chunks per thread are held
  /// at once, so memory stays flat whatever the file's size. Standard input (`-`), a pipe or
  /// a file of fewer than two chunks is decoded as ``decodePipelined(path:options:batchSize:depth:keep:onBatch:)``
  /// does, rendered on the calling thread.
  ///
  /// - Returns: what the decoder counted.
  /// - Throws: ``TraceFileError`` when the file cannot be opened or read, or holds
  ///   ``TraceLimits/junkBytes`` without a well-formed sentence (after the output before that
  ///   point, as when decoding on one thread); whatever `write` throws.
  @discardableResult
  public static func decodeInParallel(
    path: String, options: NMEAEpochAssembler.Options = .init(), threads: Int? = nil, chunkSize: Int = 2 << 20,
    render: @escaping @Sendable (NMEAFix, inout [UInt8]) -> Void, write: ([UInt8]) throws -> Void
  ) throws -> NMEADecoderStatistics {
    try decodeInParallelReporting(path: path, options: options, threads: threads, chunkSize: chunkSize, render: render, write: write)
      .statistics
  }

  /// ``decodeInParallel(path:options:threads:chunkSize:render:write:)``, telling `progress` how
  /// far it got: the bytes of the file whose records were written, and the file's size, after
  /// each chunk, on the calling thread. Input decoded from start to end (standard input, a pipe,
  /// a small file, or one thread) has no chunks to count: `progress` is not called.
  /// - Parameters:
  ///   - path: the NMEA log.
  ///   - options: how epochs are assembled and reported.
  ///   - threads: the decoding threads, by default one per processor core up to eight.
  ///   - chunkSize: the bytes a thread decodes at a time.
  ///   - render: turns each fix into bytes, on the decoding threads.
  ///   - write: gets the bytes, in the file's order, on the calling thread.
  ///   - progress: the bytes done and the file's size, after each chunk.
  /// - Returns: what the decoder counted.
  @discardableResult
  public static func decodeInParallel(
    path: String, options: NMEAEpochAssembler.Options = .init(), threads: Int? = nil, chunkSize: Int = 2 << 20,
    render: @escaping @Sendable (NMEAFix, inout [UInt8]) -> Void, write: ([UInt8]) throws -> Void,
    progress: (_ done: Int64, _ total: Int64) -> Void
  ) throws -> NMEADecoderStatistics {
    try decodeInParallelReporting(
      path: path, options: options, threads: threads, chunkSize: chunkSize, render: render, write: write, progress: progress
    ).statistics
  }

  /// How a parallel decoding went: the chunks decoded, and those whose guessed starting state
  /// was wrong and were decoded again from the previous chunk's end.
  package struct ParallelReport: Sendable, Hashable {
    package var chunks = 0
    package var decodedAgain = 0
    /// For the chunks decoded again: where the guessed state first differed (see
    /// `NMEADecoder.stateDifference(from:)`), and how often.
    package var differences: [String: Int] = [:]

    package init(chunks: Int = 0) { self.chunks = chunks }
  }

  /// ``decodeInParallel(path:options:threads:chunkSize:render:write:)``, and how it went;
  /// `warmUp` is the bytes a chunk's decoder first reads before the chunk; `progress` is told the
  /// bytes of the file written out so far and the file's size, after each chunk of a file
  /// decoded in parallel (not for input read from start to end).
  package static func decodeInParallelReporting(
    path: String, options: NMEAEpochAssembler.Options = .init(), threads: Int? = nil, chunkSize: Int = 2 << 20,
    warmUp: Int = 64 << 10,
    render: @escaping @Sendable (NMEAFix, inout [UInt8]) -> Void, write: ([UInt8]) throws -> Void,
    progress: (_ done: Int64, _ total: Int64) -> Void = { _, _ in }
  ) throws -> (statistics: NMEADecoderStatistics, report: ParallelReport) {
    let threads = threads ?? min(ProcessInfo.processInfo.activeProcessorCount, 8)
    if path != "-", threads > 1, let file = try RegularFile(path: path), file.size >= 2 * Int64(max(chunkSize, 1)) {
      let decoding = ParallelDecoding(
        file: file, options: options, chunkSize: max(chunkSize, 1), warmUp: max(warmUp, 0), render: render)
      return try decoding.run(threads: threads, write: write, progress: progress)
    }
    var output: [UInt8] = []
    let statistics = try decodePipelined(path: path, options: options) { batch in
      for fix in batch { render(fix, &output) }
      if output.count >= 1 << 16 {
        try write(output)
        output.removeAll(keepingCapacity: true)
      }
    }
    if !output.isEmpty { try write(output) }
    return (statistics, ParallelReport())
  }
}

/// A regular file open for reads at any offset.
private final class RegularFile: @unchecked Sendable {
  let path: String
  let fd: Int32
  let size: Int64

  /// nil for anything but a regular file (a FIFO, a socket), which is not opened here: opening
  /// and closing a FIFO would wait for its writer and then leave it without a reader (its next
  /// write fails). A ``TraceFileError`` for a regular file that cannot be opened; what cannot be
  /// looked at is left to the one-thread reader, which says why.
  init?(path: String) throws {
    var before = stat()
    guard stat(path, &before) == 0, before.st_mode & S_IFMT == S_IFREG else { return nil }
    let fd = try ByteInput.open(path)
    var status = stat()
    guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
      _ = Glibc.close(fd)
      return nil
    }
    self.path = path
    self.fd = fd
    size = Int64(status.st_size)
  }

  deinit { _ = Glibc.close(fd) }

  /// The bytes from `start` up to `end`, fewer when the file is shorter now.
  func read(from start: Int64, to end: Int64) throws(TraceFileError) -> [UInt8] {
    let count = Int(max(0, end - start))
    var failure: Int32 = 0
    // Read straight into the array's storage: no zeroing of a buffer about to be overwritten.
    let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
      initialized = read(from: start, count: count, into: UnsafeMutableRawBufferPointer(buffer), failure: &failure)
    }
    if failure != 0 { throw TraceFileError(path: path, message: String(cString: strerror(failure))) }
    return bytes
  }

  /// Reads the bytes from `start` up to `end` into `bytes`, reusing its storage (a buffer's pages,
  /// once touched, do not fault in again).
  func read(from start: Int64, to end: Int64, into bytes: inout [UInt8]) throws(TraceFileError) {
    let count = Int(max(0, end - start))
    // A new buffer is read into as it is allocated (not zeroed first); a used one's lacking
    // part is zeroed, the rest overwritten as it is.
    if bytes.isEmpty {
      bytes = try read(from: start, to: end)
      return
    } else if bytes.count < count {
      bytes += [UInt8](repeating: 0, count: count - bytes.count)
    } else {
      bytes.removeLast(bytes.count - count)
    }
    var failure: Int32 = 0
    let done = bytes.withUnsafeMutableBytes { read(from: start, count: count, into: $0, failure: &failure) }
    if failure != 0 { throw TraceFileError(path: path, message: String(cString: strerror(failure))) }
    if done < count { bytes.removeLast(count - done) }
  }

  /// `pread` until `count` bytes or the end of the file; the bytes read (`failure` set to errno on an error).
  private func read(from start: Int64, count: Int, into buffer: UnsafeMutableRawBufferPointer, failure: inout Int32) -> Int {
    var done = 0
    while done < count {
      let n = pread(fd, buffer.baseAddress! + done, count - done, off_t(start) + off_t(done))
      if n < 0 && errno == EINTR { continue }
      if n < 0 { failure = errno }
      if n <= 0 { break }
      done += n
    }
    return done
  }

  /// The offset just after the first line feed in the `within` bytes from `offset`; `offset`
  /// itself when there is none (a line that long is junk to the decoder, and the check of each
  /// chunk's state decides whether a cut inside it falls well).
  func lineStart(near offset: Int64, within: Int) throws(TraceFileError) -> Int64 {
    // A line is usually less than a hundred bytes long: a first look at 4 KB, the rest only
    // when no line ends there.
    var start = offset
    while start < min(size, offset + Int64(within)) {
      let end = min(size, offset + Int64(within), start + 4096)
      if let i = try read(from: start, to: end).firstIndex(of: 0x0A) { return start + Int64(i) + 1 }
      start = end
    }
    return offset
  }
}

/// One chunk decoded: what its fixes rendered to, and for the junk limit, how its bytes fall
/// in the 64 KB blocks that decoding on one thread reads.
private struct DecodedChunk {
  /// The chunk's bytes, after `warmUp` bytes read before it.
  var bytes: [UInt8]
  var warmUp: Int
  /// The chunk's offset in the file.
  var offset: Int64
  /// The decoder as the chunk began and ended.
  var start: NMEADecoder
  var end: NMEADecoder
  var output: [UInt8] = []
  var pieces: [Piece] = []

  /// A run of the chunk's bytes within one block: where it ends in the file, whether a
  /// well-formed sentence ended in it, and how much output the chunk had then.
  struct Piece {
    var end: Int64
    var good: Bool
    var outputEnd: Int
  }

  /// Decodes the chunk's bytes from `decoder`'s state, rendering into `output` (emptied first;
  /// its storage kept).
  init(
    bytes: [UInt8], warmUp: Int, offset: Int64, from decoder: NMEADecoder, output: consuming [UInt8] = [],
    render: (NMEAFix, inout [UInt8]) -> Void
  ) {
    self.bytes = bytes
    self.warmUp = warmUp
    self.offset = offset
    start = decoder
    end = decoder
    var output = output
    output.removeAll(keepingCapacity: true)
    output.reserveCapacity(bytes.count - warmUp)
    var pieces: [Piece] = []
    var decoder = decoder
    bytes.withUnsafeBytes { all in
      var position = warmUp
      let block = Int64(NMEAFileDecoder.chunkSize)
      while position < all.count {
        let fileOffset = offset + Int64(position - warmUp)
        let blockEnd = (fileOffset / block + 1) * block
        let next = min(all.count, position + Int(blockEnd - fileOffset))
        let wellFormed = decoder.counts.accepted + decoder.counts.unknown
        decoder.decode(UnsafeRawBufferPointer(rebasing: all[position..<next])) { render($0, &output) }
        let good = decoder.counts.accepted + decoder.counts.unknown > wellFormed
        pieces.append(Piece(end: offset + Int64(next - warmUp), good: good, outputEnd: output.count))
        position = next
      }
    }
    end = decoder
    self.output = output
    self.pieces = pieces
  }
}

/// The threads, the chunks between them and the caller, and the caller's side: chunks taken
/// in order, checked, written.
private final class ParallelDecoding: @unchecked Sendable {
  let file: RegularFile
  let options: NMEAEpochAssembler.Options
  let chunkSize: Int64
  let chunks: Int
  let render: @Sendable (NMEAFix, inout [UInt8]) -> Void

  private let condition = NSCondition()
  private var next = 0
  private var taken = 0
  private var results: [Int: Result<DecodedChunk, TraceFileError>] = [:]
  private var stopped = false
  /// The state a chunk's decoder starts from before its warm-up: the latest state known to be
  /// right, the end of the last chunk taken. What lasts (the reporting cycle gpsd has learned, a
  /// date, an error member only some sentences set) is then mostly right before the warm-up
  /// begins, and what changes with every epoch is set right by the warm-up. Until the first
  /// chunk is taken: the file's leading comment lines read (a `# Date:` header).
  private var latest: NMEADecoder
  private var running = 0
  /// The buffers of chunks written already, for later chunks to read into and render into: a
  /// new buffer's pages fault in one by one, zeroed by the kernel (an eighth of the work when
  /// each chunk had new ones); a used buffer's are there.
  private var spareInputs: [[UInt8]] = []
  private var spareOutputs: [[UInt8]] = []
  /// Bytes each chunk's decoder reads before the chunk; doubled when a chunk's guess was wrong.
  private var warmUp: Int64

  init(
    file: RegularFile, options: NMEAEpochAssembler.Options, chunkSize: Int, warmUp: Int,
    render: @escaping @Sendable (NMEAFix, inout [UInt8]) -> Void
  ) {
    self.file = file
    self.warmUp = Int64(warmUp)
    self.options = options
    self.chunkSize = Int64(chunkSize)
    chunks = Int((file.size + Int64(chunkSize) - 1) / Int64(chunkSize))
    self.render = render
    var header = NMEADecoder(options: options)
    if let head = try? file.read(from: 0, to: min(file.size, 64 << 10)) {
      // The comment lines before the first sentence, whole.
      var end = 0
      while end < head.count, head[end] == 0x23, let lineFeed = head[end...].firstIndex(of: 0x0A) { end = lineFeed + 1 }
      header.decode(Array(head[..<end])) { _ in }
    }
    latest = header
  }

  func run(
    threads: Int, write: ([UInt8]) throws -> Void, progress: (_ done: Int64, _ total: Int64) -> Void
  ) throws -> (statistics: NMEADecoderStatistics, report: NMEAFileDecoder.ParallelReport) {
    condition.lock()
    running = threads
    condition.unlock()
    for _ in 0..<threads {
      let thread = Thread { [self] in work() }
      thread.stackSize = 1 << 20
      thread.start()
    }
    defer { stop() }

    var statistics = NMEADecoderStatistics()
    var report = NMEAFileDecoder.ParallelReport(chunks: chunks)
    var decoder = NMEADecoder(options: options)
    var junk = JunkLimit(what: "NMEA sentence")
    var blockGood = false
    var blockBytes = 0
    var position: Int64 = 0
    for index in 0..<chunks {
      var chunk = try take(index)
      if index > 0, let difference = chunk.start.stateDifference(from: decoder) {
        // The guess was wrong: decode the chunk again from where the previous one ended.
        chunk = DecodedChunk(bytes: chunk.bytes, warmUp: chunk.warmUp, offset: chunk.offset, from: decoder, render: render)
        report.decodedAgain += 1
        report.differences[difference, default: 0] += 1
        condition.lock()
        warmUp = min(max(warmUp * 2, 4096), 16 * chunkSize)
        condition.unlock()
      }
      // The junk limit as decoding on one thread keeps it, 64 KB block by block.
      for piece in chunk.pieces {
        blockGood = blockGood || piece.good
        blockBytes += Int(piece.end - position)
        position = piece.end
        guard piece.end % Int64(NMEAFileDecoder.chunkSize) == 0 || piece.end == file.size else { continue }
        if blockGood { junk.good() }
        do {
          try junk.read(blockBytes, path: file.path)
        } catch {
          // What decoding on one thread wrote before stopping here.
          try write(Array(chunk.output[..<piece.outputEnd]))
          throw error
        }
        blockGood = false
        blockBytes = 0
      }
      if !chunk.output.isEmpty { try write(chunk.output) }
      progress(position, file.size)
      statistics.add(from: chunk.start.counts, to: chunk.end.counts)
      decoder = chunk.end
      let input = chunk.bytes, output = chunk.output
      chunk.bytes = []
      chunk.output = []
      condition.lock()
      latest = decoder
      if spareInputs.count < 2 * running + 2 {
        spareInputs.append(consume input)
        spareOutputs.append(consume output)
      }
      condition.unlock()
    }
    let before = decoder.counts
    var output: [UInt8] = []
    decoder.finish { render($0, &output) }
    statistics.add(from: before, to: decoder.counts)
    if !output.isEmpty { try write(output) }
    return (statistics, report)
  }

  /// Chunk `index`, waiting for a thread to finish it.
  private func take(_ index: Int) throws(TraceFileError) -> DecodedChunk {
    condition.lock()
    defer { condition.unlock() }
    while results[index] == nil { condition.wait() }
    let result = results.removeValue(forKey: index)!
    taken = index + 1
    condition.broadcast()
    return try result.get()
  }

  /// Stops the threads and waits until every one has returned.
  private func stop() {
    condition.lock()
    stopped = true
    condition.broadcast()
    while running > 0 { condition.wait() }
    condition.unlock()
  }

  /// A thread's loop: the next chunk, while fewer than two per thread wait to be taken.
  private func work() {
    condition.lock()
    defer {
      running -= 1
      condition.broadcast()
      condition.unlock()
    }
    while true {
      while !stopped && next < chunks && next - taken >= 2 * running { condition.wait() }
      guard !stopped && next < chunks else { return }
      let index = next
      next += 1
      let warmUp = self.warmUp
      let seed = latest
      let input = spareInputs.popLast() ?? []
      let output = spareOutputs.popLast() ?? []
      condition.unlock()
      let result = Result { () throws(TraceFileError) in
        try decode(index, warmUp: warmUp, from: seed, input: input, output: output)
      }
      condition.lock()
      results[index] = result
      condition.broadcast()
    }
  }

  /// Decodes chunk `index` from a guess of the state it begins in (none needed for the first):
  /// `seed` after reading the `warmUp` bytes before it; reads into `input` and renders into
  /// `output`, reusing their storage.
  private func decode(
    _ index: Int, warmUp: Int64, from seed: NMEADecoder, input: consuming [UInt8], output: consuming [UInt8]
  ) throws(TraceFileError) -> DecodedChunk {
    // Each cut within its chunk's first bytes (less than a chunk), so that cuts never cross.
    let search = Int(min(64 << 10, chunkSize - 1))
    let start = index == 0 ? 0 : try file.lineStart(near: Int64(index) * chunkSize, within: search)
    let end = index == chunks - 1 ? file.size : try file.lineStart(near: Int64(index + 1) * chunkSize, within: search)
    let from = index == 0 ? 0 : max(0, start - warmUp)
    var bytes = input
    try file.read(from: from, to: max(start, end), into: &bytes)
    let warmUpCount = min(bytes.count, Int(start - from))
    var decoder = index == 0 ? NMEADecoder(options: options) : seed.afterAGap
    if warmUpCount > 0 {
      bytes.withUnsafeBytes { decoder.decode(UnsafeRawBufferPointer(rebasing: $0[..<warmUpCount])) { _ in } }
    }
    return DecodedChunk(bytes: bytes, warmUp: warmUpCount, offset: start, from: decoder, output: output, render: render)
  }
}
