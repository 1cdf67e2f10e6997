import Foundation

/// The lock `objc_sync_enter(_:)` and `objc_sync_exit(_:)` keep for each object: recursive, and
/// kept only while some thread holds or waits for it.
private final class ObjectLock: @unchecked Sendable {
  let lock = NSRecursiveLock()
  /// Threads that entered (or wait to) and have not exited: read and written only under
  /// ``ObjectLocks``' lock.
  var users = 0
}

/// Every object's lock, by identity, behind one lock of its own (an `NSLock`: a pthread mutex,
/// which ThreadSanitizer sees).
private final class ObjectLocks: @unchecked Sendable {
  private let lock = NSLock()
  private var locks: [ObjectIdentifier: ObjectLock] = [:]

  /// The object's lock, made when no thread holds or waits for it, counted as used once more.
  func use(_ id: ObjectIdentifier) -> ObjectLock {
    lock.lock()
    defer { lock.unlock() }
    let entry = locks[id] ?? ObjectLock()
    locks[id] = entry
    entry.users += 1
    return entry
  }

  /// Unlocks the object's lock and counts it as used once less (forgotten at none); false when
  /// the object has no lock.
  func release(_ id: ObjectIdentifier) -> Bool {
    lock.lock()
    defer { lock.unlock() }
    guard let entry = locks[id] else { return false }
    entry.lock.unlock()
    entry.users -= 1
    if entry.users == 0 { locks[id] = nil }
    return true
  }
}

private let objectLocks = ObjectLocks()

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
  objectLocks.use(id).lock.lock()
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
  return objectLocks.release(id) ? 0 : -1
}
