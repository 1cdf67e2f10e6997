// CoreLocation support behind `canImport`, as swift-custom-dump and other libraries have it: on
// Linux a module named CoreLocation is in a build once LocationEmulator's CoreLocation product
// is, and this package, which never names LocationEmulator, imports it.
#if canImport(CoreLocation)
  import CoreLocation

  /// What the package compiled with.
  public enum GuardedLocation {
    /// Whether `canImport(CoreLocation)` was true when this package compiled.
    public static let sawCoreLocation = true

    /// Metres between two places, as CoreLocation measures them.
    public static func metres(from a: (Double, Double), to b: (Double, Double)) -> Double? {
      CLLocation(latitude: a.0, longitude: a.1).distance(from: CLLocation(latitude: b.0, longitude: b.1))
    }
  }
#else
  /// What the package compiled with.
  public enum GuardedLocation {
    /// Whether `canImport(CoreLocation)` was true when this package compiled.
    public static let sawCoreLocation = false

    /// Nothing without CoreLocation.
    public static func metres(from a: (Double, Double), to b: (Double, Double)) -> Double? { nil }
  }
#endif
