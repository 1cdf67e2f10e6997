// Darwin's time constants (<sys/time.h>, <dispatch/time.h> on Apple platforms), with Darwin's
// type: UInt64. Linux's C library has none of them; location code uses them for delays
// (`Task.sleep(nanoseconds: 2 * NSEC_PER_SEC)`, `DispatchTime.now() + .nanoseconds(…)`).

/// Nanoseconds in a second: 1,000,000,000.
public var NSEC_PER_SEC: UInt64 { 1_000_000_000 }
/// Nanoseconds in a millisecond: 1,000,000.
public var NSEC_PER_MSEC: UInt64 { 1_000_000 }
/// Nanoseconds in a microsecond: 1,000.
public var NSEC_PER_USEC: UInt64 { 1_000 }
/// Microseconds in a second: 1,000,000.
public var USEC_PER_SEC: UInt64 { 1_000_000 }
