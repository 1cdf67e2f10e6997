import Foundation
import Testing
import os.lock
import os.log
import os.signpost

@testable import os

/// The os module: what code written for Apple platforms reaches for under `import os` (or under
/// `#if canImport(os)`, which the module turns on in a build).
struct OSModuleTests {
  @Test("Logger messages: privacy accepted, formats applied as Apple applies them")
  func loggerMessages() {
    let latitude = 60.169_912_3
    let count = 42
    let message: OSLogMessage = "fix \(latitude, format: .fixed(precision: 5), privacy: .private) #\(count, privacy: .public)"
    #expect(message.text == "fix 60.16991 #42")
    let flag: OSLogMessage = "\(true, format: .answer) \(255, format: .hex)"
    #expect(flag.text == "YES ff")
    // Every level takes a message; nothing is written without LOCEMU_OS_LOG.
    let logger = Logger(subsystem: "com.example.tracker", category: "location")
    logger.debug("fix \(latitude)")
    logger.error("failed: \("timeout", privacy: .public)")
    os_log("fixes so far: %{public}d", log: .default, type: .info, count)
    os_log(.fault, log: OSLog(subsystem: "s", category: "c"), "%{private}@ lost", "GPS")
  }

  @Test("os_unfair_lock as C code uses it: a lock in allocated memory keeps a count exact across threads")
  func unfairLock() async {
    let lock = os_unfair_lock_t.allocate(capacity: 1)
    lock.initialize(to: os_unfair_lock())
    let counter = UnsafeMutablePointer<Int>.allocate(capacity: 1)
    counter.initialize(to: 0)
    struct Pointers: @unchecked Sendable {
      let lock: os_unfair_lock_t
      let counter: UnsafeMutablePointer<Int>
    }
    let pointers = Pointers(lock: lock, counter: counter)
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<8 {
        group.addTask {
          for _ in 0..<10_000 {
            os_unfair_lock_lock(pointers.lock)
            pointers.counter.pointee += 1
            os_unfair_lock_unlock(pointers.lock)
          }
        }
      }
    }
    #expect(counter.pointee == 80_000)
    os_unfair_lock_lock(lock)
    #expect(!os_unfair_lock_trylock(lock))
    os_unfair_lock_unlock(lock)
    #expect(os_unfair_lock_trylock(lock))
    os_unfair_lock_unlock(lock)
    lock.deinitialize(count: 1)
    lock.deallocate()
    counter.deallocate()
    // A lock in a variable, passed as `&lock`.
    var local = OS_UNFAIR_LOCK_INIT
    os_unfair_lock_lock(&local)
    os_unfair_lock_unlock(&local)
  }

  @Test("OSAllocatedUnfairLock: a value behind a lock, as iOS 16 code keeps one")
  func allocatedLock() {
    let lock = OSAllocatedUnfairLock(initialState: [String]())
    lock.withLock { $0.append("a") }
    #expect(lock.withLock { $0 } == ["a"])
    #expect(lock.withLockIfAvailable { $0.count } == 1)
  }

  @Test("Signposts: intervals and events are accepted; the measured body runs")
  func signposts() {
    let signposter = OSSignposter(subsystem: "com.example", category: "PointsOfInterest")
    let id = signposter.makeSignpostID()
    let state = signposter.beginInterval("fix", id: id, "start \(1)")
    signposter.emitEvent("fix arrived")
    signposter.endInterval("fix", state)
    #expect(state.signpostID == id)
    #expect(signposter.withIntervalSignpost("work") { 6 * 7 } == 42)
    os_signpost(.begin, log: .pointsOfInterest, name: "fix")
  }
}
