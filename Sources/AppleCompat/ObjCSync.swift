import Foundation
import Synchronization

/// The lock `objc_sync_enter(_:)` and `objc_sync_exit(_:)` keep for each object: recursive, and
/// kept only while some thread holds or waits for it.
private final class ObjectLock: Sendable {
  let lock = NSRecursiveLock()
  /// Threads that entered (or wait to) and have not exited.
  let users = Mutex(0)
}

private let objectLocks = Mutex<[ObjectIdentifier: ObjectLock]>([:])

/// The identity Objective-C's `@synchronized` locks on: a class instance itself, or a class (a
/// `class func`'s `self`); nil for a value, which Apple's runtime boxes anew at every call (so
/// that it never excludes anything there either).
private func identity(of object: Any) -> ObjectIdentifier? {
  if let type = object as? Any.Type { return ObjectIdentifier(type) }
  guard type(of: object) is AnyClass else { return nil }
  return ObjectIdentifier(object as AnyObject)
}

/// Enters the recursive lock of `object`, as Objective-C's `@synchronized` does: the runtime
/// function that Swift code on Apple's platforms calls for a critical section
/// (`objc_sync_enter(self); defer { objc_sync_exit(self) }`). Linux has no Objective-C runtime;
/// this keeps one recursive lock per object, so such code builds and excludes as it does there.
///
/// - Parameter object: The object whose lock to take (a class instance or a class).
/// - Returns: `0` (`OBJC_SYNC_SUCCESS`).
@discardableResult
public func objc_sync_enter(_ object: Any) -> Int32 {
  guard let id = identity(of: object) else { return 0 }
  let entry = objectLocks.withLock { locks in
    let entry = locks[id] ?? ObjectLock()
    locks[id] = entry
    entry.users.withLock { $0 += 1 }
    return entry
  }
  entry.lock.lock()
  return 0
}

/// Leaves the lock `objc_sync_enter(_:)` took on `object`.
///
/// - Parameter object: The object given to `objc_sync_enter(_:)`.
/// - Returns: `0` (`OBJC_SYNC_SUCCESS`), or `-1` (`OBJC_SYNC_NOT_OWNING_THREAD_ERROR`) when
///   `object` has no lock entered.
@discardableResult
public func objc_sync_exit(_ object: Any) -> Int32 {
  guard let id = identity(of: object) else { return 0 }
  return objectLocks.withLock { locks in
    guard let entry = locks[id] else { return -1 }
    entry.lock.unlock()
    let left = entry.users.withLock { users in
      users -= 1
      return users
    }
    if left == 0 { locks[id] = nil }
    return 0
  }
}
