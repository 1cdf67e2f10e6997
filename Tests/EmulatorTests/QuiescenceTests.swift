import Dispatch
import Emulator
import EmulatorTesting
import Foundation
import Geo
import LocationModel
import Synchronization
import Testing

/// A counter behind an actor, as app code keeps state.
actor Tally {
  private(set) var count = 0
  func bump() { count += 1 }
}

/// An app's one-shot request in the iOS way: a continuation kept for a callback that comes later.
final class CallbackRequest: @unchecked Sendable {
  private let pending = Locked<CheckedContinuation<Int, Never>?>(nil)
  func wait() async -> Int { await withCheckedContinuation { c in pending.withLock { $0 = c } } }
  var isWaiting: Bool { pending.withLock { $0 != nil } }
  func answer(_ value: Int) {
    pending.withLock { c in
      defer { c = nil }
      return c
    }?.resume(returning: value)
  }
}

/// A view model: main-actor state set after awaiting nonisolated and actor work.
@MainActor
final class MainActorModel {
  private(set) var state = "idle"
  func load(from tally: Tally) async {
    state = "loading"
    await tally.bump()
    let count = await Self.fetch(tally)
    state = "loaded \(count)"
  }
  nonisolated static func fetch(_ tally: Tally) async -> Int { await tally.count }
}

@Suite("A virtual clock moves time only when untracked work is done")
struct QuiescenceTests {
  @Test("work a timer sets off through Task {} and an actor is done when the advance returns (200 runs; 20 under TSan)")
  func unstructuredTasksFinishBeforeTheAdvanceReturns() async throws {
    for run in 0..<ThreadSanitizer.repetitions(200) {
      let clock = makeClock()
      let tally = Tally()
      // A callback that hops, as a delegate's does: a Task, an actor, another Task.
      clock.schedule(after: .seconds(1)) {
        Task {
          await tally.bump()
          Task { await tally.bump() }
        }
      }
      try await clock.advance(by: .seconds(1))
      let count = await tally.count
      #expect(count == 2, "run \(run): the hops ran before the advance returned")
      if count != 2 { break }
    }
  }

  @Test("work that hops through the main actor and back (a view model's way) is done when the advance returns (200 runs; 20 under TSan)")
  @MainActor
  func mainActorHopsFinishBeforeTheAdvanceReturns() async throws {
    for run in 0..<ThreadSanitizer.repetitions(200) {
      let clock = makeClock()
      let model = MainActorModel()
      clock.schedule(after: .seconds(1)) {
        Task { await model.load(from: Tally()) }
      }
      try await clock.advance(by: .seconds(1))
      #expect(model.state == "loaded 1", "run \(run): the main actor's jobs ran before the advance returned")
      if model.state != "loaded 1" { break }
    }
  }

  /// An actor whose code calls into the clock (as an app's service calls its location
  /// manager): the clock's loop may then run inside the actor's job.
  actor BusyService {
    let log: Locked<[String]>
    init(log: Locked<[String]>) { self.log = log }
    func record(_ line: String) { log.withLock { $0.append(line) } }
    /// Hands itself a job (it waits in the actor's queue, behind this one), then calls into
    /// the clock, whose loop runs here.
    func handOffThenCallTheClock(_ clock: EmulatorClock) {
      Task { self.record("the actor's queued job") }
      clock.enqueue {}
    }
  }

  @Test("a timer does not fire from a loop inside an actor's job while that actor has work queued behind it (100 runs; 10 under TSan)")
  func loopInsideAnActorWaitsForTheActorsQueue() async throws {
    for run in 0..<ThreadSanitizer.repetitions(100) {
      let clock = makeClock()
      let log = Locked<[String]>([])
      let service = BusyService(log: log)
      clock.schedule(after: .seconds(1)) { Task { await service.handOffThenCallTheClock(clock) } }
      clock.schedule(after: .seconds(1)) { log.withLock { $0.append("the next timer") } }
      try await clock.advance(by: .seconds(1))
      #expect(log.withLock { $0 } == ["the actor's queued job", "the next timer"], "run \(run)")
      if log.withLock({ $0 }) != ["the actor's queued job", "the next timer"] { break }
    }
  }

  @Test("a continuation an untracked task awaits, resumed from a callback, is resumed before time moves on")
  func continuationsResumedByCallbacksBeforeTimeMoves() async throws {
    let clock = makeClock()
    let request = CallbackRequest()
    let got = Locked<[String]>([])
    // The app's flow: a plain task, not one of the clock's.
    Task {
      let value = await request.wait()
      got.withLock { $0.append("answer \(value) at \(clock.now)") }
    }
    clock.schedule(after: .seconds(2)) { request.answer(7) }
    clock.schedule(after: .seconds(3)) { got.withLock { $0.append("later at \(clock.now)") } }
    try await clock.runUntilIdle()
    #expect(request.isWaiting, "the task reached its wait before the clock was idle")
    try await clock.advance(by: .seconds(5))
    #expect(got.withLock { $0 } == ["answer 7 at t=2.0s", "later at t=3.0s"])
  }

