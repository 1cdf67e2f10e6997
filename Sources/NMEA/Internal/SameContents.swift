/// Whether two values hold the same data, as far as reflection shows it: the same type, the
/// same stored properties, elements, enum cases and payloads, recursively, with floating-point
/// values compared bit for bit (NaN is the same as NaN; 0.0 and -0.0 differ).
///
/// It answers "would code given one of them behave as given the other", for value-typed state
/// without writing an equality by hand for every type in it (the decoder's state spans some
/// forty types, and a member added to any of them is compared without anyone remembering to).
/// It errs one way only: whatever it cannot see into (a class instance, a pointer, an opaque
/// leaf that is not `Equatable`) counts as different, so a wrong "same" cannot come from it;
/// a wrong "different" costs its caller time, not correctness. Not for hot paths: it walks
/// the values through `Mirror`.
func sameContents(_ a: Any, _ b: Any) -> Bool {
  contentsDifference(a, b) == nil
}

/// Where `a` and `b` first differ for ``sameContents(_:_:)``, as a path of member labels and
/// element indices (`model.sky.satellites[3].snr`); nil when they are the same.
func contentsDifference(_ a: Any, _ b: Any) -> String? {
  difference(a, b, path: "", depth: 0)
}

private func difference(_ a: Any, _ b: Any, path: String, depth: Int) -> String? {
  let here = path.isEmpty ? "(value)" : path
  guard depth < 48 else { return here + " (too deep)" }
  guard type(of: a) == type(of: b) else { return here + " (types differ)" }
  if let x = a as? Double, let y = b as? Double { return x.bitPattern == y.bitPattern ? nil : here }
  if let x = a as? Float, let y = b as? Float { return x.bitPattern == y.bitPattern ? nil : here }
  let ma = Mirror(reflecting: a)
  let mb = Mirror(reflecting: b)
  guard ma.displayStyle == mb.displayStyle else { return here + " (cases differ)" }
  // A class instance is shared and mutable: its contents can change behind either value.
  guard ma.displayStyle != .class else { return here + " (a class instance)" }
  guard ma.children.isEmpty && mb.children.isEmpty else {
    guard ma.children.count == mb.children.count else { return here + " (counts differ)" }
    for (i, (x, y)) in zip(ma.children, mb.children).enumerated() {
      guard x.label == y.label else { return here + " (cases differ)" }
      let step = x.label.map { path.isEmpty ? $0 : "\(path).\($0)" } ?? "\(path)[\(i)]"
      if let found = difference(x.value, y.value, path: step, depth: depth + 1) { return found }
    }
    return nil
  }
  switch ma.displayStyle {
  case .optional?, .collection?, .dictionary?, .set?, .tuple?: return nil  // both nil, or both empty
  default: break
  }
  // A leaf: an integer, a Boolean, a string, an enum case without a payload, or something
  // reflection cannot see into, which only `==` can then tell apart.
  guard let x = a as? any Equatable else { return here + " (cannot be compared)" }
  return equal(x, b) ? nil : here
}

private func equal<T: Equatable>(_ x: T, _ y: Any) -> Bool {
  guard let y = y as? T else { return false }
  return x == y
}
