import Foundation
import Geo
public import NMEA
public import LocationModel

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One epoch of a trace: the fix, its place on the trace's own time line and,
/// for NMEA logs read with `keepSentences`, the receiver's original sentences.
public struct TraceEpoch: Sendable, Hashable {
  /// The epoch's fix.
  public var fix: LocationFix
  /// Seconds on the trace's time line (Unix time when the trace is dated; time
  /// of day otherwise, unwrapped across midnight). Nil when the trace says nothing.
  public var traceTime: Double?
  /// The epoch's NMEA sentences as read, without line endings (empty unless kept).
  public var sentences: [String]
  /// What the receiver said of the fix beyond `LocationFix` (NMEA's GGA, GPX's `<sat>`
  /// and `<fix>`), kept so that a conversion writes it on; nil members were not said.
  public var receiver: ReceiverDetails

  /// Creates an epoch.
  /// - Parameters:
  ///   - fix: the fix.
  ///   - traceTime: seconds on the trace's time line; nil when the trace says nothing.
  ///   - sentences: the NMEA sentences as read, if kept.
  ///   - receiver: what the receiver said beyond the fix.
  public init(fix: LocationFix, traceTime: Double?, sentences: [String] = [], receiver: ReceiverDetails = .init()) {
    self.fix = fix
    self.traceTime = traceTime
    self.sentences = sentences
    self.receiver = receiver
  }
}

/// A receiver's own account of a fix: satellites used and GGA's fix quality.
public struct ReceiverDetails: Sendable, Hashable {
  /// Satellites used in the fix (GGA field 7, GPX `<sat>`).
  public var satellitesUsed: Int?
  /// GGA's fix quality: 0 none, 1 GPS, 2 differential, 3 PPS, 4 RTK, 5 float RTK, 6 dead reckoning, ….
  public var quality: Int?
  /// GGA's horizontal dilution of precision, when the source knows its geometry (a simulated
  /// receiver); writers otherwise derive one from the fix's accuracy.
  public var hdop: Double?

  /// Creates receiver details; nil for what was not said.
  /// - Parameters:
  ///   - satellitesUsed: satellites used in the fix.
  ///   - quality: GGA's fix quality.
  ///   - hdop: GGA's horizontal dilution of precision.
  public init(satellitesUsed: Int? = nil, quality: Int? = nil, hdop: Double? = nil) {
    self.satellitesUsed = satellitesUsed
    self.quality = quality
    self.hdop = hdop
  }
}

/// A pull-based trace reader: one epoch per call, in trace order, nil at the end.
///
/// Readers are single-use and not thread-safe; ``Trace/makeReader()`` opens a new one.
public protocol TraceReader: AnyObject {
  /// The next epoch; nil at the end of the trace.
  /// - Throws: ``TraceFileError`` when the file cannot be read.
  func next() throws -> TraceEpoch?
  /// What was skipped so far, for a one-line summary (e.g. rejected sentences).
  var summary: String { get }
  /// Releases the file now (a reader also closes it when it goes away); `next()` then returns nil.
  func close()
}

extension TraceReader {
  /// Does nothing: the default for readers with nothing to release.
  public func close() {}
}

/// Streams an NMEA log (or standard input) epoch by epoch: one 64 KB read
/// buffer and the current epoch in memory, whatever the file size.
public final class NMEATraceReader: TraceReader {
  /// The log's path (`-` for standard input), or the name of a trace held in memory.
  public let path: String
  private let keepSentences: Bool
  private let input: ByteInput
  private var framer = NMEALineFramer()
  private var decoder: NMEADecoder
  private var pending: [TraceEpoch] = []
  private var pendingIndex = 0
  private var sentences: [String] = []
  private var finished = false
  private let buffer: UnsafeMutableRawBufferPointer
  private var dayOffset = 0.0
  private var lastTimeOfDay: Double?
  private var junk: JunkLimit

