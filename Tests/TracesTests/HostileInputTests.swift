import EmulatorTesting
import Foundation
import Geo
import LocationModel
import NMEA
import Testing
import Traces

#if canImport(Glibc)
  import Glibc
#endif

/// Input that is not a trace, or is made to hurt: every reader ends in bounded time and
/// memory with one error, and a trace directory gives out nothing outside itself.
@Suite("Traces: hostile input, bounded readers, the trace directory")
struct HostileInputTests {
  /// A scratch directory, removed by the caller.
  static func scratch() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-\(UUID())")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  /// Every epoch a reader gives, and what it threw at the end (nil: it ended cleanly).
  static func readAll(_ trace: Trace) -> (epochs: [TraceEpoch], error: (any Error)?) {
    var epochs: [TraceEpoch] = []
    do {
      let reader = try trace.makeReader()
      while let epoch = try reader.next() { epochs.append(epoch) }
      return (epochs, nil)
    } catch {
      return (epochs, error)
    }
  }

  static let record = #"{"class":"TPV","time":"2026-01-01T00:00:00.000Z","mode":2,"lat":52.1,"lon":21.1}"#

  @Test func devicesAreRefusedAsTraces() {
    for path in ["/dev/zero", "/dev/urandom", "/dev/null"] {
      for format in Trace.Format.allCases {
        #expect(throws: TraceFileError.self, "\(path) as \(format)") { try Trace(path: path, format: format).makeReader() }
      }
      let error = #expect(throws: TraceFileError.self) { try Trace(path: path) }
      #expect(error?.message.contains("character device") == true)
      #expect(throws: TraceFileError.self) { try NMEAFileDecoder.decode(path: path) { _ in } }
    }
  }

  @Test func anOverLongJSONLineIsCountedCorruptAndSkippedWithoutBeingHeld() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("long.jsonl")
    let long = "{\"pad\":\"" + String(repeating: "x", count: TraceLimits.jsonLineBytes * 3) + "\"}"
    try ([Self.record, long, Self.record].joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
    let reader = try FixRecordTraceReader(path: file.path)
    var epochs = 0
    while try reader.next() != nil { epochs += 1 }
    #expect(epochs == 2)
    #expect(reader.summary == "2 fix records, 1 corrupt lines skipped (line 2)")
  }

  /// Random bytes hold short lines that are JSON objects (`{}` is two bytes between line breaks):
  /// an object with none of a fix record's members is corrupt, not a no-fix epoch, so noise
  /// with a few of them is still no trace (seen once in 4 MB from /dev/urandom sent to
  /// `locemu serve`, which played it).
  @Test func anObjectWithoutAFixRecordsMembersIsCorruptNotAnEpoch() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("objects.jsonl")
    let lines = ["{}", " { }\r", #"{"pad":1}"#, Self.record, #"{"class":"TPV"}"#, #"{"mode":0}"#]
    try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
    let reader = try FixRecordTraceReader(path: file.path)
    var modes: [LocationFix.Mode] = []
    while let epoch = try reader.next() { modes.append(epoch.fix.mode) }
    #expect(modes == [.twoD, .noFix, .noFix])
    #expect(reader.summary == "3 fix records, 3 corrupt lines skipped (line 1, 2, 3)")

    var generator = SeededRandom(seed: 0x5EED)
    var noise = (0..<(1 << 20)).map { _ in UInt8.random(in: 0...255, using: &generator) }
    for at in stride(from: 1000, to: noise.count - 4, by: 50_000) { noise.replaceSubrange(at..<(at + 4), with: Array("\n{}\n".utf8)) }
    let noisy = dir.appendingPathComponent("noise.jsonl")
    try Data(noise).write(to: noisy)
    let (epochs, _) = Self.readAll(try Trace(path: noisy.path, format: .jsonl))
    #expect(epochs.isEmpty)
  }

