import Emulator
import Geo
import LocationModel
import EmulatorTesting
import Testing
import TestSupport

@Suite("EmulatorClock: deadlines in one queue, tasks one at a time, bounded waits")
struct ClockTests {
  @Test func timersFireInDeadlineOrderAndTiesInTheOrderTheyWereSet() async throws {
    let clock = makeClock()
    let fired = Recorder<String>()
    for (name, at) in [("c", 3), ("a", 1), ("b1", 2), ("b2", 2), ("d", 9)] {
      clock.schedule(at: .init(offset: .seconds(at))) { fired.append("\(name)@\(clock.now.offset.seconds)") }
    }
    try await clock.advance(by: .seconds(5))
    #expect(fired.all == ["a@1.0", "b1@2.0", "b2@2.0", "c@3.0"])
    #expect(clock.now.offset == .seconds(5))
    #expect(clock.pendingTimerCount == 1)
  }

  @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
  func timersFireInDeadlineThenSettingOrderWhateverIsCancelled(seed: UInt64) async throws {
    var random = SeededRandom(seed: seed)
    let clock = makeClock()
    let fired = Recorder<Int>()
    var expected: [(deadline: Int, index: Int)] = []
    var timers: [EmulatorClock.Timer] = []
    for index in 0..<2000 {
      // Few distinct deadlines: many ties, as a fleet's fixes all due on the second.
      let deadline = Int(random.next() % 20)
      timers.append(clock.schedule(at: .init(offset: .milliseconds(deadline * 100))) { fired.append(index) })
      expected.append((deadline, index))
    }
    var cancelled = Set<Int>()
    for _ in 0..<500 {
      let index = Int(random.next() % 2000)
      clock.cancel(timers[index])
      cancelled.insert(index)
    }
    #expect(clock.pendingTimerCount == 2000 - cancelled.count)
    try await clock.advance(by: .milliseconds(950))
    let order = expected.filter { !cancelled.contains($0.index) }.sorted { ($0.deadline, $0.index) < ($1.deadline, $1.index) }
    #expect(fired.all == order.filter { $0.deadline <= 9 }.map(\.index))
    // Cancelling again, or after firing, changes nothing.
    for index in Array(cancelled) + fired.all { clock.cancel(timers[index]) }
    try await clock.advance(by: .seconds(1))
    #expect(fired.all == order.map(\.index))
    #expect(clock.pendingTimerCount == 0 && clock.nextDeadline == nil)
  }

  @Test func aTimerSetForThePastFiresAtOnceAfterThoseAlreadyDue() async throws {
    let clock = makeClock()
    let fired = Recorder<String>()
    try await clock.advance(by: .seconds(5))
    clock.schedule(at: .init(offset: .seconds(5))) {
      fired.append("due")
      clock.schedule(at: .init(offset: .seconds(1))) { fired.append("past, at \(clock.now.offset.seconds)") }
    }
    clock.schedule(at: .init(offset: .seconds(5))) { fired.append("due too") }
    try await clock.runUntilIdle()
    #expect(fired.all == ["due", "due too", "past, at 5.0"])
  }

  @Test func anAdvanceReturnsAfterWhatItsTimersSetOff() async throws {
    let clock = makeClock()
    let log = Recorder<String>()
    clock.schedule(after: .seconds(1)) {
      log.append("timer")
      clock.enqueue { log.append("effect") }
      // A timer set by a timer, due before the target, fires in the same advance.
      clock.schedule(after: .milliseconds(500)) { log.append("second timer") }
    }
    try await clock.advance(by: .seconds(2))
    #expect(log.all == ["timer", "effect", "second timer"])
  }

  @Test func aTimerDueNowFiresOnTheNextStepNotBefore() async throws {
    let clock = makeClock()
    let log = Recorder<String>()
    clock.schedule(after: .zero) { log.append("due") }
    #expect(log.all.isEmpty)
    try await clock.runUntilIdle()
    #expect(log.all == ["due"])
    #expect(clock.now.offset == .zero)
  }

  @Test func aTaskStartedJustBeforeAnAdvanceIsWaitedFor() async throws {
    // The pattern that stranded TestClock users: start the flow, advance at once.
    for _ in 0..<ThreadSanitizer.repetitions(200) {
      let clock = makeClock()
      let woke = Recorder<Duration>()
      clock.spawn("flow") {
        try? await clock.sleep(until: clock.now.advanced(by: .seconds(1)))
        woke.append(clock.now.offset)
      }
      try await clock.advance(by: .seconds(1))
      #expect(woke.all == [.seconds(1)])
    }
  }

  @Test func aSleepingTaskIsWokenAtEachDeadlineAndTheAdvanceWaitsForItToSleepAgain() async throws {
    let clock = makeClock()
    let ticks = Recorder<Double>()
    let task = clock.spawn("ticker") {
      for _ in 0..<5 {
        try? await clock.sleep(until: clock.now.advanced(by: .seconds(1)))
        ticks.append(clock.now.offset.seconds)
      }
    }
    try await clock.advance(by: .milliseconds(3500))
    #expect(ticks.all == [1, 2, 3])
    try await clock.advance(by: .seconds(10))
    #expect(ticks.all == [1, 2, 3, 4, 5])
    #expect(task.isFinished)
    #expect(clock.activeTaskCount == 0)
  }

