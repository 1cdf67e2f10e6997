import EmulatorTesting
import Foundation
import Geo
import ToolsTestSupport
import NMEA
import Testing
import Traces
import LocationModel

/// `locemu decode` end to end: the built binary, real files, exit codes and output streams.
struct DecodeCommandTests {
  struct Run {
    var status: Int32
    var stdout: String
    var stderr: String
    /// The process outlived its bound and was killed (which the helper that ran it records as
    /// an issue naming the command).
    var timedOut = false
    /// What the hang guard saw when the process outlived its bound (``examineHang(of:frames:limit:)``):
    /// why it was killed, or the lost wakeup below its code that gdb's attach ended, after which
    /// it went on (recorded as a warning).
    var hang: String?
    var lines: [String] { stdout.split(separator: "\n").map(String.init) }
  }

  static func fixture(_ name: String) -> String {
    Bundle.module.url(forResource: "Fixtures/" + name, withExtension: nil)!.path
  }

  /// Runs the binary with `arguments` (and `stdin`) and waits for it, off the cooperative thread
  /// pool: a test blocked in `waitUntilExit` there would starve every other test's tasks.
  /// At most two processes run at once (this machine has two cores).
  /// A process still running after `bound` is killed (SIGKILL), reported as `timedOut` and
  /// recorded as an issue naming the command, so a hang fails its test instead of the whole
  /// suite. The bound is a hang guard only: a whole run under ThreadSanitizer on a loaded
  /// machine has taken 16 s.
  static func run(
    _ arguments: [String], stdin: Data? = nil, bound: Duration = .seconds(600), sourceLocation: SourceLocation = #_sourceLocation
  ) async throws -> Run {
    await processSlots.acquire()
    defer { processSlots.release() }
    let run = try await offPool { try runBlocking(arguments, stdin: stdin, bound: bound) }
    recordHang(run, arguments, bound: bound, sourceLocation: sourceLocation)
    return run
  }

