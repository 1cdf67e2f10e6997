import Foundation
import Testing
import ToolsTestSupport

/// `locemu permissions` end to end on the built binary.
@Suite("locemu permissions")
struct PermissionsCommandTests {
  static func run(_ arguments: [String], stdin: Data? = nil) async throws -> DecodeCommandTests.Run {
    try await DecodeCommandTests.run(["permissions"] + arguments, stdin: stdin)
  }

  static func runInProcess(_ arguments: [String]) async throws -> DecodeCommandTests.Run {
    try await DecodeCommandTests.runInProcess(["permissions"] + arguments)
  }

  static func objects(_ run: DecodeCommandTests.Run) throws -> [TranscriptRecord] {
    try run.decoded(TranscriptRecord.self)
  }

  static let scenario = [
    "--virtual-time", "--prompt-answer", "allowOnce", "--prompt-delay", "2", "--at", "1=authorize", "--at", "4=request",
    "--at", "6=background", "--at", "7=foreground", "--at", "8=locate", "--at", "12=services=off", "--at", "13=request",
    "--at", "14=services=on", "--duration", "16",
  ]

  @Test func aVirtualTimeScenarioPrintsTheSameTranscriptEveryRun() async throws {
    let first = try await Self.run(Self.scenario)
    let second = try await Self.run(Self.scenario)
    #expect(first.status == 0)
    #expect(first.stdout == second.stdout)
    #expect(first.stderr.isEmpty)
    let lines = try Self.objects(first).filter { $0.event != "fix" }
    let events = lines.map { "\($0.t) \($0.event)" }
    #expect(
      events == [
        "0.0 start", "1.0 authorize", "1.0 prompt", "3.0 promptAnswered", "3.0 authorizeResult", "3.0 statusChange",
        "4.0 request", "4.0 requestResult", "6.0 allowOnceExpired", "6.0 background", "6.0 statusChange",
        "7.0 foreground", "8.0 locate", "8.0 prompt", "10.0 promptAnswered", "10.0 statusChange", "10.0 locateResult",
        "12.0 services=off", "12.0 statusChange", "13.0 request", "13.0 requestResult", "14.0 services=on",
        "14.0 statusChange", "16.0 end",
      ])
    let byEvent = { (name: String) in lines.filter { $0.event == name } }
    #expect(byEvent("requestResult").map { $0.result == nil } == [false, true])  // services off: null at once
    #expect(byEvent("statusChange").compactMap(\.reason) == ["notDetermined", "servicesDisabled"])
    #expect(byEvent("locateResult").first?.result?.lat == 52.2297)
    // Fixes flow only while authorized: from 3 s to 6 s, 10 s to 12 s and 14 s to the end at 16 s.
    let fixTimes = try Self.objects(first).filter { $0.event == "fix" }.map(\.t)
    #expect(fixTimes == [3, 4, 5, 10, 11, 14, 15])
  }

  @Test func aScenarioFileSaysTheSameAsTheFlags() async throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("scenario-\(UUID()).json")
    try """
    {"permission": "notDetermined", "promptAnswer": "allowOnce", "promptDelay": 2, "duration": 16,
     "events": [{"at": 1, "event": "authorize"}, "4=request", {"at": 6, "event": "background"},
                {"at": 7, "event": "foreground"}, {"at": 8, "event": "locate"}, {"at": 12, "event": "services=off"},
                {"at": 13, "event": "request"}, {"at": 14, "event": "services=on"}]}
    """.write(to: url, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: url) }
    let fromFile = try await Self.run(["--virtual-time", "--scenario", url.path])
    #expect(fromFile.status == 0)
    #expect(fromFile.stdout == (try await Self.run(Self.scenario)).stdout)
  }

  @Test func reducedAccuracyIsVisibleInTheTranscript() async throws {
    let run = try await Self.run([
      "--virtual-time", "--permission", "authorizedWhenInUse", "--accuracy", "reduced", "--at", "1=request", "--duration", "2",
    ])
    let result = try #require(try Self.objects(run).first { $0.event == "requestResult" }?.result)
    #expect((result.eph ?? 0) >= 3000)
    #expect(result.lat != 52.2297)
  }

  /// An event after `--duration` used to freeze the run (virtual clock) or be ignored with exit 0
  /// (real clock); now it is refused before anything runs (issue 16, item 2): exit 64, nothing on
  /// standard output, one line saying why (a run that hung instead is a failure of its own).
  @Test(
    arguments: [
      ["permissions", "--virtual-time", "--at", "5=authorize", "--duration", "2"],
      ["permissions", "--at", "5=authorize", "--duration", "2"],
      ["preview", "--virtual-time", "--at", "5=tap", "--duration", "2"],
    ])
  func anEventAfterTheEndIsRefused(arguments: [String]) async throws {
    let run = try await DecodeCommandTests.run(arguments)
    #expect(run.status == 64)
    #expect(run.stdout.isEmpty)
    #expect(run.stderr.split(separator: "\n").count == 1)
    #expect(run.stderr.contains("after the end of the run"))
  }

  @Test func anEventAtTheEndHappens() async throws {
    let run = try await Self.run(["--virtual-time", "--at", "2=authorize", "--duration", "2"])
    #expect(run.status == 0)
    #expect(run.stdout.contains(#""t":2.000,"event":"authorize""#))
  }

  /// iOS's rule (issue 16, item 13): authorized when in use, the app gets no fix in the
  /// background, and a request there waits for the foreground; declaring background location
  /// updates keeps both going.
  @Test(arguments: [false, true])
  func aWhenInUseAppInTheBackgroundGetsLocationsOnlyWithBackgroundUpdates(declared: Bool) async throws {
    let run = try await Self.run(
      [
        "--virtual-time", "--fixed", "52.2,21.0", "--permission", "authorizedWhenInUse", "--at", "2=background",
        "--at", "3=request", "--at", "5=foreground", "--duration", "7",
      ] + (declared ? ["--background-location-updates"] : []))
    #expect(run.status == 0)
    let events = try Self.objects(run)
    let fixTimes = events.filter { $0.event == "fix" }.map(\.t)
    let resultTime = events.first { $0.event == "requestResult" }?.t
    if declared {
      #expect(fixTimes == [0, 1, 2, 3, 4, 5, 6])
      #expect(resultTime == 3)
    } else {
      #expect(fixTimes == [0, 1, 5, 6])
      #expect(resultTime == 5)
    }
  }

  /// Negative numbers are values, not flags (issue 16, item 10), and a fixed point takes an
  /// altitude and an accuracy (item 15).
  @Test func aFixedPointInTheSouthWithAltitudeAndAccuracy() async throws {
    let run = try await Self.run([
      "--virtual-time", "--fixed", "-33.8,151.2,42.5", "--fixed-accuracy", "12", "--permission", "authorizedWhenInUse",
      "--duration", "1",
    ])
    #expect(run.status == 0)
    let fix = try #require(try Self.objects(run).first { $0.event == "fix" })
    #expect(fix.lat == -33.8 && fix.lon == 151.2)
    #expect(fix.altMSL == 42.5 && fix.mode == 3)
    #expect(fix.eph == 12)
  }

  @Test(
    arguments: [
      (["--duration", "-5"], "--duration must be 0 to 864000 seconds"),
      (["--fixed", "91,0"], "--fixed must be LAT,LON[,ALT]"),
      (["--fixed", "52,21", "--fixed-accuracy", "-1"], "--fixed-accuracy must be above 0"),
      (["--fixed-accuracy", "3"], "--fixed-accuracy goes with --fixed"),
    ])
  func badNumbersAreNamed(arguments: [String], message: String) async throws {
    let run = try await Self.run(arguments)
    #expect(run.status == 64)
    #expect(run.stderr.contains(message))
  }

  @Test func badInputIsAClearErrorNotACrash() async throws {
    let badEvent = try await Self.runInProcess(["--virtual-time", "--at", "3=permission=maybe"])
    #expect(badEvent.status == 64)
    #expect(badEvent.stderr.contains("permission takes"))
    #expect(try await Self.runInProcess(["--virtual-time", "--at", "soon=background"]).status == 64)
    #expect(try await Self.runInProcess(["--virtual-time", "--control", "stdin"]).status == 64)
    let missing = try await Self.runInProcess(["--virtual-time", "--scenario", "/nonexistent/scenario.json"])
    #expect(missing.status == 1)
    #expect(missing.stderr.split(separator: "\n").count == 1)
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(UUID()).json")
    try #"{"events": [{"at": 1, "event": "dance"}]}"#.write(to: url, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: url) }
    let bad = try await Self.runInProcess(["--virtual-time", "--scenario", url.path])
    #expect(bad.status == 1)
    #expect(bad.stderr.contains("unknown event 'dance'"))
  }

  @Test func eventsFromStandardInputAreAppliedLive() async throws {
    let input = Data("# a harness toggling permission\npermission=authorizedWhenInUse\nnonsense\nrequest\n".utf8)
    let run = try await Self.run(["--control", "stdin", "--duration", "3", "--request-timeout", "2"], stdin: input)
    #expect(run.status == 0)
    let events = try Self.objects(run).map(\.event)
    #expect(events.contains("permission=authorizedWhenInUse"))
    #expect(events.contains("statusChange"))
    #expect(events.last == "end")
    #expect(run.stderr.contains("unknown event 'nonsense'"))
  }
}
