import LocationModel
import Synchronization
import Testing

@Suite("Cancellation")
struct CancellationTests {
  /// Its contract: the work ends once; later calls, from this value or a copy, from any thread,
  /// do nothing.
  @Test func cancelRunsItsClosureOnceWhoeverCallsAndHowOften() async {
    let runs = Mutex(0)
    let cancellation = Cancellation { runs.withLock { $0 += 1 } }
    let copy = cancellation
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<100 { group.addTask { copy.cancel() } }
    }
    cancellation.cancel()
    #expect(runs.withLock { $0 } == 1)
  }
}
