import Foundation
@_spi(Reflection) import Swift

/// Whether two values hold the same data, as far as reflection shows it: the same type, the
/// same stored properties, elements, enum cases and payloads, recursively, with floating-point
/// values compared bit for bit (NaN is the same as NaN; 0.0 and -0.0 differ).
///
/// It answers "would code given one of them behave as given the other", for value-typed state
/// without writing an equality by hand for every type in it (the decoder's state spans some
/// forty types, and a member added to any of them is compared without anyone remembering to).
/// It errs one way only: whatever it cannot see into (a class instance, a pointer, an opaque
/// leaf that is not `Equatable`) counts as different, so a wrong "same" cannot come from it;
/// a wrong "different" costs its caller time, not correctness. Values of a type without
/// references (and arrays of them) are compared by their bytes first; the rest, and those whose
/// bytes differ, are walked through `Mirror`, which is slow: not for hot paths.
func sameContents(_ a: Any, _ b: Any) -> Bool {
  difference(a, b, depth: 0) == nil
}

/// Where `a` and `b` first differ for ``sameContents(_:_:)``, as a path of member labels and
/// element indices (`model.sky.satellites[3].snr`); nil when they are the same.
func contentsDifference(_ a: Any, _ b: Any) -> String? {
  guard let (steps, reason) = difference(a, b, depth: 0) else { return nil }
  var path = ""
  for step in steps.reversed() {
    if step.hasPrefix("[") || path.isEmpty { path += step } else { path += "." + step }
  }
  return (path.isEmpty ? "(value)" : path) + (reason.isEmpty ? "" : " (\(reason))")
}

/// nil when the same; else the path to the first difference, innermost step first (built only
/// on the way out of a difference), and why, when not by value.
private func difference(_ a: Any, _ b: Any, depth: Int) -> (steps: [String], reason: String)? {
  guard depth < 48 else { return ([], "too deep") }
  let kind = type(of: a)
  guard kind == type(of: b) else { return ([], "types differ") }
  // The common leaves first, by their exact type: no mirror to make for them.
  if kind == Double.self { return (a as! Double).bitPattern == (b as! Double).bitPattern ? nil : ([], "") }
  if kind == Int.self { return a as! Int == b as! Int ? nil : ([], "") }
  if kind == Bool.self { return a as! Bool == b as! Bool ? nil : ([], "") }
  if kind == UInt8.self { return a as! UInt8 == b as! UInt8 ? nil : ([], "") }
  if kind == Int64.self { return a as! Int64 == b as! Int64 ? nil : ([], "") }
  if kind == UInt32.self { return a as! UInt32 == b as! UInt32 ? nil : ([], "") }
  if kind == Float.self { return (a as! Float).bitPattern == (b as! Float).bitPattern ? nil : ([], "") }
  // Values whose bits are the same hold the same data: no mirror to walk for them. Different
  // bits may still be the same data (padding, an inline list's unused places): the walk decides.
  if sameBits(a, b) { return nil }
  if let x = a as? any BitwiseComparableCollection, x.sameBits(as: b) { return nil }
  let ma = Mirror(reflecting: a)
  let mb = Mirror(reflecting: b)
  guard ma.displayStyle == mb.displayStyle else { return ([], "cases differ") }
  // A class instance is shared and mutable: its contents can change behind either value.
  guard ma.displayStyle != .class else { return ([], "a class instance") }
  guard ma.children.isEmpty && mb.children.isEmpty else {
    guard ma.children.count == mb.children.count else { return ([], "counts differ") }
    for (i, (x, y)) in zip(ma.children, mb.children).enumerated() {
      guard x.label == y.label else { return ([], "cases differ") }
      if var found = difference(x.value, y.value, depth: depth + 1) {
        found.steps.append(x.label ?? "[\(i)]")
        return found
      }
    }
    return nil
  }
  switch ma.displayStyle {
  case .optional?, .collection?, .dictionary?, .set?, .tuple?: return nil  // both nil, or both empty
  default: break
  }
  // A leaf: an integer, a Boolean, a string, an enum case without a payload, or something
  // reflection cannot see into, which only `==` can then tell apart.
  guard let x = a as? any Equatable else { return ([], "cannot be compared") }
  return equal(x, b) ? nil : ([], "")
}

private func equal<T: Equatable>(_ x: T, _ y: Any) -> Bool {
  guard let y = y as? T else { return false }
  return x == y
}

/// Whether `b` is an `A` with the same bytes as `a`, for a type without references (a struct of
/// numbers, an enum without a boxed payload); false for any other type.
private func sameBits<A>(_ a: A, _ b: Any) -> Bool {
  guard _isPOD(A.self), let b = b as? A else { return false }
  return sameInlineBytes(a, b)
}

