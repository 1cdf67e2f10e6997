import Emulator
import Foundation
import Geo
import PermissionHandling
import Testing

@Suite("ScenarioRunner: a transcript is a function of the scenario")
struct ScenarioRunnerTests {
  static let scenario = Scenario(
    promptAnswer: .allowOnce, promptDelay: 2,
    steps: [
      .init(at: 1, event: .authorize), .init(at: 4, event: .request), .init(at: 6, event: .background),
      .init(at: 7, event: .foreground), .init(at: 8, event: .locate), .init(at: 12, event: .services(false)),
      .init(at: 13, event: .request), .init(at: 14, event: .services(true)),
    ], duration: 16)

  func transcript(_ scenario: Scenario = scenario) async throws -> [String] {
    let lines = Recorder<String>()
    let runner = ScenarioRunner(scenario: scenario, source: .fixed(warsaw), clock: EmulatorClock(), emit: { lines.append($0.json) })
    try await runner.run()
    return lines.all
  }

  @Test func theSameScenarioGivesTheSameTranscriptEveryRun() async throws {
    let first = try await transcript()
    for _ in 0..<20 { #expect(try await transcript() == first) }
    let events = first.compactMap { line -> String? in
      guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], object["event"] as? String != "fix"
      else { return nil }
      return "\(object["t"] as! Double) \(object["event"] as! String)"
    }
    #expect(
      events == [
        "0.0 start", "1.0 authorize", "1.0 prompt", "3.0 promptAnswered", "3.0 authorizeResult", "3.0 statusChange",
        "4.0 request", "4.0 requestResult", "6.0 allowOnceExpired", "6.0 background", "6.0 statusChange",
        "7.0 foreground", "8.0 locate", "8.0 prompt", "10.0 promptAnswered", "10.0 statusChange", "10.0 locateResult",
        "12.0 services=off", "12.0 statusChange", "13.0 request", "13.0 requestResult", "14.0 services=on",
        "14.0 statusChange", "16.0 end",
      ])
  }

  @Test func aPromptTheAppTriggeredReportsBecomingAuthorized() async throws {
    let lines = try await transcript()
    let change = try #require(lines.first { $0.hasPrefix("{\"t\":10.000,\"event\":\"statusChange\"") })
    #expect(change.contains("\"didBecomeAuthorized\":true"))
    let located = try #require(lines.first { $0.contains("\"locateResult\"") })
    // The whole fix: time, accuracy.
    #expect(located.contains("\"time\":\"2026-01-01T00:00:10.000Z\"") && located.contains("\"eph\":5.000"))
  }

  @Test func callsStillWaitingAtTheEndAreCancelledAndReportBeforeTheEndLine() async throws {
    var scenario = Scenario(promptAnswer: PromptAnswer.none, steps: [.init(at: 1, event: .authorize), .init(at: 2, event: .locate)], duration: 5)
    scenario.initial = PermissionState()
    let lines = try await transcript(scenario)
    #expect(lines.suffix(3).map { $0.contains("authorizeResult") || $0.contains("locateResult") || $0.contains("\"end\"") } == [true, true, true])
    #expect(lines.last?.hasPrefix("{\"t\":5.000,\"event\":\"end\"") == true)
  }
}
