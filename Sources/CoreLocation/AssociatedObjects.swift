import Foundation
import Geo
import LocationModel

// Objective-C's associated objects, which code for Apple platforms uses to hang state on a
// CLLocationManager (or any object) it does not own, and which come with Foundation there. Linux
// has no Objective-C runtime: here a table keyed by the object's identity, holding the object
// weakly, so a value goes with its object (it is dropped the next time the table is used after
// the object is gone) and a new object at the same address never sees an old one's values.

/// How an associated value is held, with the runtime's raw values.
public enum objc_AssociationPolicy: UInt, Sendable {
  /// Not retained (held weakly here, so it reads nil once the value is gone).
  case OBJC_ASSOCIATION_ASSIGN = 0
  /// Retained (held strongly), without atomicity.
  case OBJC_ASSOCIATION_RETAIN_NONATOMIC = 1
  /// Copied (an `NSCopying` value is copied; others are retained).
  case OBJC_ASSOCIATION_COPY_NONATOMIC = 3
  /// Retained (held strongly); atomic on Apple platforms, the same as nonatomic here.
  case OBJC_ASSOCIATION_RETAIN = 769
  /// Copied (an `NSCopying` value is copied; others are retained); atomic on Apple platforms, the same here.
  case OBJC_ASSOCIATION_COPY = 771
}

/// Associates `value` with `object` under `key` (nil removes it).
public func objc_setAssociatedObject(_ object: Any, _ key: UnsafeRawPointer, _ value: Any?, _ policy: objc_AssociationPolicy) {
  AssociatedObjects.set(object, key, value, policy)
}

/// The value associated with `object` under `key`, or nil.
public func objc_getAssociatedObject(_ object: Any, _ key: UnsafeRawPointer) -> Any? { AssociatedObjects.get(object, key) }

/// Removes every value associated with `object`.
public func objc_removeAssociatedObjects(_ object: Any) { AssociatedObjects.removeAll(object) }

enum AssociatedObjects {
  private enum Held: @unchecked Sendable {
    case strong(Any)
    case weak(WeakBox)
    var value: Any? {
      switch self {
      case .strong(let value): value
      case .weak(let box): box.object
      }
    }
  }

  private final class WeakBox: @unchecked Sendable {
    weak var object: AnyObject?
    init(_ object: AnyObject) { self.object = object }
  }

  private struct Entry: @unchecked Sendable {
    weak var owner: AnyObject?
    var values: [UnsafeRawPointer: Held]
  }

  private static let table = Locked<[ObjectIdentifier: Entry]>([:])

  static func set(_ object: Any, _ key: UnsafeRawPointer, _ value: Any?, _ policy: objc_AssociationPolicy) {
    let owner = object as AnyObject
    let id = ObjectIdentifier(owner)
    var held: Held?
    if let value {
      switch policy {
      case .OBJC_ASSOCIATION_ASSIGN:
        let reference = value as AnyObject
        held = reference is NSNull ? .strong(value) : .weak(WeakBox(reference))
      case .OBJC_ASSOCIATION_COPY, .OBJC_ASSOCIATION_COPY_NONATOMIC:
        held = .strong((value as? any NSCopying)?.copy(with: nil) ?? value)
      case .OBJC_ASSOCIATION_RETAIN, .OBJC_ASSOCIATION_RETAIN_NONATOMIC:
        held = .strong(value)
      }
    }
    table.withLock { t in
      sweep(&t)
      var entry = t[id].flatMap { $0.owner === owner ? $0 : nil } ?? Entry(owner: owner, values: [:])
      entry.values[key] = held
      t[id] = entry.values.isEmpty ? nil : entry
    }
  }

  static func get(_ object: Any, _ key: UnsafeRawPointer) -> Any? {
    let owner = object as AnyObject
    return table.withLock { t in
      guard let entry = t[ObjectIdentifier(owner)], entry.owner === owner else { return nil }
      return entry.values[key]?.value
    }
  }

  static func removeAll(_ object: Any) {
    let owner = object as AnyObject
    table.withLock { t in
      if t[ObjectIdentifier(owner)]?.owner === owner { t[ObjectIdentifier(owner)] = nil }
    }
  }

  /// Number of objects with values (for tests).
  static var count: Int {
    table.withLock { t in
      sweep(&t)
      return t.count
    }
  }

  /// Drops the entries of objects that are gone (their values with them).
  private static func sweep(_ t: inout [ObjectIdentifier: Entry]) {
    if t.values.contains(where: { $0.owner == nil }) { t = t.filter { $0.value.owner != nil } }
  }
}
