import Emulator
import Foundation
import Geo
import Testing
import Traces
import LocationModel

@Suite("Replay pacing on an injected clock")
struct ReplayPacingTests {
  /// Trace times 0, 1, 2, 3.5, 4 s.
  let uneven = ListTraceReader.times([0, 1, 2, 3.5, 4])

  private func replay<C: Clock>(
    _ reader: @escaping @Sendable () -> ListTraceReader, _ options: ReplayOptions, clock: C
  ) -> TraceReplay<C> where C.Duration == Duration {
    TraceReplay(options: options, clock: clock, makeReader: reader)
  }

  private func all<C: Clock>(_ replay: TraceReplay<C>) async throws -> [ReplayedEpoch] {
    var out: [ReplayedEpoch] = []
    for try await e in replay { out.append(e) }
    return out
  }

  /// Every epoch of a replay on a virtual clock that moves exactly as far as the replay needs.
  private func virtual(_ reader: @escaping @Sendable () -> ListTraceReader, _ options: ReplayOptions) async throws -> [ReplayedEpoch] {
    let clock = makeClock()
    let r = replay(reader, options, clock: clock)
    let task = clock.spawn("replay") { try? await all(r) }
    return try #require(try await clock.advance(until: task))
  }

  /// A receiver log that starts with a GGA before its first RMC (the first epoch has a time of
  /// day, the next ones a date) keeps one time line: a second apart, with no gap fill of decades
  /// (which once tried to allocate 26 GB).
  @Test func aLogThatStartsUndatedKeepsOneTimeLine() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("undated-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    func framed(_ body: String) -> String { "$\(body)*" + String(format: "%02X", body.utf8.reduce(0) { $0 ^ $1 }) + "\r\n" }
    var text = framed("GPGGA,120000.00,,,,,0,00,,,,,,,")
    for second in 1...4 {
      let time = "12000\(second).00"
      text += framed("GPGGA,\(time),6010.2000,N,02456.4000,E,1,08,1.0,20.0,M,18.0,M,,")
      text += framed("GPRMC,\(time),A,6010.2000,N,02456.4000,E,0.0,0.0,010126,,,A")
    }
    let file = directory.appendingPathComponent("undated.nmea")
    try Data(text.utf8).write(to: file)
    let trace = try Trace(path: file.path)
    let clock = makeClock()
    let r = TraceReplay(trace: trace, options: ReplayOptions(speed: 1), clock: clock)
    let task = clock.spawn("replay") { try? await all(r) }
    let epochs = try #require(try await clock.advance(until: task, limit: .seconds(60)))
    #expect(epochs.map(\.elapsed.ms) == [0, 1000, 2000, 3000, 4000])
    #expect(epochs.allSatisfy { !$0.isGapFill })
  }

  @Test func atOneTimesEveryEpochIsDueAtItsTraceOffset() async throws {
    let epochs = try await virtual(uneven, ReplayOptions(speed: 1))
    #expect(epochs.map(\.scheduled.ms) == [0, 1000, 2000, 3500, 4000])
    #expect(epochs.map(\.elapsed.ms) == [0, 1000, 2000, 3500, 4000])
  }

  @Test func atTenTimesTheScheduleIsATenth() async throws {
    let epochs = try await virtual(uneven, ReplayOptions(speed: 10))
    #expect(epochs.map(\.elapsed.ms) == [0, 100, 200, 350, 400])
  }

  @Test func atATenthTheScheduleIsTenTimesLonger() async throws {
    let epochs = try await virtual(uneven, ReplayOptions(speed: 0.1))
    #expect(epochs.map(\.elapsed.ms) == [0, 10_000, 20_000, 35_000, 40_000])
  }

  @Test func nothingIsDeliveredBeforeItsDeadline() async throws {
    let clock = makeClock()
    let seen = Recorder<Duration>()
    let r = replay(uneven, ReplayOptions(speed: 1), clock: clock)
    let task = clock.spawn("replay") {
      do {
        for try await e in r { seen.append(e.elapsed) }
      } catch {}
    }
    // Each advance returns once the replay has taken what was due and sleeps again: the
    // checks read the state right after, with no waiting.
    try await clock.advance(by: .zero)
    #expect(seen.all.count == 1)
    try await clock.advance(by: .milliseconds(999))
    #expect(seen.all.count == 1)
    try await clock.advance(by: .milliseconds(1))
    #expect(seen.all.count == 2)
    try await clock.advance(by: .milliseconds(2499))
    #expect(seen.all.count == 3)
    try await clock.advance(by: .milliseconds(1))
    #expect(seen.all.count == 4)
    try await clock.advance(by: .seconds(1))
    #expect(task.isFinished)
    #expect(seen.all.map(\.ms) == [0, 1000, 2000, 3500, 4000])
  }

