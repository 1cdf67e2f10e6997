/// ZDA: UTC time and a full date with a four-digit year.
public struct ZDA: Hashable, Sendable {
  public var talker: NMEATalker
  public var time: NMEATimeOfDay?
  /// The calendar date, nil when a field is missing or out of range.
  public var date: NMEADate?
  public var localZoneHours: Int?
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
