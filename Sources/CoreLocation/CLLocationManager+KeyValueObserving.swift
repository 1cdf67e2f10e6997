import AppleCompat
import Foundation

#if Combine
  public import Combine
#endif

// Key-value observing of a manager's properties, as location code does it on iOS:
// `manager.observe(\.location, options: [.new]) { manager, change in … }`, or with Combine,
// `manager.publisher(for: \.location).sink { … }`. There is no KVO on Linux; the manager calls its
// observers itself after each change of its location or authorization, where its delegate is
// called (on the main actor for a manager made there). A value that did not change is not
// reported again (an Equatable value compared with ==, an object by identity).

extension CLLocationManager {
  /// Observes the property at `keyPath` (Apple's `NSObject.observe(_:options:changeHandler:)`):
  /// `changeHandler` is called after each change of its value, with the options' values, until
  /// the observation is invalidated or released.
  public func observe<Value>(
    _ keyPath: KeyPath<CLLocationManager, Value>, options: NSKeyValueObservingOptions = [],
    changeHandler: @escaping (CLLocationManager, NSKeyValueObservedChange<Value>) -> Void
  ) -> NSKeyValueObservation {
    let observer = PropertyObserver(manager: self, keyPath: keyPath, options: options, changeHandler: changeHandler)
    if options.contains(.initial) { observer.reportInitial() }
    let engine = self.engine
    let id = engine.addChangeObserver { observer.check() }
    return NSKeyValueObservation { engine.removeChangeObserver(id) }
  }
}

/// One observation's state: the last value it reported and what it reports. Used only where
/// the manager calls its observers (one at a time, in order), hence unchecked.
private final class PropertyObserver<Value>: @unchecked Sendable {
  weak var manager: CLLocationManager?
  let keyPath: KeyPath<CLLocationManager, Value>
  let options: NSKeyValueObservingOptions
  let changeHandler: (CLLocationManager, NSKeyValueObservedChange<Value>) -> Void
  var last: Value

  init(
    manager: CLLocationManager, keyPath: KeyPath<CLLocationManager, Value>, options: NSKeyValueObservingOptions,
    changeHandler: @escaping (CLLocationManager, NSKeyValueObservedChange<Value>) -> Void
  ) {
    self.manager = manager
    self.keyPath = keyPath
    self.options = options
    self.changeHandler = changeHandler
    last = manager[keyPath: keyPath]
  }

  func reportInitial() {
    guard let manager else { return }
    changeHandler(manager, NSKeyValueObservedChange(kind: .setting, newValue: options.contains(.new) ? last : nil, oldValue: nil))
  }

  func check() {
    guard let manager else { return }
    let value = manager[keyPath: keyPath]
    guard !Self.same(value, last) else { return }
    let old = last
    if options.contains(.prior) {
      changeHandler(
        manager, NSKeyValueObservedChange(kind: .setting, newValue: nil, oldValue: options.contains(.old) ? old : nil, isPrior: true))
    }
    last = value
    changeHandler(
      manager,
      NSKeyValueObservedChange(
        kind: .setting, newValue: options.contains(.new) ? value : nil, oldValue: options.contains(.old) ? old : nil))
  }

  /// Whether `a` and `b` are the same value: == for an Equatable value, identity for an object;
  /// otherwise never (every change is reported).
  static func same(_ a: Value, _ b: Value) -> Bool {
    if let a = a as? any Equatable { return equal(a, b) }
    if type(of: a) is AnyClass { return (a as AnyObject) === (b as AnyObject) }
    return false
  }

  private static func equal<T: Equatable>(_ a: T, _ b: Value) -> Bool { (b as? T) == a }
}

#if Combine
  extension NSObject {
    /// The publisher of `publisher(for:options:)` (Apple's `NSObject.KeyValueObservingPublisher`):
    /// the observed property's values, from the observation's options (by default the current
    /// value at once, then each new one). It never fails and never finishes.
    public struct KeyValueObservingPublisher<Subject: NSObject, Value>: Publisher {
      public typealias Output = Value
      public typealias Failure = Never

      public let object: Subject
      public let keyPath: KeyPath<Subject, Value>
      public let options: NSKeyValueObservingOptions
      let observe: (@escaping (Value) -> Void) -> NSKeyValueObservation

      public func receive<S: Subscriber>(subscriber: S) where S.Input == Value, S.Failure == Never {
        let subject = PassthroughSubject<Value, Never>()
        let observation = ObservationBox()
        subject.handleEvents(receiveCancel: { observation.value?.invalidate() }).receive(subscriber: subscriber)
        observation.value = observe { subject.send($0) }
      }
    }
  }

  /// Holds a publisher's observation for its subscription.
  private final class ObservationBox: @unchecked Sendable {
    var value: NSKeyValueObservation?
  }

  extension CLLocationManager {
    /// A publisher of the property at `keyPath` (Apple's `NSObject.publisher(for:options:)`):
    /// with the default options, its value now, then each new value.
    public func publisher<Value>(
      for keyPath: KeyPath<CLLocationManager, Value>, options: NSKeyValueObservingOptions = [.initial, .new]
    ) -> NSObject.KeyValueObservingPublisher<CLLocationManager, Value> {
      NSObject.KeyValueObservingPublisher(object: self, keyPath: keyPath, options: options) { [weak self] send in
        guard let self else { return NSKeyValueObservation {} }
        return self.observe(keyPath, options: options.union(.new)) { _, change in
          if let value = change.newValue { send(value) }
        }
      }
    }
  }
#endif
