/// GST: pseudorange error statistics (the receiver's own accuracy estimate).
public struct GST: Hashable, Sendable {
  /// The talker that sent the sentence (`GP`, `GN`, …).
  public var talker: NMEATalker
  /// UTC time of day; nil when the field is empty or malformed.
  public var time: NMEATimeOfDay?
  /// RMS of the pseudorange residuals, metres.
  public var rms: Double?
  /// 1-sigma semi-major axis of the error ellipse, metres.
  public var semiMajor: Double?
  /// 1-sigma semi-minor axis of the error ellipse, metres.
  public var semiMinor: Double?
  /// Orientation of the semi-major axis, degrees true.
  public var orientation: Double?
  /// 1-sigma errors, metres.
  public var latitudeError: Double?
  /// 1-sigma longitude error, metres.
  public var longitudeError: Double?
  /// 1-sigma altitude error, metres.
  public var altitudeError: Double?

  init(talker: NMEATalker, _ f: inout FieldReader) {
    self.talker = talker
    time = f.next().timeOfDay
    rms = f.nextDouble()
    semiMajor = f.nextDouble()
    semiMinor = f.nextDouble()
    orientation = f.nextDouble()
    latitudeError = f.nextDouble()
    longitudeError = f.nextDouble()
    altitudeError = f.nextDouble()
  }
}