  @Test func latenessDoesNotAccumulate() async throws {
    // Every wake-up is 7 ms late; deadlines stay on the trace's schedule.
    let times = (0..<50).map { Double($0) }
    let epochs = try await all(
      replay(ListTraceReader.times(times), ReplayOptions(speed: 1), clock: LateClock(lateness: .milliseconds(7))))
    #expect(epochs.count == 50)
    #expect(epochs.dropFirst().allSatisfy { $0.elapsed - $0.scheduled == .milliseconds(7) })
  }

  @Test func loopingContinuesTheTimeLine() async throws {
    let epochs = try await virtual(
      ListTraceReader.times([0, 1, 2]), ReplayOptions(speed: 1, loop: true, count: 7))
    #expect(epochs.map(\.elapsed.ms) == [0, 1000, 2000, 3000, 4000, 5000, 6000])
    #expect(epochs.map(\.lap) == [0, 0, 0, 1, 1, 1, 2])
    let times = epochs.map { $0.fix.timestamp!.timeIntervalSince1970 - 1_700_000_000 }
    #expect(times == [0, 1, 2, 3, 4, 5, 6])
  }

  @Test func loopingAtTenTimes() async throws {
    let epochs = try await virtual(
      ListTraceReader.times([0, 2, 4]), ReplayOptions(speed: 10, loop: true, count: 5))
    #expect(epochs.map(\.elapsed.ms) == [0, 200, 400, 600, 800])
  }

  @Test func anEmptyTraceDoesNotLoopForever() async throws {
    let epochs = try await virtual(ListTraceReader.times([]), ReplayOptions(loop: true))
    #expect(epochs.isEmpty)
  }

  @Test func startOffsetSkipsTraceTimeAndStartsTheScheduleThere() async throws {
    let epochs = try await virtual(uneven, ReplayOptions(speed: 1, startOffset: 1.5))
    #expect(epochs.map { $0.fix.coordinate?.latitude } == [2, 3, 4])
    #expect(epochs.map(\.elapsed.ms) == [0, 1500, 2000])
  }

  @Test func startOffsetAppliesToTheFirstLapOnly() async throws {
    let epochs = try await virtual(
      ListTraceReader.times([0, 1, 2]), ReplayOptions(speed: 1, loop: true, startOffset: 1, count: 5))
    #expect(epochs.map { $0.fix.coordinate?.latitude } == [1, 2, 0, 1, 2])
    #expect(epochs.map(\.elapsed.ms) == [0, 1000, 2000, 3000, 4000])
  }

  @Test func gapsAreDeliveredAsNoFixAtTheUsualInterval() async throws {
    let epochs = try await virtual(
      ListTraceReader.times([0, 1, 2, 8, 9]), ReplayOptions(speed: 1, gapThreshold: 3))
    #expect(epochs.map(\.elapsed.ms) == [0, 1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000, 9000])
    #expect(epochs.map(\.isGapFill) == [false, false, false, true, true, true, true, true, false, false])
    #expect(epochs.filter(\.isGapFill).allSatisfy { $0.fix.mode == .noFix && $0.fix.coordinate == nil })
    let fillTimes = epochs.filter(\.isGapFill).map { $0.fix.timestamp!.timeIntervalSince1970 - 1_700_000_000 }
    #expect(fillTimes == [3, 4, 5, 6, 7])
  }

  @Test func aPauseShorterThanTheThresholdIsNoGap() async throws {
    let epochs = try await virtual(
      ListTraceReader.times([0, 1, 3.5, 4.5]), ReplayOptions(speed: 1, gapThreshold: 3))
    #expect(epochs.filter(\.isGapFill).isEmpty)
  }

  @Test func gapsFollowTheTracesOwnInterval() async throws {
    // A trace sampled every 5 s: a 10 s step is no gap, a 30 s step is.
    let epochs = try await virtual(
      ListTraceReader.times([0, 5, 15, 45]), ReplayOptions(speed: 1, gapThreshold: 3))
    #expect(epochs.filter(\.isGapFill).map(\.elapsed.ms) == [20_000, 25_000, 30_000, 35_000, 40_000])
  }

