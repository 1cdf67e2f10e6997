import Geo
public import LocationModel

/// Merges gpsd's TPV reports into one fix per epoch (per timestamp).
///
/// `add` holds a report back while more of the same epoch may follow; it
/// returns a fix only when a report for a *different* epoch arrives (the held
/// one is then complete). `flush` releases the held fix when the stream goes
/// quiet. A report for an epoch already delivered is passed on only when it
/// adds something the delivered fix lacked.
public struct EpochCollapser: Sendable {
  private var held: LocationFix?
  private var delivered: LocationFix?

  /// Creates a collapser holding no report.
  public init() {}

  /// Adds a report; returns the previous epoch's fix when this report starts a new epoch.
  public mutating func add(_ fix: LocationFix) -> LocationFix? {
    guard let current = held else {
      held = fix
      return nil
    }
    if current.timestamp == fix.timestamp {
      held = Self.merge(current, fix)
      return nil
    }
    held = fix
    return release(current)
  }

  /// Releases the held fix, if any.
  public mutating func flush() -> LocationFix? {
    guard let fix = held else { return nil }
    held = nil
    return release(fix)
  }

  private mutating func release(_ fix: LocationFix) -> LocationFix? {
    if let last = delivered, last.timestamp == fix.timestamp, fix.timestamp != nil {
      let merged = Self.merge(last, fix)
      guard merged != last else { return nil }
      delivered = merged
      return merged
    }
    delivered = fix
    return fix
  }

  /// The later report, with members it lacks taken from the earlier one; the higher mode wins.
  static func merge(_ a: LocationFix, _ b: LocationFix) -> LocationFix {
    guard b.mode >= a.mode else { return merge(b, a) }
    var out = b
    if b.mode == a.mode {
      out.altitudeMSL = b.altitudeMSL ?? a.altitudeMSL
      out.altitudeHAE = b.altitudeHAE ?? a.altitudeHAE
      out.speed = b.speed ?? a.speed
      out.course = b.course ?? a.course
      out.horizontalAccuracy = b.horizontalAccuracy ?? a.horizontalAccuracy
      out.verticalAccuracy = b.verticalAccuracy ?? a.verticalAccuracy
    }
    return out
  }
}
