import Emulator
import Foundation
import Geo
import PermissionHandling
import Scenarios
import Testing
import LocationModel

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
    let runner = ScenarioRunner(scenario: scenario, source: .fixed(warsaw), clock: makeClock(), emit: { lines.append($0.json) })
    try await runner.run()
    return lines.all
  }

  @Test func theSameScenarioGivesTheSameTranscriptEveryRun() async throws {
    let first = try await transcript()
    for _ in 0..<20 { #expect(try await transcript() == first) }
    // The same on a shared clock with other phones running beside it (the CLI test pins the events).
    let clock = makeClock()
    let others = (0..<20).map { _ in EmulatedPhone(.init(source: .fixed(warsaw)), clock: clock) }
    let lines = Recorder<String>()
    try await ScenarioRunner(scenario: Self.scenario, source: .fixed(warsaw), clock: clock, emit: { lines.append($0.json) }).run()
    #expect(lines.all == first)
    for phone in others { phone.shutdown() }
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
    var scenario = Scenario(
      promptAnswer: PromptAnswer.none, steps: [.init(at: 1, event: .authorize), .init(at: 2, event: .locate)], duration: 5)
    scenario.initial = PermissionState()
    let lines = try await transcript(scenario)
    #expect(
      lines.suffix(3).map { $0.contains("authorizeResult") || $0.contains("locateResult") || $0.contains("\"end\"") } == [true, true, true])
    #expect(lines.last?.hasPrefix("{\"t\":5.000,\"event\":\"end\"") == true)
  }
}
