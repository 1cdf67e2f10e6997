import EmulatorTesting
import Foundation
import Geo
import LocationModel
import NMEA
import Testing
import TestSupport
import Traces

/// The parallel decoder on the bundled traces and on files made to test its edges: the same
/// output, counts and errors as decoding on one thread, whatever the chunks.
@Suite("NMEAFileDecoder.decodeInParallel")
struct ParallelDecodeTests {
  @Sendable static func render(_ fix: NMEAFix, _ out: inout [UInt8]) {
    FixRecord.append(LocationFix(fix), gpsd: fix.gpsdMembers, to: &out)
    out.append(0x0A)
  }

  struct Decoded {
    var output: [UInt8] = []
    var result: Result<NMEADecoderStatistics, TraceFileError>
    var report = NMEAFileDecoder.ParallelReport()
  }

  static func oneThread(_ path: String, options: NMEAEpochAssembler.Options = .init()) -> Decoded {
    var output: [UInt8] = []
    let result = Result { () throws(TraceFileError) in
      do { return try NMEAFileDecoder.decode(path: path, options: options) { render($0, &output) } } catch {
        throw error as! TraceFileError
      }
    }
    return Decoded(output: output, result: result)
  }

  /// The parallel decoder's output. It blocks the calling thread while its threads decode (and
  /// reads a FIFO itself): call it through `offPool`.
  static func inParallel(
    _ path: String, options: NMEAEpochAssembler.Options = .init(), chunkSize: Int, warmUp: Int = 64 << 10, threads: Int = 2
  ) -> Decoded {
    expectOffPool("ParallelDecodeTests.inParallel (decodeInParallel waits for its threads)")
    var output: [UInt8] = []
    var report = NMEAFileDecoder.ParallelReport()
    let result = Result { () throws(TraceFileError) in
      do {
        let (statistics, r) = try NMEAFileDecoder.decodeInParallelReporting(
          path: path, options: options, threads: threads, chunkSize: chunkSize, warmUp: warmUp, render: render
        ) { output += $0 }
        report = r
        return statistics
      } catch { throw error as! TraceFileError }
    }
    return Decoded(output: output, result: result, report: report)
  }

  /// A file in a new temporary directory, removed with it at the end of `body`.
  static func withFile<T>(_ bytes: [UInt8], _ body: (String) async throws -> T) async throws -> T {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("locemu-parallel-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("log.nmea").path
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return try await body(path)
  }

  @Test(
    "every bundled trace in chunks of 8 KB: the same bytes and counts as one thread, whichever guesses were right",
    arguments: ["city-walk.nmea", "helsinki-walk.nmea", "helsinki-drive.nmea"])
  func bundledTraces(name: String) async throws {
    let path = tracePath(name)
    let expected = Self.oneThread(path)
    let got = await offPool { Self.inParallel(path, chunkSize: 8 << 10, warmUp: 16 << 10, threads: 3) }
    #expect(got.output == expected.output)
    #expect(try got.result.get() == expected.result.get())
    // Every epoch reported, and a date for logs without one: the options reach every chunk.
    let options = NMEAEpochAssembler.Options(date: NMEADate(year: 2026, month: 5, day: 16), reporting: .everyTimeStamp)
    let everyEpoch = await offPool { Self.inParallel(path, options: options, chunkSize: 8 << 10, warmUp: 16 << 10, threads: 3) }
    #expect(everyEpoch.output == Self.oneThread(path, options: options).output)
    #expect(got.report.chunks >= 12)
    // Which guesses are right depends on the threads' timing: a chunk starts from the state last
    // known right when it is begun, and gpsd's learned reporting cycle grows at a receiver's
    // irregular epochs, so a chunk begun before such an epoch was taken guesses wrong. (How many
    // chunks of a large log are kept: `scripts/bench-nmea.sh` prints it.)
    #expect(got.report.decodedAgain < got.report.chunks, "\(String(describing: got.report.differences))")
  }

  @Test("a file smaller than two chunks is decoded on one thread beside the caller's, to the same bytes")
  func smallFile() async throws {
    let path = tracePath("tunnel.nmea")
    let got = await offPool { Self.inParallel(path, chunkSize: 2 << 20) }
    #expect(got.report.chunks == 0)
    #expect(got.output == Self.oneThread(path).output)
  }

  @Test(
    "a log whose only date is in a ZDA at its top: chunks guessed before the first is taken lack it and are decoded again, later ones start from the date known; the same bytes"
  )
  func dateOnlyAtTheTop() async throws {
    var text = NMEAWriter.framed("GPZDA,120000.00,27,11,2026,00,00") + "\r\n"
    for second in 0..<20_000 {
      let time = String(format: "%02d%02d%02d.00", 12 + second / 3600, second / 60 % 60, second % 60)
      text += NMEAWriter.framed("GPGGA,\(time),5013.0000,N,01955.8000,E,1,08,0.9,220.0,M,39.0,M,,") + "\r\n"
    }
    try await Self.withFile(Array(text.utf8)) { (path) async throws in
      let expected = Self.oneThread(path)
      let got = await offPool { Self.inParallel(path, chunkSize: 64 << 10, warmUp: 4096) }
      #expect(got.output == expected.output)
      #expect(try got.result.get() == expected.result.get())
      #expect(got.report.chunks > 10)
      #expect(
        got.report.decodedAgain >= 1 && got.report.decodedAgain * 2 < got.report.chunks, "\(String(describing: got.report.differences))")
      #expect(got.report.differences.keys.allSatisfy { $0.contains("Date") }, "\(String(describing: got.report.differences))")
    }
  }

