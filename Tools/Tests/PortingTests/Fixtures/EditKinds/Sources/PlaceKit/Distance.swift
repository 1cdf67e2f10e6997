import CoreLocation

#if os(iOS)
  extension CLLocation {
    /// Metres to `other`, rounded: iOS-only in the original, though nothing in it is.
    public func roundedDistance(to other: CLLocation) -> Int { Int(distance(from: other).rounded()) }
  }
#endif