  /// A file with no line break at all (here 64 MB of one byte): the JSON-lines and NMEA
  /// readers give up after ``TraceLimits/junkBytes`` with a message, whatever its length.
  @Test func aFileWithoutLineBreaksEndsWithOneError() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("flat")
    #expect(FileManager.default.createFile(atPath: file.path, contents: nil))
    let handle = try FileHandle(forWritingTo: file)
    try handle.truncate(atOffset: 64 << 20)  // sparse: 64 MB of zero bytes
    try handle.close()
    for format in [Trace.Format.jsonl, .nmea] {
      let (epochs, error) = Self.readAll(try Trace(path: file.path, format: format))
      #expect(epochs.isEmpty)
      let message = try #require(error as? TraceFileError, "\(format)").message
      #expect(message.contains("16 MB read without a valid"), "\(format): \(message)")
    }
    #expect(throws: TraceFileError.self) { try NMEAFileDecoder.decode(path: file.path) { _ in } }
  }

  /// A FIFO is read as it comes (process substitution is one), so a writer of endless junk is
  /// bounded by the junk limit, not by the writer.
  @Test func aFIFOOfEndlessJunkEndsWithOneError() async throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let fifo = dir.appendingPathComponent("feed").path
    #expect(mkfifo(fifo, 0o600) == 0)
    let writer = Thread {
      let fd = open(fifo, O_WRONLY | O_CLOEXEC)
      guard fd >= 0 else { return }
      defer { close(fd) }
      var junk = [UInt8](repeating: 0, count: 1 << 16)
      var generator = SystemRandomNumberGenerator()
      for i in junk.indices { junk[i] = UInt8.random(in: 0...255, using: &generator) }
      // Until the reader closes its end (EPIPE; SIGPIPE is ignored by the test process).
      while junk.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) > 0 {}
    }
    signal(SIGPIPE, SIG_IGN)
    writer.start()
    // Opening a FIFO and reading it block the reader's thread: off the cooperative pool.
    let (epochs, error) = try await offPool { Self.readAll(try Trace(path: fifo, format: .jsonl)) }
    #expect(epochs.isEmpty)
    #expect((error as? TraceFileError)?.message.contains("without a valid JSON object") == true)
  }

  /// libxml2's own limits stay on: a text node over 10 MB is an error, not held.
  @Test func aGPXWithAHugeTextNodeIsRefused() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("huge.gpx")
    let text =
      "<?xml version=\"1.0\"?><gpx version=\"1.1\"><trk><name>" + String(repeating: "a", count: 12 << 20)
      + "</name><trkseg><trkpt lat=\"52\" lon=\"21\"/></trkseg></trk></gpx>"
    try text.write(to: file, atomically: true, encoding: .utf8)
    let (_, error) = Self.readAll(try Trace(path: file.path))
    #expect(error != nil)
  }

  /// A trace held in memory reads exactly as the same bytes from a file.
  @Test func aTraceInMemoryReadsAsItsFile() throws {
    let path = tracePath("city-walk.nmea")
    let bytes = try TraceBytes.read(path: path, maxBytes: 1 << 20)
    let fromMemory = Self.readAll(Trace(bytes: bytes, name: "walk.nmea"))
    let fromFile = Self.readAll(try Trace(path: path))
    #expect(fromMemory.error == nil && fromFile.error == nil)
    #expect(fromMemory.epochs == fromFile.epochs && fromMemory.epochs.count == 973)
    let gpx = try TraceBytes.read(path: tracePath("drive.gpx"), maxBytes: 1 << 20)
    #expect(Trace(bytes: gpx, name: "upload").format == .gpx)
    #expect(throws: TraceFileError.self) { try TraceBytes.read(path: path, maxBytes: 1000) }
    let decoded = try DecodedTrace.decode(Trace(bytes: bytes, name: "walk.nmea"))
    var replayed: [TraceEpoch] = []
    let reader = decoded.makeReader()
    while let epoch = try reader.next() { replayed.append(epoch) }
    #expect(replayed == fromFile.epochs)
    #expect(throws: TraceFileError.self) { try DecodedTrace.decode(Trace(bytes: TraceBytes(Array("no trace\n".utf8)), name: "x")) }
  }

  @Test func aTraceDirectoryGivesOutOnlyRegularFilesInsideIt() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let outside = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: outside) }
    let fm = FileManager.default
    try Self.record.write(to: dir.appendingPathComponent("walk.jsonl"), atomically: true, encoding: .utf8)
    try fm.createDirectory(at: dir.appendingPathComponent("sub"), withIntermediateDirectories: true)
    try Self.record.write(to: dir.appendingPathComponent("sub/inner.jsonl"), atomically: true, encoding: .utf8)
    try "secret".write(to: outside.appendingPathComponent("secret.jsonl"), atomically: true, encoding: .utf8)
    try fm.createSymbolicLink(
      atPath: dir.appendingPathComponent("out.jsonl").path, withDestinationPath: outside.appendingPathComponent("secret.jsonl").path)
    try fm.createSymbolicLink(atPath: dir.appendingPathComponent("outdir").path, withDestinationPath: outside.path)
    try fm.createSymbolicLink(atPath: dir.appendingPathComponent("alias.jsonl").path, withDestinationPath: "walk.jsonl")
    try fm.createSymbolicLink(atPath: dir.appendingPathComponent("zero").path, withDestinationPath: "/dev/zero")
    #expect(mkfifo(dir.appendingPathComponent("fifo").path, 0o600) == 0)
    try String(repeating: "x", count: 5000).write(to: dir.appendingPathComponent("big.jsonl"), atomically: true, encoding: .utf8)

    let traces = try TraceDirectory(dir.path)
    #expect(traces.names() == ["alias.jsonl", "big.jsonl", "sub/inner.jsonl", "walk.jsonl"])
    #expect(try traces.read(name: "walk.jsonl", maxBytes: 4096).bytes == Array(Self.record.utf8))
    #expect(try traces.read(name: "alias.jsonl", maxBytes: 4096).bytes == Array(Self.record.utf8))
    #expect(try traces.read(name: "sub/../sub/inner.jsonl", maxBytes: 4096).bytes == Array(Self.record.utf8))
    let secret = outside.appendingPathComponent("secret.jsonl").path
    for name in [
      "out.jsonl", "outdir/secret.jsonl", "../\(outside.lastPathComponent)/secret.jsonl", secret, "/etc/passwd",
      "../../../../../../etc/passwd", "zero", "nope.jsonl", "", "walk.jsonl\u{0}x", String(repeating: "a/", count: 600),
    ] {
      #expect(throws: TraceDirectory.Refusal.notFound, "\(name.prefix(60))") { try traces.read(name: name, maxBytes: 4096) }
    }
    #expect(throws: TraceDirectory.Refusal.notRegularFile) { try traces.read(name: "fifo", maxBytes: 4096) }
    #expect(throws: TraceDirectory.Refusal.notRegularFile) { try traces.read(name: "sub", maxBytes: 4096) }
    #expect(throws: TraceDirectory.Refusal.tooLarge) { try traces.read(name: "big.jsonl", maxBytes: 4096) }
    #expect(throws: TraceFileError.self) { try TraceDirectory(dir.appendingPathComponent("walk.jsonl").path) }
  }
}