  @Test("a job that never returns stalls the advance within the stall timeout, with a message that says so")
  func aJobThatNeverReturnsStalls() async throws {
    // Long enough that, once the job returns, the rest of a loaded process (other tests' jobs,
    // ThreadSanitizer's slowdown on two cores) seldom looks like a stall; short enough that the
    // blocked job below holds its thread for seconds only.
    let clock = EmulatorClock(stallTimeout: .seconds(2))
    // A job that blocks its thread (a semaphore: no system call but futex), until the stall has
    // been seen. The advance declares it in a window of the stall timeout in which no other job
    // of the process finished, so on a busy process it may take a few windows. Released in every
    // path: by the test once the advance has ended, or by its own bound (600 s, a hang guard),
    // which the test then reports.
    let gate = DispatchSemaphore(value: 0)
    let blocked = Task.detached { gate.wait(timeout: .now() + 600) == .success }
    do {
      try await clock.advance(by: .seconds(1))
      Issue.record("the advance should have stalled")
    } catch {
      #expect(error.code == .stalled)
      #expect(error.message.contains("Swift jobs of the process not yet run"))
    }
    gate.signal()
    #expect(await blocked.value, "the blocked job waited 600 s for the advance to stall, and was let go by its bound")
    // The clock goes on once the job returned. (Another test's long job, a receiver's 10⁶
    // epochs, may hold a core for longer than this clock's 2 s meanwhile: then it says so, and
    // goes on once that one returned too. 300 tries, 600 s or more, bound only a clock that
    // never goes on.)
    var recovered = false
    for _ in 0..<300 where !recovered {
      do {
        try await clock.advance(by: .seconds(1))
        recovered = true
      } catch {
        #expect(error.code == .stalled)
      }
    }
    #expect(recovered, "the clock did not go on in 300 advances after the blocked job returned")
    #expect(clock.now.offset == .seconds(1))
  }

  @Test("a clock made not to settle does not wait for untracked work")
  func optOut() async throws {
    // No tracked task runs here, so the stall timeout is only a hang guard.
    let clock = EmulatorClock(stallTimeout: .seconds(600), settlesUnstructuredTasks: false)
    #expect(!clock.settlesUnstructuredTasks)
    // A job that blocks its thread (a semaphore: futex) while the advance runs; released by the
    // test once the advance has returned, or by its own bound (600 s, a hang guard): a clock
    // that waited for it would return only then, and the test says so.
    let gate = DispatchSemaphore(value: 0)
    let blocked = Task.detached { gate.wait(timeout: .now() + 600) == .success }
    do {
      try await clock.advance(by: .seconds(1))
    } catch {
      Issue.record("the advance failed: \(error)")
    }
    gate.signal()
    #expect(clock.now.offset == .seconds(1))
    #expect(await blocked.value, "the advance waited for the blocked job (which its 600 s bound let go)")
  }

  /// The runtime hooks the settling rests on pass their self-test on this toolchain: a virtual
  /// clock settles by default. On a runtime that ignores them this fails here, by name.
  @Test func theRuntimeHooksPassTheirSelfTestOnThisToolchain() {
    #expect(EmulatorClock().settlesUnstructuredTasks)
    #expect(!EmulatorClock(settlesUnstructuredTasks: false).settlesUnstructuredTasks)
    #expect(!EmulatorClock(mode: .realTime).settlesUnstructuredTasks)
  }

  /// The hooks go into the runtime's own variables, the ones it calls through (here, in a
  /// dynamically linked test, the ones `dlsym` finds in libswift_Concurrency): the clock reaches
  /// them by reference, which links in a static executable too, where `dlsym` finds nothing.
  @Test func theHooksAreInstalledIntoTheRuntimesOwnVariables() throws {
    _ = EmulatorClock()
    let process = try #require(dlopen(nil, RTLD_NOW))
    for name in [
      "swift_task_enqueueGlobal_hook", "swift_task_enqueueMainExecutor_hook", "swift_task_getMainExecutor_hook",
      "swift_task_isMainExecutor_hook",
    ] {
      let variable = try #require(dlsym(process, name), "\(name) is exported by the runtime")
      #expect(variable.load(as: UnsafeRawPointer?.self) != nil, "\(name) holds the clock's hook")
    }
  }

  /// A clock on a runtime whose hooks failed their self-test refuses to move, with a named
  /// error that says why and what to do, rather than settle some tasks and not others.
  @Test func aClockThatCannotSettleRefusesToMoveByName() async {
    let clock = EmulatorClock(
      mode: .virtual, stallTimeout: .seconds(30), settlingFailure: "the runtime ignored a hook", settles: true)
    #expect(!clock.settlesUnstructuredTasks)
    for move in [{ try await clock.advance(by: .seconds(1)) }, { try await clock.runUntilIdle() }] as [@Sendable () async throws -> Void] {
      do {
        try await move()
        Issue.record("the clock moved")
      } catch let error as EmulatorClockError {
        #expect(error.code == .cannotSettle)
        #expect(error.message.contains("the runtime ignored a hook") && error.message.contains("settlesUnstructuredTasks: false"))
      } catch {
        Issue.record("unexpected \(error)")
      }
    }
    #expect(clock.now.offset == .zero)
  }
}
