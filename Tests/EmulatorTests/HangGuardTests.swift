import Testing
import TestSupport

/// The tests' hang guard (`hangGuarded(within:_:)`): a body's result when it ends, nil when it
/// never does, and the body's task cancelled either way.
@Suite("hangGuarded: the real-time hang guard of the library's tests")
struct HangGuardTests {
  @Test func aBodyThatEndsGivesItsResult() async {
    let value = await hangGuarded(within: .seconds(600)) { 42 }
    #expect(value == 42)
  }

  @Test func aBodyThatNeverEndsGivesNilAndIsCancelled() async {
    let (endings, ended) = AsyncStream.makeStream(of: Bool.self)
    // The body sleeps a day unless cancelled: only the guard's limit ends the wait, so a short
    // one serves, however slow the machine.
    let value = await hangGuarded(within: .milliseconds(10)) { () async -> Int in
      try? await Task.sleep(for: .seconds(86_400))
      ended.yield(Task.isCancelled)
      return 1
    }
    #expect(value == nil)
    let cancelled = await hangGuarded(within: .seconds(600)) { await endings.first { _ in true } }
    #expect(cancelled == true, "the body's task was cancelled when the guard gave up")
  }
}