  @Test func gapFillingCanBeTurnedOff() async throws {
    let epochs = try await virtual(
      ListTraceReader.times([0, 1, 2, 8]), ReplayOptions(speed: 1, gapThreshold: nil))
    #expect(epochs.map(\.elapsed.ms) == [0, 1000, 2000, 8000])
  }

  @Test func countLimitsTheEpochsIncludingGapFills() async throws {
    let epochs = try await virtual(
      ListTraceReader.times([0, 1, 2, 8, 9]), ReplayOptions(speed: 1, count: 4))
    #expect(epochs.count == 4)
    #expect(epochs.last?.isGapFill == true)
  }

  @Test func startingAtRestampsAtTracePace() async throws {
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    let epochs = try await virtual(
      uneven, ReplayOptions(speed: 10, timeBase: .startingAt(start)))
    #expect(epochs.map { $0.fix.timestamp!.timeIntervalSince(start) } == [0, 1, 2, 3.5, 4])
  }

  @Test func epochsWithoutATimeFollowThePreviousAtOnce() async throws {
    let epochs = try await virtual(ListTraceReader.times([0, nil, 2]), ReplayOptions(speed: 1))
    #expect(epochs.map(\.elapsed.ms) == [0, 0, 2000])
  }

  @Test func epochsWithoutATimeCanComeAtAnInterval() async throws {
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    let untimed = try await virtual(
      ListTraceReader.times([nil, nil, nil]), ReplayOptions(speed: 1, untimedStart: start, untimedInterval: 0.5))
    #expect(untimed.map(\.elapsed.ms) == [0, 500, 1000])
    #expect(untimed.map { $0.fix.timestamp?.timeIntervalSince(start) } == [0, 0.5, 1])
    // After a timed epoch, from it; a later time is kept as it is.
    let mixed = try await virtual(ListTraceReader.times([0, nil, nil, 5]), ReplayOptions(speed: 1, untimedInterval: 1))
    #expect(mixed.map(\.elapsed.ms) == [0, 1000, 2000, 5000])
  }

  @Test func untimedEpochsCanBeGivenTimes() async throws {
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    let reader: @Sendable () -> ListTraceReader = {
      ListTraceReader([0, 1, 2].map { TraceEpoch(fix: LocationFix(mode: .noFix), traceTime: $0) })
    }
    let epochs = try await virtual(reader, ReplayOptions(speed: nil, untimedStart: start))
    #expect(epochs.map { $0.fix.timestamp!.timeIntervalSince(start) } == [0, 1, 2])
  }

  @Test func asFastAsPossibleNeverWaits() async throws {
    let clock = makeClock()
    let epochs = try await all(replay(uneven, ReplayOptions(speed: nil), clock: clock))
    #expect(epochs.count == 5)
    #expect(epochs.allSatisfy { $0.elapsed == .zero })
    #expect(clock.pendingTimerCount == 0)
  }

  @Test func cancellationEndsAWaitingReplay() async throws {
    let clock = makeClock()
    let r = replay(uneven, ReplayOptions(speed: 1), clock: clock)
    let task = clock.spawn("replay") { () -> Bool in
      do {
        for try await _ in r {}
        return false
      } catch {
        return error is CancellationError
      }
    }
    try await clock.advance(by: .milliseconds(1500))
    task.cancel()
    #expect(try await task.value)
    #expect(clock.pendingTimerCount == 0)
  }

  @Test func theCursorGivesTheScheduleWithoutWaiting() throws {
    var cursor = replay(uneven, ReplayOptions(speed: 2), clock: makeClock()).makeCursor()
    var scheduled: [Int64] = []
    while let step = try cursor.next() { scheduled.append(step.scheduled.ms) }
    #expect(scheduled == [0, 500, 1000, 1750, 2000])
  }

  @Test func theFixesViewIsALocationSource() async throws {
    let source: some LocationSource = replay(uneven, ReplayOptions(speed: nil), clock: makeClock()).fixes
    var latitudes: [Double] = []
    for try await fix in source { latitudes.append(fix.coordinate!.latitude) }
    #expect(latitudes == [0, 1, 2, 3, 4])
  }
}
