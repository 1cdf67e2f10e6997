/// GSV: satellites in view, up to four per sentence.
public struct GSV: Hashable, Sendable {
  /// One satellite of a GSV sentence.
  public struct Satellite: Hashable, Sendable {
    public var id: Int
    /// Degrees above the horizon.
    public var elevation: Int?
    /// Degrees true.
    public var azimuth: Int?
    /// Signal-to-noise ratio, dB-Hz; nil when not tracking.
    public var snr: Int?

    public init(id: Int, elevation: Int? = nil, azimuth: Int? = nil, snr: Int? = nil) {
      self.id = id
      self.elevation = elevation
      self.azimuth = azimuth
      self.snr = snr
    }
  }

  public var talker: NMEATalker
  public var totalMessages: Int?
  public var messageNumber: Int?
  public var satellitesInView: Int?
  public var satellites: [Satellite] {
    get { Array(inline) }
    set { inline = InlineList(newValue, filler: Satellite(id: 0)) }
  }
  /// ``satellites``, stored inline.
  var inline = InlineList<4, Satellite>(filler: Satellite(id: 0))
  /// NMEA 4.1 signal ID, when present.
  public var signalID: Int?

  init(talker: NMEATalker, _ f: inout FieldReader) {
    self.talker = talker
    totalMessages = f.nextInt()
    messageNumber = f.nextInt()
    satellitesInView = f.nextInt()
    var trailing: Int?
    while !f.isAtEnd {
      let id = f.nextInt()
      if f.isAtEnd {
        // A lone trailing field is the NMEA 4.1 signal ID.
        trailing = id
        break
      }
      let el = f.nextInt(), az = f.nextInt(), snr = f.nextInt()
      if let prn = id {
        inline.append(Satellite(id: prn, elevation: el, azimuth: az, snr: snr))
      }
    }
    signalID = trailing
  }
}