/// Whether two values have the same bytes where they are stored, padding left out: for a value
/// with references (an array, a string), the same references. "No" may be wrong (a nil
/// optional's unused bytes, an enum's), "yes" is not.
func sameInlineBytes<T>(_ a: T, _ b: T) -> Bool {
  withUnsafeBytes(of: a) { x in
    withUnsafeBytes(of: b) { y in
      // Padding holds whatever was last written there (a copy of a stack slot, say): when the
      // bytes differ, the members' own bytes decide.
      sameBytes(x, y) || StoredBytes.of(a).allSatisfy { sameBytes(.init(rebasing: x[$0]), .init(rebasing: y[$0])) }
    }
  }
}

/// Where a type's stored members lie in its bytes, padding left out: the runtime's field
/// offsets (`_forEachField`, the reflection metadata `Mirror` reads too), structs and tuples
/// within members followed down, anything else (an enum, an optional, a reference) a member's
/// bytes as a whole. Found once per type; a type whose fields the runtime does not list, or
/// whose ranges would not fit in it, is taken as all its bytes.
///
/// (Not through `Mirror`: each new type a mirror meets is first checked for `CustomReflectable`,
/// a lookup over every protocol conformance in the process, some 400,000 instructions in a
/// statically linked `locemu`: 16 M for the decoder's forty types, on the thread that takes the
/// decoded chunks in order.)
private enum StoredBytes {
  private static let lock = NSLock()
  nonisolated(unsafe) private static var known: [ObjectIdentifier: [Range<Int>]] = [:]

  static func of<T>(_: T) -> [Range<Int>] {
    if let ranges = lock.withLock({ known[ObjectIdentifier(T.self)] }) { return ranges }
    let size = MemoryLayout<T>.size
    var seen: [ObjectIdentifier: [Range<Int>]?] = [:]
    var ranges = members(of: T.self, seen: &seen) ?? [0..<size]
    if !ranges.allSatisfy({ $0.lowerBound >= 0 && $0.upperBound <= size }) { ranges = [0..<size] }
    lock.withLock { known[ObjectIdentifier(T.self)] = ranges }
    return ranges
  }

  /// The ranges of `type`'s stored members; nil when the runtime lists none (a leaf). `seen`:
  /// the types met so far (a `Double` or an `Int` member is met many times).
  private static func members(of type: any Any.Type, seen: inout [ObjectIdentifier: [Range<Int>]?]) -> [Range<Int>]? {
    if let known = seen[ObjectIdentifier(type)] { return known }
    var ranges: [Range<Int>] = []
    let listed = _forEachField(of: type) { _, offset, member, kind in
      if kind == .struct || kind == .tuple, let inner = members(of: member, seen: &seen) {
        ranges += inner.map { $0.lowerBound + offset..<$0.upperBound + offset }
      } else if case let size = self.size(of: member), size > 0 {
        ranges.append(offset..<offset + size)
      }
      return true
    }
    let found = listed && !ranges.isEmpty ? ranges : nil
    seen[ObjectIdentifier(type)] = .some(found)
    return found
  }

  private static func size(of type: any Any.Type) -> Int {
    func measure<T>(_: T.Type) -> Int { MemoryLayout<T>.size }
    return measure(type)
  }
}

/// Whether two buffers hold the same bytes, eight at a time.
private func sameBytes(_ x: UnsafeRawBufferPointer, _ y: UnsafeRawBufferPointer) -> Bool {
  guard x.count == y.count else { return false }
  var i = 0
  while i + 8 <= x.count {
    guard x.loadUnaligned(fromByteOffset: i, as: UInt64.self) == y.loadUnaligned(fromByteOffset: i, as: UInt64.self)
    else { return false }
    i += 8
  }
  while i < x.count {
    guard x[i] == y[i] else { return false }
    i += 1
  }
  return true
}

/// A collection of values without references, compared by the bytes of its storage.
private protocol BitwiseComparableCollection {
  func sameBits(as other: Any) -> Bool
}

extension Array: BitwiseComparableCollection {
  /// Whether `other` is an array of as many elements with the same bytes, when `Element` has no
  /// references; false otherwise.
  fileprivate func sameBits(as other: Any) -> Bool {
    guard _isPOD(Element.self), let other = other as? [Element], other.count == count else { return false }
    // Element by element: the bytes between one element's end and the next one's start are
    // padding, whatever was last written there.
    let size = MemoryLayout<Element>.size, stride = MemoryLayout<Element>.stride
    return withUnsafeBytes { x in
      other.withUnsafeBytes { y in
        (0..<count).allSatisfy { i in
          sameBytes(.init(rebasing: x[i * stride..<i * stride + size]), .init(rebasing: y[i * stride..<i * stride + size]))
        }
      }
    }
  }
}
