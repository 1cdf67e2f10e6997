import Foundation
import Geo
import LocationModel

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads JSON lines of fix records — what `locemu decode`, `replay` and `watch` print, and
/// gpsd's own TPV reports (`gpspipe -w`) — as a trace, one epoch per record, streaming.
///
/// Members are gpsd's names: `time`, `mode`, `lat`, `lon`, `altMSL`, `altHAE`, `speed`,
/// `track`, `eph`, `epv` and gpsd's other TPV members (`status`, `climb`, `geoidSep`,
/// `magvar`, `epx`, `epy`, `eps`, `epd`, `epc`, `ept`, `sep`; see `FixRecord`). Other gpsd reports (`VERSION`, `SKY`, …) are
/// skipped and counted; a line that is not a JSON object, a fix record with a bad member, or
/// a line longer than ``TraceLimits/jsonLineBytes`` (skipped as it is read, never held) is
/// counted as corrupt and skipped. ``TraceLimits/junkBytes`` read without one JSON object
/// end the read with a ``TraceFileError``: the input is not JSON lines.
public final class FixRecordTraceReader: TraceReader {
  /// The path read (`-` for standard input), or the name of a trace held in memory.
  public let path: String
  private let input: ByteInput
  private let buffer: UnsafeMutableRawBufferPointer
  private var carry: [UInt8] = []
  /// The line being read is over the limit: its bytes are dropped up to its line break.
  private var skippingLongLine = false
  /// Lines read and not yet parsed; nil for a line over the limit.
  private var lines: [[UInt8]?] = []
  private var lineIndex = 0
  private var finished = false
  private var lineNumber = 0
  private var records = 0
  private var otherReports = 0
  private var corrupt: [Int] = []
  private var corruptCount = 0
  private var junk = JunkLimit(what: "JSON object on a line")

  /// Opens `path` (`-` for standard input).
  public convenience init(path: String) throws {
    self.init(input: try ByteInput(path: path))
  }

  init(input: ByteInput) {
    path = input.path
    self.input = input
    buffer = .allocate(byteCount: 64 * 1024, alignment: 16)
  }

  deinit {
    input.close()
    buffer.deallocate()
  }

  /// Closes the input and drops the lines read; ``next()`` then returns nil.
  public func close() {
    input.close()
    finished = true
    lines = []
    carry = []
  }

  /// Fix records read, other reports skipped, and corrupt lines skipped with the first line numbers.
  public var summary: String {
    var text = "\(records) fix records"
    if otherReports > 0 { text += ", \(otherReports) other reports skipped" }
    if corruptCount > 0 {
      text += ", \(corruptCount) corrupt lines skipped (line \(corrupt.map(String.init).joined(separator: ", "))"
      text += corruptCount > corrupt.count ? ", …)" : ")"
    }
    return text
  }

  /// The epoch of the next fix record, past other reports and corrupt lines; nil at the end.
  /// - Returns: the next epoch, or nil.
  /// - Throws: ``TraceFileError`` when the input cannot be read, or when ``TraceLimits/junkBytes`` hold no JSON object.
  public func next() throws -> TraceEpoch? {
    while true {
      while lineIndex < lines.count {
        let line = lines[lineIndex]
        lineIndex += 1
        lineNumber += 1
        guard let line else {
          _ = countCorrupt()
          continue
        }
        if let epoch = parse(line) { return epoch }
      }
      if finished { return nil }
      lines.removeAll(keepingCapacity: true)
      lineIndex = 0
      try fill()
    }
  }

  private func fill() throws {
    let n = try input.read(into: buffer)
    if n == 0 {
      finished = true
      if skippingLongLine {
        lines.append(nil)
      } else if !carry.isEmpty {
        lines.append(carry)
      }
      carry = []
      return
    }
    let base = UnsafeRawPointer(buffer.baseAddress!)
    var start = 0
    while start < n {
      let end = memchr(base + start, 0x0A, n - start).map { base.distance(to: UnsafeRawPointer($0)) }
      let stop = end ?? n
      if !skippingLongLine {
        if carry.count + (stop - start) > TraceLimits.jsonLineBytes {
          skippingLongLine = true
          carry.removeAll(keepingCapacity: false)
        } else {
          carry.append(contentsOf: UnsafeRawBufferPointer(start: base + start, count: stop - start))
        }
      }
      guard let end else { break }
      if skippingLongLine {
        lines.append(nil)
        skippingLongLine = false
      } else {
        lines.append(carry)
        carry.removeAll(keepingCapacity: true)
      }
      start = end + 1
    }
    try junk.read(n, path: path)
  }

  private func parse(_ line: [UInt8]) -> TraceEpoch? {
    guard line.contains(where: { !StandardInput.isBlank($0) }) else { return nil }
    guard let object = JSONValue(parsing: Data(line))?.object else {
      return countCorrupt()
    }
    junk.good()
    if let kind = object["class"]?.string, kind != "TPV" {
      otherReports += 1
      return nil
    }
    guard let epoch = Self.epoch(object) else { return countCorrupt() }
    records += 1
    return epoch
  }

  private func countCorrupt() -> TraceEpoch? {
    corruptCount += 1
    if corrupt.count < 5 { corrupt.append(lineNumber) }
    return nil
  }

  /// The epoch a fix record describes; nil when a member has the wrong type or range.
  static func epoch(_ object: [String: JSONValue]) -> TraceEpoch? {
    guard let fix = FixRecord.fix(object) else { return nil }
    return TraceEpoch(fix: fix, traceTime: fix.timestamp?.timeIntervalSince1970)
  }
}