  /// A receiver (kept out of the corpus) that starts each second with a GLL stamped to the
  /// millisecond (`hhmmss.303`) and then sends GGA and RMC stamped to the centisecond (`.30`):
  /// gpsd (3.27) reports two epochs a second, the GLL's and then GGA/RMC's, since the two times
  /// differ. Both are kept in every second, in the seconds where the position did not change too
  /// (a decoder once dropped the second there), on one thread and in parallel alike.
  @Test("a GLL stamped to the millisecond before GGA and RMC to the centisecond: two epochs every second, moving or not")
  func millisecondGLLBeforeCentisecondGGA() async throws {
    var text = ""
    var latitude = 5214.8560
    for second in 0..<3000 {
      let hms = String(format: "%02d%02d%02d", 12 + second / 3600, second / 60 % 60, second % 60)
      if second % 4 < 2 { latitude += 0.0001 }  // two seconds moving, two standing
      let position = String(format: "%09.4f,N,02100.8220,E", latitude)
      text += NMEAWriter.framed("GPGLL,\(position),\(hms).303,A,A") + "\r\n"
      text += NMEAWriter.framed("GPGGA,\(hms).30,\(position),1,08,0.9,12.0,M,19.0,M,,") + "\r\n"
      text += NMEAWriter.framed("GPRMC,\(hms).30,A,\(position),0.0,0.0,281126,,,A") + "\r\n"
    }
    try await Self.withFile(Array(text.utf8)) { (path) async throws in
      let expected = Self.oneThread(path)
      let lines = String(decoding: expected.output, as: UTF8.self).split(separator: "\n")
      // The first GLL comes before any date: its epoch has no time.
      #expect(lines.filter { $0.contains(".303Z\"") }.count == 2999)
      #expect(lines.filter { $0.contains(".300Z\"") }.count == 3000)
      #expect(lines.count == 6000)
      let got = await offPool { Self.inParallel(path, chunkSize: 16 << 10, warmUp: 16 << 10, threads: 3) }
      #expect(got.output == expected.output)
      #expect(got.report.chunks > 10)
    }
  }

  // The plain build only: 17 MB decoded twice, where the threads do what the other tests' do.
  @Test(
    "more than 16 MB without a sentence: the same error at the same point, after the same output, as one thread",
    .notUnderThreadSanitizer)
  func junk() async throws {
    var bytes = Array(try String(contentsOfFile: tracePath("city-walk.nmea"), encoding: .utf8).utf8)
    let junkLine = Array(repeating: UInt8(ascii: "x"), count: 99) + [0x0A]
    for _ in 0..<(17 << 20) / junkLine.count { bytes += junkLine }
    bytes += Array(try String(contentsOfFile: tracePath("drive.nmea"), encoding: .utf8).utf8)
    try await Self.withFile(bytes) { (path) async throws in
      let expected = Self.oneThread(path)
      let got = await offPool { Self.inParallel(path, chunkSize: 1 << 20) }
      #expect(got.report.chunks == 0)  // the error ends the decoding before any report
      #expect(!expected.output.isEmpty)
      #expect(got.output == expected.output)
      guard case .failure(let error) = got.result, case .failure(let reference) = expected.result else {
        Issue.record("expected both to fail: \(got.result), \(expected.result)")
        return
      }
      #expect(error == reference)
      #expect("\(error)".contains("16 MB read without a valid NMEA sentence"))
    }
  }

