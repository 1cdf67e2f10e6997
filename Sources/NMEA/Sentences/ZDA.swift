/// ZDA: UTC time and a full date with a four-digit year.
public struct ZDA: Hashable, Sendable {
  /// The talker that sent the sentence (`GP`, `GN`, …).
  public var talker: NMEATalker
  /// UTC time of day; nil when the field is empty or malformed.
  public var time: NMEATimeOfDay?
  /// The calendar date, nil when a field is missing or out of range.
  public var date: NMEADate?
  /// Local time zone offset, hours, as sent.
  public var localZoneHours: Int?
  /// Local time zone offset, minutes, as sent.
  public var localZoneMinutes: Int?

  init(talker: NMEATalker, _ f: inout FieldReader) {
    self.talker = talker
    time = f.next().timeOfDay
    let day = f.nextInt(), month = f.nextInt(), year = f.nextInt()
    if let day, let month, let year, year >= 1980 {
      date = NMEADate(year: year, month: month, day: day)
    }
    localZoneHours = f.nextInt()
    localZoneMinutes = f.nextInt()
  }
}
