/// GSV: satellites in view, up to four per sentence.
public struct GSV: Hashable, Sendable {
  /// One satellite of a GSV sentence.
  public struct Satellite: Hashable, Sendable {
    /// The satellite's ID (PRN or NMEA satellite number).
    public var id: Int
    /// Degrees above the horizon.
    public var elevation: Int?
    /// Degrees true.
    public var azimuth: Int?
    /// Signal-to-noise ratio, dB-Hz; nil when not tracking.
    public var snr: Int?

    /// Creates a satellite entry.
    /// - Parameters:
    ///   - id: the satellite's ID.
    ///   - elevation: degrees above the horizon.
    ///   - azimuth: degrees true.
    ///   - snr: signal-to-noise ratio, dB-Hz; nil when not tracking.
    public init(id: Int, elevation: Int? = nil, azimuth: Int? = nil, snr: Int? = nil) {
      self.id = id
      self.elevation = elevation
      self.azimuth = azimuth
      self.snr = snr
    }
  }

  /// The talker that sent the sentence (`GP`, `GN`, …).
  public var talker: NMEATalker
  /// How many GSV sentences make up the set.
  public var totalMessages: Int?
  /// This sentence's number in the set, from 1.
  public var messageNumber: Int?
  /// Satellites in view of this talker.
  public var satellitesInView: Int?
  /// The satellites this sentence lists, up to four; entries without an ID are left out.
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
    let header = Header(&f)
    totalMessages = header.totalMessages
    messageNumber = header.messageNumber
    satellitesInView = header.satellitesInView
    var list = InlineList<4, Satellite>(filler: Satellite(id: 0))
    signalID = Self.readSatellites(&f) { satellite in
      list.append(satellite)
      return true
    }
    inline = list
  }

  /// The three fields before the satellites.
  struct Header {
    var totalMessages: Int?
    var messageNumber: Int?
    var satellitesInView: Int?

    init(_ f: inout FieldReader) {
      totalMessages = f.nextInt()
      messageNumber = f.nextInt()
      satellitesInView = f.nextInt()
    }

    init(_ s: GSV) {
      totalMessages = s.totalMessages
      messageNumber = s.messageNumber
      satellitesInView = s.satellitesInView
    }

    /// Whether more sentences of the set follow this one.
    var isPartial: Bool { (messageNumber ?? 0) < (totalMessages ?? 0) }
  }

  /// Reads the satellites after the ``Header``, giving each with a number to `body` until it
  /// returns false; returns the NMEA 4.1 signal ID (a lone trailing field) when there is one.
  /// The one reading of a GSV's satellites: for ``init(talker:_:)``, and for the decoder, which
  /// gives them straight to gpsd's sky without building a `GSV`.
  @inline(__always)
  static func readSatellites(_ f: inout FieldReader, _ body: (Satellite) -> Bool) -> Int? {
    while !f.isAtEnd {
      let id = f.nextInt()
      if f.isAtEnd { return id }
      let el = f.nextInt(), az = f.nextInt(), snr = f.nextInt()
      if let prn = id, !body(Satellite(id: prn, elevation: el, azimuth: az, snr: snr)) { return nil }
    }
    return nil
  }
}
