import Foundation

/// Apple's `os_log` with a printf-style format: `%{public}@`, `%{private}d` and the other
/// privacy and type annotations are read as plain `%@`, `%d`; written as ``Logger`` writes.
public func os_log(
  _ message: StaticString, dso: UnsafeRawPointer? = nil, log: OSLog = .default, type: OSLogType = .default, _ args: any CVarArg...
) {
  log.write(type, formatted(message.description, args))
}

/// Apple's `os_log` with the level first and a printf-style format (iOS 12).
public func os_log(
  _ type: OSLogType, dso: UnsafeRawPointer? = nil, log: OSLog = .default, _ message: StaticString, _ args: any CVarArg...
) {
  log.write(type, formatted(message.description, args))
}

/// Apple's `os_log` with the level first and an interpolated message.
public func os_log(_ type: OSLogType, dso: UnsafeRawPointer? = nil, log: OSLog = .default, _ message: OSLogMessage) {
  log.write(type, message.text)
}

/// Apple's `os_log` with an interpolated message at the default level.
public func os_log(_ message: OSLogMessage, dso: UnsafeRawPointer? = nil, log: OSLog = .default, type: OSLogType = .default) {
  log.write(type, message.text)
}

private func formatted(_ format: String, _ args: [any CVarArg]) -> String {
  // "%{public}@" → "%@": privacy and type annotations between braces are dropped.
  var plain = ""
  var rest = Substring(format)
  while let open = rest.range(of: "%{") {
    plain += rest[..<open.lowerBound] + "%"
    rest = rest[open.upperBound...]
    if let close = rest.firstIndex(of: "}") { rest = rest[rest.index(after: close)...] }
  }
  plain += rest
  return args.isEmpty ? plain : String(format: plain, arguments: args)
}

/// A lock around a value, as Apple's `OSAllocatedUnfairLock` (iOS 16): `withLock` runs a body
/// with the value, one caller at a time. Not recursive.
public struct OSAllocatedUnfairLock<State>: @unchecked Sendable {
  private final class Storage: @unchecked Sendable {
    let mutex = NSLock()
    var state: State
    init(_ state: State) { self.state = state }
  }

  private let storage: Storage

  /// A lock around a state that need not be `Sendable`: the caller vouches for its safety.
  /// - Parameter initialState: the state to keep.
  public init(uncheckedState initialState: State) { storage = Storage(initialState) }
  /// A lock around a `Sendable` state.
  /// - Parameter initialState: the state to keep.
  public init(initialState: State) where State: Sendable { storage = Storage(initialState) }

  /// Runs `body` with the state, holding the lock.
  /// - Parameter body: what to do with the state; it may change it.
  /// - Returns: what `body` returns.
  /// - Throws: what `body` throws.
  public func withLock<R>(_ body: @Sendable (inout State) throws -> R) rethrows -> R where R: Sendable {
    try withLockUnchecked(body)
  }

  /// Runs `body` with the state, holding the lock, without requiring `Sendable` closures or results.
  /// - Parameter body: what to do with the state; it may change it.
  /// - Returns: what `body` returns.
  /// - Throws: what `body` throws.
  public func withLockUnchecked<R>(_ body: (inout State) throws -> R) rethrows -> R {
    storage.mutex.lock()
    defer { storage.mutex.unlock() }
    return try body(&storage.state)
  }

  /// Takes the lock, waiting while another caller holds it.
  public func lock() { storage.mutex.lock() }
  /// Releases the lock, which the caller holds.
  public func unlock() { storage.mutex.unlock() }
  /// Runs `body` with the state if the lock is free now, without waiting.
  /// - Parameter body: what to do with the state; it may change it.
  /// - Returns: what `body` returns, or nil when another caller holds the lock.
  /// - Throws: what `body` throws.
  public func withLockIfAvailable<R>(_ body: @Sendable (inout State) throws -> R) rethrows -> R? where R: Sendable {
    guard storage.mutex.try() else { return nil }
    defer { storage.mutex.unlock() }
    return try body(&storage.state)
  }
}

extension OSAllocatedUnfairLock where State == Void {
  /// A lock without state.
  public init() { self.init(uncheckedState: ()) }
  /// Runs `body` holding the lock.
  /// - Parameter body: the work to do under the lock.
  /// - Returns: what `body` returns.
  /// - Throws: what `body` throws.
  public func withLock<R>(_ body: @Sendable () throws -> R) rethrows -> R where R: Sendable {
    lock()
    defer { unlock() }
    return try body()
  }
}