  @Test func tasksWokenAtTheSameInstantRunOneAtATimeInWakeOrder() async throws {
    var transcripts: Set<[String]> = []
    for _ in 0..<50 {
      let clock = makeClock()
      let log = Recorder<String>()
      for name in ["a", "b", "c"] {
        clock.spawn(name) {
          for step in 0..<3 {
            try? await clock.sleep(until: .init(offset: .seconds(step + 1)))
            log.append("\(name)\(step) start")
            try? await clock.runUntilIdle()  // lets everything queued before it run first
            log.append("\(name)\(step) end")
          }
        }
      }
      try await clock.advance(by: .seconds(5))
      transcripts.insert(log.all)
    }
    #expect(transcripts.count == 1)
    // Queued work (a task yielding) runs before the next timer fires, even at the same instant.
    #expect(transcripts.first?.prefix(4) == ["a0 start", "a0 end", "b0 start", "b0 end"])
  }

  @Test func advanceUntilMovesTimeOnlyAsFarAsTheTaskNeeds() async throws {
    let clock = makeClock()
    clock.schedule(at: .init(offset: .seconds(100))) {}
    let task = clock.spawn("flow") { () -> Duration in
      try? await clock.sleep(until: .init(offset: .seconds(7)))
      return clock.now.offset
    }
    let finishedAt = try await clock.advance(until: task)
    #expect(finishedAt == .seconds(7))
    #expect(clock.now.offset == .seconds(7))
  }

  @Test func aTaskNothingCanWakeIsAnErrorNotAHang() async throws {
    let clock = makeClock()
    let waiter = ClockWaiterBox()
    let task = clock.spawn("forever") { await waiter.waitForever(on: clock) }
    await #expect(throws: EmulatorClockError.self) { try await clock.advance(until: task) }
    await #expect(throws: EmulatorClockError.self) { try await task.value }
    task.cancel()
    try await clock.runUntilIdle()
    #expect(task.isFinished)
  }

  @Test func aTaskAwaitingSomethingElseStallsTheAdvanceWithinTheTimeout() async throws {
    // Tracked tasks only: untracked work elsewhere in the process (another suite's) must not
    // be what stalls this 200 ms window (QuiescenceTests covers that kind of stall).
    let clock = EmulatorClock(stallTimeout: .milliseconds(200), settlesUnstructuredTasks: false)
    let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
    let task = clock.spawn("awaits a stream") {
      for await _ in stream { break }
    }
    // How soon the watchdog fires is not checked: it shares the cooperative pool with every
    // other suite (on this 2-core machine the pool was once starved for 61 s). What is checked is
    // the kind of ending: a stall, naming the task.
    do {
      try await clock.advance(by: .seconds(1))
      Issue.record("the advance should have stalled")
    } catch {
      #expect(error.code == .stalled)
      #expect(error.message.contains("awaits a stream"))
    }
    continuation.finish()
    try await task.value
  }

  @Test func aCancelledSleepThrowsAndLeavesNoTimer() async throws {
    let clock = makeClock()
    let task = clock.spawn("sleeper") { () -> Bool in
      do {
        try await clock.sleep(until: .init(offset: .seconds(60)))
        return false
      } catch {
        return error is CancellationError
      }
    }
    try await clock.runUntilIdle()
    #expect(clock.pendingTimerCount == 1)
    task.cancel()
    #expect(try await task.value == true)
    #expect(clock.pendingTimerCount == 0)
    #expect(clock.now.offset == .zero)
  }

  @Test func anUntrackedSleepPastItsDeadlineReturnsAtOnce() async throws {
    let clock = makeClock()
    try await clock.advance(by: .seconds(3))
    try await clock.sleep(until: .init(offset: .seconds(2)))
    #expect(clock.pendingTimerCount == 0)
  }

  @Test func aTaskCanAwaitAnother() async throws {
    let clock = makeClock()
    let inner = clock.spawn("inner") { () -> Int in
      try? await clock.sleep(until: .init(offset: .seconds(2)))
      return 42
    }
    let outer = clock.spawn("outer") { () -> Int in (try? await inner.value) ?? -1 }
    #expect(try await clock.advance(until: outer) == 42)
    #expect(clock.now.offset == .seconds(2))
  }

  @Test func aRealTimeClockFiresItsTimersWhileItRuns() async throws {
    let clock = EmulatorClock.realTime()
    let (fires, fired) = AsyncStream.makeStream(of: Int.self)
    // Both deadlines from one instant, and both set before the driver starts: however late this
    // task runs between the two lines, the driver finds both timers and fires them in deadline
    // order, the later-set first.
    let start = clock.now
    clock.schedule(at: start.advanced(by: .milliseconds(30))) { fired.yield(1) }
    clock.schedule(at: start.advanced(by: .milliseconds(10))) { fired.yield(0) }
    let driver = Task { await clock.run() }
    // End to end on real time: the test waits for the two fires (no polling), bounded, with a
    // clear message. The bound is a hang guard: it tells a driver that never fires from a slow
    // one (under ThreadSanitizer, with the whole suite running, the driver's wake-up once came
    // more than 5 s late).
    let order = await hangGuarded(within: .seconds(600)) { await fires.prefix(2).reduce(into: []) { $0.append($1) } }
    #expect(order != nil, "the real-time driver did not fire both timers within 600 s")
    #expect(order == [0, 1], "the timers fire in deadline order")
    fired.finish()
    driver.cancel()
    await driver.value
  }

}

/// Something a task waits for that never comes (but can be cancelled).
final class ClockWaiterBox: Sendable {
  func waitForever(on clock: EmulatorClock) async {
    let waiter = clock.makeWaiter(of: Void.self)
    await waiter.wait(register: {}, onCancel: { if waiter.resolve(()) { clock.drive() } })
  }
}
