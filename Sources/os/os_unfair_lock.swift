// Apple's os module brings the C library with it (its headers include Darwin's), and code that
// imports os alone calls pthread functions beside os_unfair_lock: so does this one.
#if canImport(Glibc)
  @_exported public import Glibc
#elseif canImport(Musl)
  @_exported public import Musl
#endif

/// Apple's `os_unfair_lock`, the C lock that code testing `#if canImport(os)` uses for a cheap
/// mutex (swift-argument-parser's, among others): here a pthread mutex, which glibc initializes
/// statically with zero bytes, as `os_unfair_lock()` makes it. Not recursive; unlock from the
/// thread that locked, as on Apple platforms.
public struct os_unfair_lock: @unchecked Sendable {
  // The mutex is the struct's only stored property: a pointer to the lock is one to the mutex.
  private var mutex = pthread_mutex_t()

  public init() {}
}

public typealias os_unfair_lock_s = os_unfair_lock
public typealias os_unfair_lock_t = UnsafeMutablePointer<os_unfair_lock>

/// A lock ready to use (Apple's `OS_UNFAIR_LOCK_INIT`).
public var OS_UNFAIR_LOCK_INIT: os_unfair_lock { os_unfair_lock() }

private func mutex(_ lock: os_unfair_lock_t) -> UnsafeMutablePointer<pthread_mutex_t> {
  UnsafeMutableRawPointer(lock).assumingMemoryBound(to: pthread_mutex_t.self)
}

public func os_unfair_lock_lock(_ lock: os_unfair_lock_t) { pthread_mutex_lock(mutex(lock)) }

public func os_unfair_lock_unlock(_ lock: os_unfair_lock_t) { pthread_mutex_unlock(mutex(lock)) }

/// Takes the lock if no one holds it; returns whether it did.
public func os_unfair_lock_trylock(_ lock: os_unfair_lock_t) -> Bool { pthread_mutex_trylock(mutex(lock)) == 0 }

/// Apple traps when the caller does not hold the lock; here it checks nothing.
public func os_unfair_lock_assert_owner(_ lock: os_unfair_lock_t) {}

/// Apple traps when the caller holds the lock; here it checks nothing.
public func os_unfair_lock_assert_not_owner(_ lock: os_unfair_lock_t) {}

// The pthread calls on an os_unfair_lock, which here is a pthread mutex. Code that tests
// `#if canImport(os)` for its lock type and `#if canImport(Glibc)` for its cleanup (both true on
// Linux once this module is in the build, never together on Apple platforms) destroys an
// os_unfair_lock with `pthread_mutex_destroy`: that is right here, and these let it compile.

@discardableResult
public func pthread_mutex_init(_ lock: os_unfair_lock_t, _ attributes: UnsafePointer<pthread_mutexattr_t>?) -> Int32 {
  pthread_mutex_init(mutex(lock), attributes)
}

@discardableResult
public func pthread_mutex_destroy(_ lock: os_unfair_lock_t) -> Int32 { pthread_mutex_destroy(mutex(lock)) }

@discardableResult
public func pthread_mutex_lock(_ lock: os_unfair_lock_t) -> Int32 { pthread_mutex_lock(mutex(lock)) }

@discardableResult
public func pthread_mutex_unlock(_ lock: os_unfair_lock_t) -> Int32 { pthread_mutex_unlock(mutex(lock)) }

@discardableResult
public func pthread_mutex_trylock(_ lock: os_unfair_lock_t) -> Int32 { pthread_mutex_trylock(mutex(lock)) }