  /// Runs a process that waits on the test (a stream, a recording, a run with a duration)
  /// without taking one of the two process slots: the test's own `ctl` calls, which it waits
  /// for, must not queue behind it.
  /// `also`: the processes it talks to (a server), looked at too when it hangs.
  static func runInBackground(
    _ arguments: [String], bound: Duration = .seconds(600), environment: [String: String] = [:], also: [pid_t] = [],
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws -> Run {
    let run = try await offPool { try runBlocking(arguments, bound: bound, environment: environment, also: also) }
    recordHang(run, arguments, bound: bound, sourceLocation: sourceLocation)
    return run
  }

  /// A run killed at its bound is a failure of the test that started it, named by its command,
  /// with what its threads were doing. One that went on after the hang guard's look (a lost wakeup
  /// below its code that gdb's attach ended, which the look names) is a warning: its result is
  /// the command's own.
  static func recordHang(_ run: Run, _ arguments: [String], bound: Duration, sourceLocation: SourceLocation) {
    let command = "locemu \(arguments.joined(separator: " "))"
    if run.timedOut {
      Issue.record("\(command): killed after \(bound), a hang\n\(run.hang ?? "")", sourceLocation: sourceLocation)
    } else if let hang = run.hang {
      recordEndAfterLook(command, bound: bound, look: hang, sourceLocation: sourceLocation)
    }
  }

  /// Blocks its thread until the process has ended and its output is read: call it through
  /// ``offPool(_:)`` (``run(_:stdin:bound:sourceLocation:)`` does).
  static func runBlocking(
    _ arguments: [String], stdin: Data? = nil, bound: Duration = .seconds(600), executable: URL = locemuBinary,
    environment: [String: String] = [:], also: [pid_t] = [],
    examine: @escaping @Sendable (pid_t) -> HangReport = { examineHang(of: $0) }
  ) throws -> Run {
    expectOffPool("runBlocking(locemu \(arguments.joined(separator: " ")))")
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if !environment.isEmpty {
      process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
    }
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    let input = Pipe()
    process.standardInput = input
    try process.run()
    // The process and its group, looked at (with the processes it talks to) before the kill.
    let hangGuard = ProcessHangGuard(process.processIdentifier, bound: bound, also: also, examine: examine)
    // Standard input and standard error on threads of their own: a child that fills its output
    // while we still write its input (a replay of 150 KB of records) would block with us. Not
    // on DispatchQueue.global(), whose threads the cooperative pool's jobs run on too: each of
    // them is held for the child's whole life.
    let pipes = DispatchGroup()
    let writer = input.fileHandleForWriting
    pipes.enter()
    Thread {
      // A child that stops reading early (it exited, or refused the input) fails the write
      // with EPIPE (SIGPIPE is ignored); its exit status and standard error say what happened.
      signal(SIGPIPE, SIG_IGN)
      if let stdin { try? writer.write(contentsOf: stdin) }
      try? writer.close()
      pipes.leave()
    }.start()
    let errData = Locked(Data())
    pipes.enter()
    Thread {
      let data = err.fileHandleForReading.readDataToEndOfFile()
      errData.withLock { $0 = data }
      pipes.leave()
    }.start()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    pipes.wait()
    process.waitUntilExit()
    let outcome = hangGuard.disarm()
    return Run(
      status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
      stderr: String(decoding: errData.withLock { $0 }, as: UTF8.self), timedOut: outcome.killed, hang: outcome.look)
  }

  /// The command decodes a file in chunks on every core and writes each chunk's records in
  /// order; its output is the library's on one thread, record for record, on a file of ten
  /// chunks of 64 KB (5,000 epochs; real runs take 2 MB chunks), with fixes and no-fix epochs
  /// mixed; `--all` too.
  @Test func everyCoreWritesWhatOneThreadDecodes() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("decode-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    var text = ""
    for i in 0..<5_000 {
      let time = String(format: "%02d%02d%02d", 10 + i / 3600, i / 60 % 60, i % 60)
      let minutes = String(format: "%07.4f", 7.0 + Double(i % 3000) * 0.001)
      let lost = i % 97 < 5  // a no-fix stretch now and then
      text += Self.sentence("GPGGA,\(time),48\(minutes),N,01131.000,E,\(lost ? 0 : 1),\(lost ? "00" : "08"),0.9,545.4,M,,M,,")
      text += Self.sentence("GPRMC,\(time),\(lost ? "V" : "A"),48\(minutes),N,01131.000,E,0.5,84.4,010326,,")
    }
    let path = directory.appendingPathComponent("long.nmea").path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    #expect(text.utf8.count > 9 * 65_536)
    var expected: [String] = []
    let counts = try NMEAFileDecoder.decode(path: path) { fix in
      if fix.mode >= .twoD { expected.append(FixRecord.json(LocationFix(fix), gpsd: fix.gpsdMembers)) }
    }
    let run = try await Self.runInProcess(["decode", "--chunk-bytes", "65536", path])
    #expect(run.status == 0)
    #expect(expected.count > 4_500 && expected.count < 5_000)
    #expect(run.lines == expected)
    #expect(run.stderr == "locemu decode: \(path): \(counts.summary)\n")
    let all = try await Self.runInProcess(["decode", "--all", "--chunk-bytes", "65536", path])
    #expect(all.lines.count == 5_000)
  }

  static func sentence(_ body: String) -> String {
    let sum = body.utf8.reduce(UInt8(0)) { $0 ^ $1 }
    return "$\(body)*\(String(format: "%02X", sum))\r\n"
  }

  @Test func decodesARealReceiverLog() async throws {
    let run = try await Self.runInProcess(["decode", Self.fixture("bu353s4.log")])
    #expect(run.status == 0)
    #expect(run.lines.count == 25)
    #expect(
      run.lines.first
        == #"{"time":"2014-12-31T03:07:19.000Z","mode":3,"lat":-37.784788333,"lon":175.314896667,"altMSL":59.9000,"altHAE":83.6000,"speed":0.355,"track":181.3900,"magtrack":201.9320,"eph":20.900,"epv":34.500,"geoidSep":23.700,"magvar":20.5,"ept":0.005,"sep":34.200}"#
    )
    /// The members every record has, of their types: decoding checks them.
    struct Record: Decodable {
      var time: String
      var mode: Int
      var lat: Double
      var lon: Double
    }
    for line in run.lines {
      _ = try JSONDecoder().decode(Record.self, from: Data(line.utf8))
      let members = try JSONDecoder().decode([String: JSONValue].self, from: Data(line.utf8))
      #expect(!members.values.contains(.null))
    }
    #expect(run.stderr.hasSuffix("\n") && run.stderr.split(separator: "\n").count == 1)
    #expect(run.stderr.contains("lines 96, accepted 90, rejected 0 (checksum 0, framing 0, unknown 0), epochs 25, fixes 25"))
  }

