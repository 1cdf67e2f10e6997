import EmulatorTesting
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `offPool`, `expectOffPool` and the pool canary: the checks that keep tests from blocking
/// threads of Swift's cooperative pool (issue 47).
@Suite struct CooperativePoolTests {
  @Test func anAsyncTestRunsOnThePoolAndOffPoolWorkDoesNot() async {
    #expect(CooperativePool.isCurrent, "an async test's body runs on the cooperative pool")
    let onPool = await offPool { CooperativePool.isCurrent }
    #expect(!onPool, "offPool's work runs on a thread of its own")
  }

  @Test func aBlockingHelperCalledOnThePoolIsReportedByName() async {
    withKnownIssue {
      expectOffPool("waitForTheReceiver()")
    } matching: { issue in
      issue.description.contains("waitForTheReceiver() blocks a thread of Swift's cooperative pool")
    }
  }

  @Test func aBlockingHelperCalledOffThePoolIsQuiet() async {
    await offPool { expectOffPool("waitForTheReceiver()") }
  }

  @Test func synchronousCodeOutsideATaskIsNotOnThePool() async {
    let onPool = await withCheckedContinuation { done in
      Thread { done.resume(returning: CooperativePool.isCurrent) }.start()
    }
    #expect(!onPool)
  }
}

/// A test that blocks a thread of the pool on purpose, past the canary's limit: run only by the
/// test command's check of the canary (LOCEMU_POOL_CANARY_DEMO=1 with a 2 s limit), which expects
/// the canary's report to name it.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["LOCEMU_POOL_CANARY_DEMO"] != nil, "the canary's own check"))
struct PoolCanaryDemo {
  @Test func blocksACooperativeThreadOnPurpose() async {
    let limit = Double(ProcessInfo.processInfo.environment["LOCEMU_POOL_CANARY_SECONDS"] ?? "") ?? 10
    #expect(CooperativePool.canaryIsWatching, "LOCEMU_POOL_CANARY was set")
    // Sleeps in nanosleep, on the pool, for the canary's limit and half as long again, in one call.
    var request = timespec(tv_sec: Int(limit * 1.5) + 1, tv_nsec: 0)
    var remaining = timespec()
    while nanosleep(&request, &remaining) != 0, errno == EINTR { request = remaining }
  }
}
