#if canImport(Glibc)
  public import Glibc
#elseif canImport(Darwin)
  public import Darwin
#endif

/// A value behind a `pthread_mutex_t`.
///
/// Used instead of `Synchronization.Mutex` because ThreadSanitizer sees
/// pthread locks but not the futex slow path of `Mutex` (it reported races
/// between two critical sections of one `Mutex` under contention).
public final class Locked<Value>: @unchecked Sendable {
  @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
  /// Exclusive through the mutex: the runtime's access check on each `withLock` (begin and
  /// end of an access, a set per thread) would only repeat what the lock guarantees.
  @usableFromInline @exclusivity(unchecked) var value: Value

  /// A lock around `value`.
  /// - Parameter value: the value to keep.
  public init(_ value: Value) {
    self.value = value
    mutex = .allocate(capacity: 1)
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  /// Runs `body` with exclusive access to the value. Not reentrant.
  @inlinable
  public func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&value)
  }
}
