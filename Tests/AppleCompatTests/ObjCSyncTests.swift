import AppleCompat
import Foundation
import Testing

/// `objc_sync_enter`/`objc_sync_exit`, in the shape iOS-GPX-Framework writes a `once` helper
/// (`objc_sync_enter(self); defer { objc_sync_exit(self) }` in a `class func`).
@Suite("objc_sync_enter and objc_sync_exit")
struct ObjCSyncTests {
  final class Tracker {
    nonisolated(unsafe) static var ran: [String] = []
    nonisolated(unsafe) var count = 0

    class func once(token: String, block: () -> Void) {
      objc_sync_enter(self)
      defer { objc_sync_exit(self) }
      guard !ran.contains(token) else { return }
      ran.append(token)
      block()
    }
  }

  @Test("COMPAT-SYNC-01: two threads that count under one object's lock lose no count; the lock is recursive")
  func excludes() async {
    let tracker = Tracker()
    nonisolated(unsafe) let shared = tracker
    let done = DispatchGroup()
    for _ in 0..<2 {
      done.enter()
      Thread.detachNewThread {
        for _ in 0..<10_000 {
          objc_sync_enter(shared)
          shared.count += 1
          objc_sync_exit(shared)
        }
        done.leave()
      }
    }
    await withCheckedContinuation { continuation in done.notify(queue: .global()) { continuation.resume() } }
    #expect(tracker.count == 20_000)
    // Recursive: the same thread enters twice and leaves twice.
    #expect(objc_sync_enter(tracker) == 0 && objc_sync_enter(tracker) == 0)
    #expect(objc_sync_exit(tracker) == 0 && objc_sync_exit(tracker) == 0)
  }

  @Test("COMPAT-SYNC-02: a class func locks on its class; a block runs once per token; leaving a lock never entered is an error")
  func classLockAndErrors() {
    var runs = 0
    Tracker.once(token: "setup") { runs += 1 }
    Tracker.once(token: "setup") { runs += 1 }
    #expect(runs == 1)
    #expect(objc_sync_exit(Tracker()) == -1)
    // A value has no identity to lock on, as Apple's runtime boxes it anew each time.
    #expect(objc_sync_enter(42) == 0 && objc_sync_exit(42) == 0)
  }
}
