import Foundation
import Testing

/// `locemu decode` end to end: the built binary, real files, exit codes and output streams.
struct DecodeCommandTests {
  struct Run {
    var status: Int32
    var stdout: String
    var stderr: String
    var lines: [String] { stdout.split(separator: "\n").map(String.init) }
  }

  /// The `locemu` binary next to the test bundle (`swift build` puts both in the same directory).
  static let binary: URL = {
    let candidates = [Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()]
      .map { $0.appendingPathComponent("locemu") }
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
  }()

  static func fixture(_ name: String) -> String {
    Bundle.module.url(forResource: "Fixtures/" + name, withExtension: nil)!.path
  }

  static func run(_ arguments: [String], stdin: Data? = nil) throws -> Run {
    let process = Process()
    process.executableURL = binary
    process.arguments = arguments
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    let input = Pipe()
    process.standardInput = input
    try process.run()
    if let stdin { input.fileHandleForWriting.write(stdin) }
    try input.fileHandleForWriting.close()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Run(
      status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
      stderr: String(decoding: errData, as: UTF8.self))
  }

  @Test func decodesARealReceiverLog() throws {
    let run = try Self.run(["decode", Self.fixture("bu353s4.log")])
    #expect(run.status == 0)
    #expect(run.lines.count == 25)
    #expect(
      run.lines.first
        == #"{"time":"2014-12-31T03:07:19.000Z","mode":3,"lat":-37.784788333,"lon":175.314896667,"altMSL":59.9000,"altHAE":83.6000,"speed":0.355,"track":181.3900,"eph":5.500,"epv":7.500}"#
    )
    for line in run.lines {
      let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      #expect(object["time"] is String && object["mode"] is Int && object["lat"] is Double && object["lon"] is Double)
      #expect(!object.values.contains { $0 is NSNull })
    }
    #expect(run.stderr.hasSuffix("\n") && run.stderr.split(separator: "\n").count == 1)
    #expect(run.stderr.contains("lines 96, accepted 90, rejected 0 (checksum 0, framing 0, unknown 0), epochs 25, fixes 25"))
  }

  @Test func readsStandardInput() throws {
    let data = try Data(contentsOf: URL(fileURLWithPath: Self.fixture("bu353s4.log")))
    let run = try Self.run(["decode", "-"], stdin: data)
    #expect(run.status == 0)
    #expect(run.lines.count == 25)
  }

  @Test func missingFileIsOneLineAndExitOne() throws {
    let run = try Self.run(["decode", "/nonexistent/trace.nmea"])
    #expect(run.status == 1)
    #expect(run.stdout.isEmpty)
    #expect(run.stderr == "locemu decode: cannot read /nonexistent/trace.nmea: No such file or directory\n")
  }

  @Test func garbageIsCountedNotFatal() throws {
    let run = try Self.run(["decode", Self.fixture("garbage.bin")])
    #expect(run.status == 0)
    #expect(run.stdout.isEmpty)
    #expect(run.stderr.contains("accepted 0"))
    #expect(run.stderr.contains("fixes 0"))
  }

  @Test func allAddsNoFixEpochs() throws {
    let text = "$GPGGA,120000,,,,,0,00,,,M,,M,,*65\n$GPGGA,120001,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*48\n"
    let plain = try Self.run(["decode", "--date", "2024-05-01", "-"], stdin: Data(text.utf8))
    let all = try Self.run(["decode", "--all", "--date", "2024-05-01", "-"], stdin: Data(text.utf8))
    #expect(plain.lines.count == 1)
    #expect(all.lines.count == 2)
    #expect(all.lines.first == #"{"time":"2024-05-01T12:00:00.000Z","mode":1}"#)
  }

  @Test(arguments: ["2024-13-01", "yesterday", "24-01-01"])
  func rejectsBadDates(date: String) throws {
    let run = try Self.run(["decode", "--date", date, Self.fixture("bu353s4.log")])
    #expect(run.status == 64)
    #expect(run.stderr.contains("--date"))
  }
}
