public import GNSS
public import LocationModel

// What a receiver's epoch holds: its fix state, the satellites it tracks, its reported and true
// errors (the receiver itself is in GNSSReceiver.swift).

/// Where a receiver is in getting and keeping a fix.
public enum FixState: String, Hashable, Sendable, Codable, CaseIterable {
  /// Before its first epoch.
  case off
  /// Searching for satellites, before the time to first fix has passed.
  case acquiring
  /// Three satellites: latitude and longitude, the altitude held.
  case fix2D = "2d"
  /// Four or more.
  case fix3D = "3d"
  /// A fix with poor geometry (PDOP above 6).
  case degraded
  /// Too few satellites after a fix, or reacquiring them.
  case lost
}

/// A satellite in view and what the receiver makes of it.
public struct TrackedSatellite: Hashable, Sendable {
  /// Where the satellite is in the sky: its system, PRN, azimuth and elevation.
  public var view: SatelliteView
  /// Carrier-to-noise density, dB-Hz; nil when not tracked.
  public var signal: Double?
  /// Whether the fix uses it.
  public var used: Bool

  /// A satellite as the receiver tracks it.
  /// - Parameters:
  ///   - view: where the satellite is in the sky.
  ///   - signal: carrier-to-noise density, dB-Hz; nil when not tracked.
  ///   - used: whether the fix uses it.
  public init(view: SatelliteView, signal: Double?, used: Bool) {
    self.view = view
    self.signal = signal
    self.used = used
  }

  /// The satellite's PRN within its system.
  public var prn: Int { view.prn }
  /// The satellite's constellation.
  public var system: GNSSSystem { view.system }
  /// The satellite's azimuth, degrees from true north.
  public var azimuth: Double { view.azimuth }
  /// The satellite's elevation above the horizon, degrees.
  public var elevation: Double { view.elevation }
}

/// A receiver's error, metres east, north and up (the reported position minus the truth).
public struct PositionError: Hashable, Sendable {
  /// The error eastwards, metres.
  public var east: Double
  /// The error northwards, metres.
  public var north: Double
  /// The error upwards, metres.
  public var up: Double
  /// An error from its three components.
  /// - Parameters:
  ///   - east: metres east.
  ///   - north: metres north.
  ///   - up: metres up.
  public init(east: Double, north: Double, up: Double) {
    self.east = east
    self.north = north
    self.up = up
  }
  /// The horizontal error, metres.
  public var horizontal: Double { (east * east + north * north).squareRoot() }
}

/// The errors a receiver reports, 1 σ: east, north, up (nil in 2D), metres; velocity per axis, m/s.
public struct ErrorSigma: Hashable, Sendable {
  /// The east error, 1 σ, metres.
  public var east: Double
  /// The north error, 1 σ, metres.
  public var north: Double
  /// The vertical error, 1 σ, metres; nil in 2D.
  public var up: Double?
  /// The velocity error per axis, 1 σ, m/s.
  public var velocity: Double
}

/// One epoch of a receiver.
public struct ReceiverEpoch: Sendable {
  /// What it reports (mode `.noFix` and no coordinate without a fix).
  public var fix: LocationFix
  /// Where the receiver is in getting and keeping a fix.
  public var state: FixState
  /// The satellites above the horizon, by system and PRN.
  public var satellites: [TrackedSatellite]
  /// The DOPs of the used set, with a fix.
  public var dop: DilutionOfPrecision?
  /// The reported errors, 1 σ, with a fix.
  public var sigma: ErrorSigma?
  /// The true error, with a fix (for tests and analysis; a real receiver does not know it).
  public var error: PositionError?

  /// An epoch.
  /// - Parameters:
  ///   - fix: what the receiver reports.
  ///   - state: where it is in getting and keeping a fix.
  ///   - satellites: the satellites above the horizon, by system and PRN.
  ///   - dop: the DOPs of the used set, with a fix.
  ///   - sigma: the reported errors, 1 σ, with a fix.
  ///   - error: the true error, with a fix.
  public init(
    fix: LocationFix, state: FixState, satellites: [TrackedSatellite], dop: DilutionOfPrecision? = nil, sigma: ErrorSigma? = nil,
    error: PositionError? = nil
  ) {
    self.fix = fix
    self.state = state
    self.satellites = satellites
    self.dop = dop
    self.sigma = sigma
    self.error = error
  }

  /// The satellites the fix uses.
  public var used: [TrackedSatellite] { satellites.filter(\.used) }
}
