/// GST: pseudorange error statistics (the receiver's own accuracy estimate).
public struct GST: Hashable, Sendable {
  public var talker: NMEATalker
  public var time: NMEATimeOfDay?
  /// RMS of the pseudorange residuals, metres.
  public var rms: Double?
  /// 1-sigma semi-major axis of the error ellipse, metres.
  public var semiMajor: Double?
  public var semiMinor: Double?
  /// Orientation of the semi-major axis, degrees true.
  public var orientation: Double?
  /// 1-sigma errors, metres.
  public var latitudeError: Double?
  public var longitudeError: Double?
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
