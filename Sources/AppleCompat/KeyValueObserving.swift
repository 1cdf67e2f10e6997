public import Foundation

// Key-value observing's Swift API as Apple's Foundation declares it. swift-corelibs-foundation has
// no KVO (no Objective-C runtime), so these types are missing there; declared here, they let
// `manager.observe(\.location) { … }` and Combine's `manager.publisher(for: \.location)` compile.
// Only the classes of this package that say so can be observed (CoreLocation's
// `CLLocationManager`): they call the observers when the observed property changes.

/// What an observation reports (Apple's `NSKeyValueObservingOptions`).
public struct NSKeyValueObservingOptions: OptionSet, Sendable, Hashable {
  /// The raw value: Apple's bits.
  public let rawValue: UInt
  /// Creates options from their raw value.
  public init(rawValue: UInt) { self.rawValue = rawValue }

  /// The change carries the new value.
  public static let new = NSKeyValueObservingOptions(rawValue: 0x01)
  /// The change carries the old value.
  public static let old = NSKeyValueObservingOptions(rawValue: 0x02)
  /// The handler is also called once, at once, with the current value.
  public static let initial = NSKeyValueObservingOptions(rawValue: 0x04)
  /// The handler is also called before each change (``NSKeyValueObservedChange/isPrior``).
  public static let prior = NSKeyValueObservingOptions(rawValue: 0x08)
}

/// The kind of a change (Apple's `NSKeyValueChange`): a property set, or a collection changed.
public enum NSKeyValueChange: UInt, Sendable {
  /// The property was set.
  case setting = 1
  /// Elements were inserted into a collection.
  case insertion = 2
  /// Elements were removed from a collection.
  case removal = 3
  /// Elements of a collection were replaced.
  case replacement = 4
}

/// One change of an observed property (Apple's `NSKeyValueObservedChange`).
public struct NSKeyValueObservedChange<Value> {
  /// The kind of a change.
  public typealias Kind = NSKeyValueChange
  /// The kind of this change: `.setting` for a property set.
  public let kind: Kind
  /// The value after the change (with the option ``NSKeyValueObservingOptions/new``).
  public let newValue: Value?
  /// The value before the change (with the option ``NSKeyValueObservingOptions/old``).
  public let oldValue: Value?
  /// The indexes of a collection's change; nil for a property set.
  public let indexes: IndexSet?
  /// Whether this call comes before the change (with the option ``NSKeyValueObservingOptions/prior``).
  public let isPrior: Bool

  /// Creates a change, as an observed class reports it to its observers.
  ///
  /// - Parameters:
  ///   - kind: The kind of the change.
  ///   - newValue: The value after the change, or nil when not asked for.
  ///   - oldValue: The value before the change, or nil when not asked for.
  ///   - indexes: The indexes of a collection's change; nil for a property set.
  ///   - isPrior: Whether this call comes before the change.
  public init(kind: Kind, newValue: Value?, oldValue: Value?, indexes: IndexSet? = nil, isPrior: Bool = false) {
    self.kind = kind
    self.newValue = newValue
    self.oldValue = oldValue
    self.indexes = indexes
    self.isPrior = isPrior
  }
}

/// An observation made by `observe(_:options:changeHandler:)` (Apple's
/// `NSKeyValueObservation`): it lasts until ``invalidate()`` or until it is released.
public final class NSKeyValueObservation: NSObject, @unchecked Sendable {
  private let lock = NSLock()
  private var end: (@Sendable () -> Void)?

  /// An observation that `end` stops (the observed object's unregistration).
  public init(ending end: @escaping @Sendable () -> Void) {
    self.end = end
  }

  /// Stops the observation: the handler is not called again. Idempotent.
  public func invalidate() {
    lock.lock()
    let end = self.end
    self.end = nil
    lock.unlock()
    end?()
  }

  deinit { invalidate() }
}