  /// Opens `path` (`-` for standard input).
  /// - Parameters:
  ///   - path: the log's path; `-` for standard input.
  ///   - options: date resolution for logs without dates, see `NMEAEpochAssembler.Options`.
  ///   - keepSentences: whether to keep each epoch's raw sentences (for feeding them on).
  public convenience init(path: String, options: NMEAEpochAssembler.Options = .init(), keepSentences: Bool = false) throws {
    self.init(input: try ByteInput(path: path), options: options, keepSentences: keepSentences)
  }

  init(input: ByteInput, options: NMEAEpochAssembler.Options, keepSentences: Bool) {
    self.input = input
    path = input.path
    self.keepSentences = keepSentences
    decoder = NMEADecoder(options: options)
    junk = JunkLimit(what: "NMEA sentence")
    buffer = .allocate(byteCount: NMEAFileDecoder.chunkSize, alignment: 16)
  }

  deinit {
    close()
    buffer.deallocate()
  }

  /// Closes the input and drops the epochs not yet returned; ``next()`` then returns nil.
  public func close() {
    input.close()
    finished = true
    pending.removeAll()
    pendingIndex = 0
  }

  /// What the decoder counted so far.
  public var statistics: NMEADecoderStatistics { decoder.statistics }
  /// The decoder's counts so far, as `NMEADecoderStatistics.summary` writes them.
  public var summary: String { decoder.statistics.summary }

  /// The next epoch of the log; nil at the end.
  /// - Returns: the next epoch, or nil.
  /// - Throws: ``TraceFileError`` when the input cannot be read, or when ``TraceLimits/junkBytes`` hold no sentence.
  public func next() throws -> TraceEpoch? {
    while pendingIndex == pending.count {
      if finished { return nil }
      pending.removeAll(keepingCapacity: true)
      pendingIndex = 0
      try fill()
    }
    defer { pendingIndex += 1 }
    return pending[pendingIndex]
  }

  private func fill() throws {
    let n = try input.read(into: buffer)
    var framer = self.framer
    defer { self.framer = framer }
    if n == 0 {
      finished = true
      framer.finish { frame in handle(frame) }
      decoder.finishEpochs(lineCount: framer.lineCount) { fix in complete(fix) }
    } else {
      let wellFormed = decoder.statistics.accepted + decoder.statistics.unknown
      framer.append(UnsafeRawBufferPointer(rebasing: buffer[0..<n])) { frame in handle(frame) }
      // Input with no sentence in it (random bytes, a file without line breaks) ends the read.
      if decoder.statistics.accepted + decoder.statistics.unknown > wellFormed { junk.good() }
      try junk.read(n, path: path)
    }
  }

  private func handle(_ frame: NMEALineFramer.Frame) {
    decoder.decode(frame: frame) { fix in complete(fix) }
    if keepSentences, case .sentence(let line) = frame {
      sentences.append(String(decoding: line, as: UTF8.self))
    }
  }

  private func complete(_ fix: NMEAFix) {
    var location = LocationFix(fix)
    if location.coordinate == nil { location.mode = .noFix }
    pending.append(
      TraceEpoch(
        fix: location, traceTime: traceTime(fix), sentences: sentences,
        receiver: ReceiverDetails(satellitesUsed: fix.satellitesUsed, quality: fix.quality)))
    sentences.removeAll(keepingCapacity: true)
  }

  private func traceTime(_ fix: NMEAFix) -> Double? {
    // One time line for the whole trace: Unix time when its first timed epoch is dated, else
    // the time of day (unwrapped), also for the dated epochs that follow (a log that starts
    // with a GGA before its first RMC), so that the time line never jumps by decades.
    if let time = fix.time, lastTimeOfDay == nil { return time.secondsSinceUnixEpoch }
    guard let tod = fix.timeOfDay else { return nil }
    let seconds = Double(tod.nanosecondsSinceMidnight) / 1e9
    if let last = lastTimeOfDay, seconds + 43_200 < last { dayOffset += 86_400 }
    lastTimeOfDay = seconds
    return seconds + dayOffset
  }
}
