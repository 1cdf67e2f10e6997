import Foundation
import Geo
import LocationModel
import Testing
import Traces

/// `locemu record`'s writer: a trace written as it comes, readable as a trace again.
@Suite("TraceRecorder")
struct TraceRecorderTests {
  let noon = Date(timeIntervalSince1970: 1_767_268_800)  // 2026-01-01T12:00:00Z

  func fix(_ seconds: Double, _ northMetres: Double) -> LocationFix {
    LocationFix(
      timestamp: noon.addingTimeInterval(seconds), mode: .twoD, coordinate: north(of: warsaw, northMetres), speed: 1,
      horizontalAccuracy: 5)
  }

  func recording(_ format: Trace.Format, now: Date? = nil, _ body: (TraceRecorder) -> Void) throws -> (String, String) {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("recorder-\(UUID()).\(format.rawValue)").path
    _ = FileManager.default.createFile(atPath: path, contents: nil)
    let file = try #require(FileHandle(forWritingAtPath: path))
    let recorder = TraceRecorder(file: file, format: format, name: "walk", now: { now ?? Date() })
    body(recorder)
    recorder.finish()
    return (path, try String(contentsOfFile: path, encoding: .utf8))
  }

  @Test func sentencesWaitForTheFirstDateAndEpochsAreTimeStamps() throws {
    let epochs = (0..<3).map { NMEAWriter.receiverEpoch(for: fix(Double($0), Double($0))) }
    let recorder = try recording(.nmea) { recorder in
      // The first epoch's GGA and GSA come before its RMC, which gives the date.
      for line in epochs.joined() { recorder.write(sentence: line) }
      #expect(recorder.epochs == 3)
    }
    let lines = recorder.1.split(separator: "\r\n").map(String.init)
    #expect(lines.first == "# Date: 2026-01-01")
    #expect(Array(lines.dropFirst(2)) == Array(epochs.joined()))
  }

  @Test func anEpochLimitKeepsOutTheSentenceThatWouldBeginTheNextEpoch() throws {
    let epochs = (0..<3).map { NMEAWriter.receiverEpoch(for: fix(Double($0), Double($0))) }
    let (_, text) = try recording(.nmea) { recorder in
      var refused: String?
      for line in epochs.joined() where !recorder.write(sentence: line, epochLimit: 2) {
        refused = line
        break
      }
      #expect(recorder.epochs == 2)
      #expect(refused == epochs[2].first)
    }
    let lines = text.split(separator: "\r\n").map(String.init)
    #expect(Array(lines.dropFirst(2)) == Array(epochs[0] + epochs[1]))
  }

  @Test func withoutADateTwentySentencesStartTheFileOnTodayFromTheClock() throws {
    let ggas = (0..<25).flatMap { NMEAWriter.receiverEpoch(for: fix(Double($0), 0)).filter { $0.hasPrefix("$GPGGA") } }
    let (_, text) = try recording(.nmea, now: Date(timeIntervalSince1970: 1_780_000_000)) { recorder in
      for line in ggas { recorder.write(sentence: line) }
    }
    #expect(text.hasPrefix("# Date: 2026-05-28\r\n"))
    #expect(text.components(separatedBy: "$GPGGA").count - 1 == 25)
  }

  @Test func fixesMakeAGPXTrackThatReadsBack() throws {
    let fixes = (0..<5).map { fix(Double($0), Double($0) * 10) }
    let (path, _) = try recording(.gpx) { recorder in
      for f in fixes { recorder.write(fix: f) }
      #expect(recorder.epochs == 5)
    }
    defer { try? FileManager.default.removeItem(atPath: path) }
    let reader = try Trace(path: path).makeReader()
    var read: [LocationFix] = []
    while let epoch = try reader.next() { read.append(epoch.fix) }
    #expect(read.count == 5)
    for (a, b) in zip(read, fixes) {
      #expect(try #require(a.coordinate).distance(to: try #require(b.coordinate)) < 0.01)
      #expect(a.timestamp == b.timestamp)
    }
  }
}
