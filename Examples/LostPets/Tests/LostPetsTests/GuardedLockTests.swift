import Foundation
import GuardedLock
import Testing

/// A package that locks with `os_unfair_lock` under `#if canImport(os)` links into a program that
/// never asked for LocationEmulator's `os` product (this test program), and its lock holds.
@Suite("A package locking with os_unfair_lock under canImport(os), without the os product")
struct GuardedLockTests {
  @Test("it links and counts exactly under the lock from many tasks")
  func lockedCounter() async {
    if ProcessInfo.processInfo.environment["LOCEMU_GUARDED_COMBINE_REBUILT"] != nil {
      #expect(LockedCounter.sawOS, "built after the os module was, the package saw no os")
    }
    let counter = LockedCounter()
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<8 { group.addTask { for _ in 0..<1000 { counter.increment() } } }
    }
    #expect(counter.increment() == 8001)
  }
}
