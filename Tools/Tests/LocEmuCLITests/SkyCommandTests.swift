import Foundation
import Testing
import ToolsTestSupport

/// `locemu sky`: the satellites in view and their DOPs, as one JSON object per time.
struct SkyCommandTests {
  /// A line of `locemu sky`: gpsd's SKY members that the test reads.
  struct Sky: Decodable {
    struct Satellite: Decodable {
      var el: Double?
    }

    var time: String?
    var nSat: Int?
    var hdop: Double?
    var satellites: [Satellite]?
  }

  @Test func theNominalSkyOverHelsinkiEveryMinute() async throws {
    let run = try await DecodeCommandTests.runInProcess([
      "sky", "--from", "60.17,24.94", "--at", "2026-05-16T09:00:00Z", "--every", "60", "--count", "3",
    ])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.lines.count == 3)
    let objects = try run.decoded(Sky.self)
    #expect(objects.map(\.time) == ["2026-05-16T09:00:00.000Z", "2026-05-16T09:01:00.000Z", "2026-05-16T09:02:00.000Z"])
    for object in objects {
      let satellites = try #require(object.satellites)
      #expect(satellites.count == object.nSat && satellites.count >= 4)
      #expect(satellites.allSatisfy { ($0.el ?? -1) >= 5 })
      #expect(object.hdop.map { $0 > 0.5 && $0 < 5 } == true)
    }
    // A higher mask sees fewer satellites.
    let masked = try await DecodeCommandTests.runInProcess([
      "sky", "--from", "60.17,24.94", "--at", "2026-05-16T09:00:00Z", "--mask", "30",
    ])
    #expect(masked.status == 0 && masked.lines.count == 1)
    #expect(!masked.lines[0].contains(#""el":2"#) && !masked.lines[0].contains(#""el":1"#))
  }

  @Test func badInputIsAOneLineErrorWithItsStatus() async throws {
    let missing = try await DecodeCommandTests.runInProcess(["sky", "--from", "60.17,24.94", "--almanac", "/nonexistent/current.alm"])
    #expect(missing.status == 1)
    #expect(missing.stderr.hasPrefix("locemu sky: /nonexistent/current.alm: cannot read it"))
    #expect(missing.stderr.split(separator: "\n").count == 1)
    let scratch = try CommandContractTests.Scratch()
    defer { scratch.remove() }
    let junk = scratch.path("junk.alm")
    try Data("31 CURRENT.ALM\n2400 405504\n\n1\n63\nx\n".utf8).write(to: URL(fileURLWithPath: junk))
    let bad = try await DecodeCommandTests.runInProcess(["sky", "--from", "60.17,24.94", "--almanac", junk])
    #expect(bad.status == 1)
    #expect(bad.stderr == "locemu sky: \(junk): line 6: not a number: x\n")
    let noPlace = try await DecodeCommandTests.runInProcess(["sky", "--from", "north", "--at", "2026-05-16T09:00:00Z"])
    #expect(noPlace.status == 64)
    #expect(noPlace.stderr.contains("--from wants LAT,LON[,HEIGHT]"))
  }
}