  @Test("lines longer than the search for a line end (junk, or a file without line ends): chunks cut inside them, the same bytes")
  func longLines() async throws {
    let walk = Array(try String(contentsOfFile: tracePath("helsinki-walk.nmea"), encoding: .utf8).utf8)
    let longLine = Array(repeating: UInt8(ascii: "$"), count: 300 << 10) + [0x0A]
    let bytes = Array(walk[..<100_000]) + longLine + Array(walk[100_000...]) + longLine + Array(walk[..<50_000])
    try await Self.withFile(bytes) { (path) async throws in
      let expected = Self.oneThread(path)
      for chunkSize in [64 << 10, 100_003] {
        let got = await offPool { Self.inParallel(path, chunkSize: chunkSize, warmUp: 16 << 10) }
        #expect(got.output == expected.output)
        #expect(try got.result.get() == expected.result.get())
        #expect(got.report.chunks >= 10)
      }
    }
    // A file of sentences without a single line end is one long line to the decoder.
    let flat = walk.filter { $0 != 0x0A && $0 != 0x0D }
    try await Self.withFile(flat) { (path) async throws in
      let got = await offPool { Self.inParallel(path, chunkSize: 16 << 10) }
      #expect(got.output == Self.oneThread(path).output)
      #expect(try got.result.get() == Self.oneThread(path).result.get())
    }
  }

  /// The parallel decoder leaves a FIFO unopened (opening and closing it would leave its writer,
  /// for a moment, without a reader: a write then fails), and the one-thread reader reads it.
  @Test("a named pipe is read as it comes, by one thread, to the same bytes")
  func namedPipe() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("locemu-fifo-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let fifo = directory.appendingPathComponent("log.nmea").path
    #expect(mkfifo(fifo, 0o600) == 0)
    let writer = Process()
    writer.executableURL = URL(fileURLWithPath: "/bin/sh")
    writer.arguments = ["-c", "cat \"$0\" > \"$1\"", tracePath("city-walk.nmea"), fifo]
    // The writer's end is awaited, not waited for (`waitUntilExit` would hold a pool thread).
    let (exits, exited) = AsyncStream.makeStream(of: Int32.self)
    writer.terminationHandler = { process in
      exited.yield(process.terminationStatus)
      exited.finish()
    }
    try writer.run()
    // The decoding blocks its thread (opening and reading the pipe): off the cooperative pool.
    // A hang guard: a decoder that lost the pipe's writer would wait for another for good.
    let finished = await hangGuarded(within: .seconds(600)) { () async -> (Decoded, Int32?) in
      let decoded = await offPool { Self.inParallel(fifo, chunkSize: 4096) }
      return (decoded, await exits.first { _ in true })
    }
    guard let finished else {
      writer.terminate()
      Issue.record("decoding a named pipe, and its writer's exit, did not end within 600 s")
      return
    }
    let (decoded, status) = finished
    #expect(status == 0, "the writer's exit status")
    #expect(decoded.output == Self.oneThread(tracePath("city-walk.nmea")).output)
    #expect(decoded.report.chunks == 0)
  }

  @Test("a missing file and a directory are the one-thread decoder's errors")
  func unreadable() async {
    let missing = await offPool { Self.inParallel("/nonexistent/log.nmea", chunkSize: 4096) }
    #expect(missing.result == Self.oneThread("/nonexistent/log.nmea").result)
    let directory = FileManager.default.temporaryDirectory.path
    let decoded = await offPool { Self.inParallel(directory, chunkSize: 4096) }
    guard case .failure(let error) = decoded.result else {
      Issue.record("a directory was decoded")
      return
    }
    #expect(error.message.contains("is a directory"))
  }

  struct Enough: Error {}

  @Test("what `write` throws ends the decoding, and the call returns once every thread has stopped")
  func writeThrows() async {
    // The call waits for its threads: off the cooperative pool.
    let (writes, thrown) = await offPool { () -> (Int, (any Error)?) in
      var writes = 0
      do {
        let path = tracePath("helsinki-walk.nmea")
        _ = try NMEAFileDecoder.decodeInParallel(path: path, threads: 2, chunkSize: 8192, render: Self.render) { _ in
          writes += 1
          if writes == 2 { throw Enough() }
        }
        return (writes, nil)
      } catch {
        return (writes, error)
      }
    }
    #expect(thrown is Enough, "\(String(describing: thrown))")
    #expect(writes == 2)
  }
}
