// Apple's os module brings the C library with it (its headers include Darwin's), and code that
// imports os alone calls pthread functions beside os_unfair_lock: so does this one.
#if canImport(Glibc)
  @_exported public import Glibc
#elseif canImport(Musl)
  @_exported public import Musl
#endif

/// Apple's `os_unfair_lock`, the C lock that code testing `#if canImport(os)` uses for a cheap
/// mutex (swift-argument-parser's, among others): here the C library's pthread mutex itself,
/// which glibc initializes statically with zero bytes, as `os_unfair_lock()` makes it. Not
/// recursive; unlock from the thread that locked, as on Apple platforms.
///
/// A C type and functions emitted into their callers, so that nothing of this module is linked
/// for them: this module is visible to every package of a build, and a package that locks with
/// it under `#if canImport(os)` (swift-argument-parser) links into programs that never asked for
/// the `os` product. Code that tests `#if canImport(Glibc)` for its cleanup (both true on Linux
/// once this module is in the build) destroys the lock with `pthread_mutex_destroy`, which is
/// right for a pthread mutex.
public typealias os_unfair_lock = pthread_mutex_t
/// The lock's C struct name, the same type as `os_unfair_lock`.
public typealias os_unfair_lock_s = os_unfair_lock
/// A pointer to a lock, as the `os_unfair_lock_*` functions take it.
public typealias os_unfair_lock_t = UnsafeMutablePointer<os_unfair_lock>

/// A lock ready to use (Apple's `OS_UNFAIR_LOCK_INIT`).
@_alwaysEmitIntoClient
public var OS_UNFAIR_LOCK_INIT: os_unfair_lock { os_unfair_lock() }

/// Takes the lock, waiting while another thread holds it.
/// - Parameter lock: the lock.
@_alwaysEmitIntoClient
public func os_unfair_lock_lock(_ lock: os_unfair_lock_t) { pthread_mutex_lock(lock) }

/// Releases the lock, which the calling thread holds.
/// - Parameter lock: the lock.
@_alwaysEmitIntoClient
public func os_unfair_lock_unlock(_ lock: os_unfair_lock_t) { pthread_mutex_unlock(lock) }

/// Takes the lock if no one holds it; returns whether it did.
@_alwaysEmitIntoClient
public func os_unfair_lock_trylock(_ lock: os_unfair_lock_t) -> Bool { pthread_mutex_trylock(lock) == 0 }

/// Apple traps when the caller does not hold the lock; here it checks nothing.
@_alwaysEmitIntoClient
public func os_unfair_lock_assert_owner(_ lock: os_unfair_lock_t) {}

/// Apple traps when the caller holds the lock; here it checks nothing.
@_alwaysEmitIntoClient
public func os_unfair_lock_assert_not_owner(_ lock: os_unfair_lock_t) {}
