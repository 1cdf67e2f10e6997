// A lock in swift-argument-parser's shape: `os_unfair_lock` under `#if canImport(os)`, else a
// pthread mutex. On Linux a module named os is in a build once LocationEmulator's `os` product is,
// and this package sees it without asking; it is linked into programs that never asked for it.
#if canImport(os)
  import os
#elseif canImport(Glibc)
  import Glibc
#endif

/// A counter behind the lock.
public final class LockedCounter: @unchecked Sendable {
  #if canImport(os)
    private let lock = UnsafeMutablePointer<os_unfair_lock>.allocate(capacity: 1)
  #else
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  #endif
  private var value = 0

  public init() {
    #if canImport(os)
      lock.initialize(to: os_unfair_lock())
    #else
      lock.initialize(to: pthread_mutex_t())
      pthread_mutex_init(lock, nil)
    #endif
  }

  deinit {
    #if canImport(Glibc)
      pthread_mutex_destroy(lock)
    #endif
    lock.deallocate()
  }

  /// Whether `canImport(os)` was true when this package compiled.
  public static var sawOS: Bool {
    #if canImport(os)
      true
    #else
      false
    #endif
  }

  /// Adds one under the lock; returns the count.
  @discardableResult
  public func increment() -> Int {
    #if canImport(os)
      os_unfair_lock_lock(lock)
      defer { os_unfair_lock_unlock(lock) }
    #else
      pthread_mutex_lock(lock)
      defer { pthread_mutex_unlock(lock) }
    #endif
    value += 1
    return value
  }
}