  /// A command that writes megabytes widens a pipe on its standard output from the kernel's
  /// 64 KB to 1 MB (fewer handovers to the reader: `locemu decode` piped on is ~5 % faster), and
  /// writes through it what it writes to a file.
  @Test(arguments: [["decode", "FILE"], ["convert", "FILE", "-", "--to", "gpx"], ["simulate", "FILE", "--seed", "1"]])
  func widensAPipeOnStandardOutput(command: [String]) async throws {
    let arguments = command.map { $0 == "FILE" ? Self.fixture("bu353s4.log") : $0 }
    var ends: [Int32] = [0, 0]
    try #require(pipe(&ends) == 0)
    defer { close(ends[0]) }
    #expect(fcntl(ends[0], 1032 /* F_GETPIPE_SZ */) == 65_536)
    let piped = try await Self.runInProcess(arguments, output: ends[1])
    close(ends[1])
    #expect(piped.status == 0)
    #expect(fcntl(ends[0], 1032) == 1 << 20)
    // What the command wrote is in the pipe (less than its 64 KB at first: no reader needed).
    var written: [UInt8] = []
    var block = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let n = block.withUnsafeMutableBytes { read(ends[0], $0.baseAddress, $0.count) }
      if n <= 0 { break }
      written += block[..<n]
    }
    let filed = try await Self.runInProcess(arguments)
    #expect(filed.status == 0)
    #expect(!filed.stdout.isEmpty)
    #expect(String(decoding: written, as: UTF8.self) == filed.stdout)
  }

  @Test func readsStandardInput() async throws {
    let data = try Data(contentsOf: URL(fileURLWithPath: Self.fixture("bu353s4.log")))
    let run = try await Self.run(["decode", "-"], stdin: data)
    #expect(run.status == 0)
    #expect(run.lines.count == 25)
  }

  @Test func missingFileIsOneLineAndExitOne() async throws {
    let run = try await Self.runInProcess(["decode", "/nonexistent/trace.nmea"])
    #expect(run.status == 1)
    #expect(run.stdout.isEmpty)
    #expect(run.stderr == "locemu decode: cannot read /nonexistent/trace.nmea: No such file or directory\n")
  }

  /// Runs locemu under GNU time: the run, and its peak resident memory in MB.
  static func runMeasured(
    _ arguments: [String], bound: Duration = .seconds(600), sourceLocation: SourceLocation = #_sourceLocation
  ) async throws -> (run: Run, peakMB: Double) {
    await processSlots.acquire()
    defer { processSlots.release() }
    let run = try await offPool {
      try runBlocking(
        ["-f", "locemu-peak-kb %M", locemuBinary.path] + arguments, bound: bound, executable: URL(fileURLWithPath: "/usr/bin/time"))
    }
    recordHang(run, arguments, bound: bound, sourceLocation: sourceLocation)
    let line = try #require(run.stderr.split(separator: "\n").last { $0.hasPrefix("locemu-peak-kb ") })
    let kb = try #require(Double(line.dropFirst("locemu-peak-kb ".count)))
    var own = run
    // GNU time's own lines: the figure, and "Command exited with non-zero status N".
    own.stderr = run.stderr.split(separator: "\n", omittingEmptySubsequences: false)
      .filter { !$0.hasPrefix("locemu-peak-kb ") && !$0.hasPrefix("Command exited with non-zero status") }
      .joined(separator: "\n")
    return (own, kb / 1024)
  }

  /// Input that never ends or never breaks a line: /dev/zero is refused at once, and a 1 GB
  /// file without a line break (sparse, so the test writes nothing) ends after the readers'
  /// junk limit — each with exit 1 and one line on standard error (an end, not a kill at the
  /// bound), in bounded memory.
  @Test func endlessOrFlatInputEndsBoundedWithOneLine() async throws {
    let flat = FileManager.default.temporaryDirectory.appendingPathComponent("flat-\(UUID()).jsonl")
    #expect(FileManager.default.createFile(atPath: flat.path, contents: nil))
    defer { try? FileManager.default.removeItem(at: flat) }
    let handle = try FileHandle(forWritingTo: flat)
    try handle.truncate(atOffset: 1 << 30)
    try handle.close()
    for arguments in [
      ["replay", "/dev/zero", "--format", "jsonl"], ["replay", "/dev/urandom"], ["decode", "/dev/zero"],
      ["replay", flat.path, "--format", "jsonl"], ["replay", flat.path, "--format", "nmea"], ["decode", flat.path],
      ["convert", flat.path, "-", "--to", "gpx"],
    ] {
      let (run, peakMB) = try await Self.runMeasured(arguments)
      #expect(run.status == 1, "\(arguments): \(run.stderr)")
      #expect(peakMB < 100 * Sanitizers.memoryFactor, "\(arguments): \(peakMB) MB")
      #expect(run.stderr.split(separator: "\n").count == 1, "\(arguments): \(run.stderr)")
      #expect(run.stdout.isEmpty, "\(arguments)")
    }
  }

  @Test func garbageIsCountedNotFatal() async throws {
    let run = try await Self.runInProcess(["decode", Self.fixture("garbage.bin")])
    #expect(run.status == 0)
    #expect(run.stdout.isEmpty)
    #expect(run.stderr.contains("accepted 0"))
    #expect(run.stderr.contains("fixes 0"))
  }

  @Test func allAddsNoFixEpochs() async throws {
    let text = "$GPGGA,120000,,,,,0,00,,,M,,M,,*65\n$GPGGA,120001,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*48\n"
    let plain = try await Self.run(["decode", "--date", "2024-05-01", "-"], stdin: Data(text.utf8))
    let all = try await Self.run(["decode", "--all", "--date", "2024-05-01", "-"], stdin: Data(text.utf8))
    #expect(plain.lines.count == 1)
    #expect(all.lines.count == 2)
    // gpsd's time error comes with every fix that has a time, as gpsd reports it.
    #expect(all.lines.first == #"{"time":"2024-05-01T12:00:00.000Z","mode":1,"ept":0.005}"#)
  }

  @Test(arguments: ["2024-13-01", "yesterday", "24-01-01"])
  func rejectsBadDates(date: String) async throws {
    let run = try await Self.runInProcess(["decode", "--date", date, Self.fixture("bu353s4.log")])
    #expect(run.status == 64)
    #expect(run.stderr.contains("--date"))
  }
}

/// A counting semaphore for tasks: waiting suspends, never blocks a thread.
final class AsyncSlots: @unchecked Sendable {
  private let lock = NSLock()
  private var free: Int
  private var waiting: [CheckedContinuation<Void, Never>] = []

  init(_ count: Int) { free = count }

  func acquire() async {
    await withCheckedContinuation { continuation in
      lock.lock()
      if free > 0 {
        free -= 1
        lock.unlock()
        continuation.resume()
      } else {
        waiting.append(continuation)
        lock.unlock()
      }
    }
  }

  func release() {
    lock.lock()
    if waiting.isEmpty {
      free += 1
      lock.unlock()
    } else {
      let next = waiting.removeFirst()
      lock.unlock()
      next.resume()
    }
  }
}

/// The slots of `locemu` processes the CLI tests may run at once.
let processSlots = AsyncSlots(2)
