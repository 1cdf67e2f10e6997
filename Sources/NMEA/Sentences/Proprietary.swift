/// The proprietary `$P…` sentences gpsd (3.27.6) reads into its fix, as it reads them: none is
/// typed, each gives gpsd's fix model and cycle detector an ``OtherSentence``. Standard sentences
/// the decoder does not type (HDG, BWC, ROT, depth, wind) stay with `observeOther(_:_:)`; which
/// proprietary sentences gpsd decodes at all, and with how many fields, is
/// ``GPSDCycleDetector/tag(address:hasTalker:subtype:fieldCount:)``'s to say.
extension NMEADecoder {
  /// What a proprietary sentence gives gpsd, from its tag (see ``GPSDCycleDetector/Tag``) and its
  /// address without the `$` (`PGRME`); nil for a sentence none of these read, its fields then
  /// untouched. `$PERC` sets the tag it is merged under.
  static func proprietary(
    _ tag: inout GPSDCycleDetector.Tag, address: UnsafeRawBufferPointer, _ f: inout FieldReader
  ) -> OtherSentence? {
    switch tag {
    case .sirfErrors: return Self.sirfErrors(&f)
    case .skytraq030, .skytraq032, .skytraq033, .skytraq035, .skytraq036: return Self.skytraq(tag, &f)
    case .ashtechPosition: return Self.ashtechPosition(&f)
    default: break
    }
    var sentence = OtherSentence()
    if address.elementsEqual("PERC".utf8) {
      (tag, sentence) = Self.ericsson(&f)
    } else if address.elementsEqual("PGRME".utf8) {
      let horizontal = f.next(), horizontalUnit = f.next().character
      let vertical = f.next(), verticalUnit = f.next().character
      let spherical = f.next(), sphericalUnit = f.next().character
      sentence.newData = !horizontal.isEmpty
      if horizontalUnit == 0x4D && verticalUnit == 0x4D && sphericalUnit == 0x4D {
        sentence.data = .garminErrors(
          horizontal: horizontal.gpsdDouble, vertical: vertical.gpsdDouble, spherical: spherical.gpsdDouble)
      }
    } else if address.elementsEqual("PGRMV".utf8) {
      // gpsd takes the velocity (east, north, up, m/s) only with all three fields.
      let east = f.next(), north = f.next(), up = f.next()
      if !east.isEmpty && !north.isEmpty && !up.isEmpty {
        sentence.data = .velocity(north: north.double ?? 0, east: east.double ?? 0, down: -(up.double ?? 0))
        sentence.newData = true
      }
    } else if address.elementsEqual("PGRMZ".utf8) {
      let feet = f.next()
      let unit = f.next().character
      let mode = f.next().character.map { Int($0) - 0x30 }
      let altitude = unit == 0x66 && !feet.isEmpty ? (feet.int ?? 0) : nil
      sentence.data = .garminAltitude(feet: altitude, mode: mode)
      sentence.newData = altitude != nil || (1...3).contains(mode ?? 0)
    } else if address.elementsEqual("PGRMF".utf8) {
      sentence = Self.garminFix(&f)
    } else if address.elementsEqual("PGPSP".utf8) {
      sentence = Self.gpsp(&f)
    } else if address.elementsEqual("PMGNST".utf8) {
      // Magellan's status as gpsd reads it: the mode from field 3 when field 4 starts with T
      // (one field off the sentence's layout, so a real one gives mode 1), else no fix.
      _ = f.next()
      _ = f.next()
      let mode = f.next().int ?? 0, flag = f.next().character
      var new = GPSDFixModel.NewData()
      new.mode = flag == UInt8(ascii: "T") && (mode == 2 || mode == 3) ? mode : 1
      sentence.data = .fix(new)
      sentence.newData = true
    } else if address.elementsEqual("PTNLRNM".utf8) {
      // Trimble's navigation mode as a status: autonomous, differential, dead reckoning.
      switch f.next().character {
      case UInt8(ascii: "A"): sentence.data = .status(1)
      case UInt8(ascii: "D"): sentence.data = .status(2)
      case UInt8(ascii: "E"): sentence.data = .status(5)
      default: break
      }
      if case .status = sentence.data { sentence.newData = true }
    } else {
      return nil
    }
    return sentence
  }

  /// SiRF's `$PSRFEPE`: the time, when there is one, and with an `A` in its second field
  /// the HDOP and the horizontal, vertical, speed and track errors.
  private static func sirfErrors(_ f: inout FieldReader) -> OtherSentence {
    var sentence = OtherSentence()
    let timeField = f.next()
    sentence.time = timeField.isEmpty ? nil : timeField.timeOfDay
    sentence.newData = true
    if f.next().character == 0x41 {
      func value(_ field: Field) -> Double? { field.isEmpty ? nil : (field.double ?? 0) }
      let hdop = value(f.next()), eph = value(f.next()), epv = value(f.next())
      let eps = value(f.next()), epd = value(f.next())
      sentence.data = .sirfErrors(hdop: hdop, eph: eph, epv: epv, eps: eps, epd: epd)
    }
    return sentence
  }

  /// SkyTraq's `$PSTI` sentences gpsd decodes: 030 is a whole fix (position, MSL altitude, the
  /// velocity east, north and up, a status), 032, 033, 035 and 036 (RTK baselines, attitude)
  /// give it only their time. Each carries the current time with its date when it has both.
  private static func skytraq(_ tag: GPSDCycleDetector.Tag, _ f: inout FieldReader) -> OtherSentence {
    var sentence = OtherSentence()
    _ = f.next()  // 030, 032, …
    // The time and date when both are there and good, as gpsd merges them.
    func timeAndDate(_ time: Field, _ date: Field) {
      guard !time.isEmpty, !date.isEmpty, let t = time.timeOfDay, let d = date.ddmmyy else { return }
      sentence.time = t
      sentence.date = d
    }
    switch tag {
    case .skytraq030:
      let timeField = f.next(), status = f.next().character
      let position = f.readCoordinates()
      let altitude = f.next(), east = f.next().gpsdDouble, north = f.next().gpsdDouble, up = f.next().gpsdDouble
      let dateField = f.next(), mode = f.next().character
      var new = GPSDFixModel.NewData()
      if status == UInt8(ascii: "V") || mode == UInt8(ascii: "N") {
        // Not valid: no fix, and nothing else.
        new.mode = 1
        new.status = 0
      } else if status == UInt8(ascii: "A") {
        timeAndDate(timeField, dateField)
        new.status = GPSDFixModel.status(modeIndicator: mode)
        if let position {
          new.position = position
          new.mode = 2
          if !altitude.isEmpty {
            new.altitudeMSL = altitude.gpsdDouble
            new.mode = 3
          }
        }
        new.velocity = (north, east, -up)
      } else {
        break
      }
      sentence.data = .fix(new)
      sentence.newData = true
    case .skytraq032:
      let timeField = f.next(), dateField = f.next()
      if f.next().character == UInt8(ascii: "A") { timeAndDate(timeField, dateField) }
    case .skytraq033:
      let timeField = f.next(), dateField = f.next()
      let version = f.next().character, receiver = f.next().character
      if version == UInt8(ascii: "2"), receiver == UInt8(ascii: "B") || receiver == UInt8(ascii: "R") {
        timeAndDate(timeField, dateField)
      }
    default:
      let timeField = f.next(), dateField = f.next()
      timeAndDate(timeField, dateField)
    }
    if sentence.time != nil { sentence.newData = true }
    return sentence
  }

  /// Ashtech's `$PASHR,POS`: a 3D fix (mode 3, its status from the fix type) with the time,
  /// position, height above the ellipsoid, track, speed (km/h), climb and four DOPs; an empty
  /// fix type is no fix.
  private static func ashtechPosition(_ f: inout FieldReader) -> OtherSentence {
    var sentence = OtherSentence()
    sentence.newData = true
    _ = f.next()  // POS
    let fixType = f.next()
    var new = GPSDFixModel.NewData()
    guard !fixType.isEmpty else {
      new.mode = 1
      new.status = 0
      sentence.data = .fix(new)
      return sentence
    }
    new.mode = 3
    new.status = (fixType.int ?? 0) >= 1 ? 2 : 1
    _ = f.next()  // satellites used
    sentence.time = f.next().timeOfDay
    new.position = f.readCoordinates()
    let height = f.next()
    if new.position != nil && !height.isEmpty { new.altitudeHAE = height.gpsdDouble }
    _ = f.next()  // reserved
    new.track = f.next().gpsdDouble
    new.speed = f.next().gpsdDouble / 3.6
    new.climb = f.next().gpsdDouble
    let dops = GPSDFixModel.GivenDOPs(
      position: f.next().gpsdDOP, horizontal: f.next().gpsdDOP, vertical: f.next().gpsdDOP, time: f.next().gpsdDOP)
    sentence.data = .fix(new, dops: dops)
    return sentence
  }

  /// Garmin's `$PGRMF`: the fix with its time (gpsd stamps it with its last time when the GPS
  /// week and time of week are there with leap seconds, else with the sentence's UTC time and
  /// date), and with an `A` in field 10 the position, mode, speed (km/h), track, PDOP and TDOP.
  private static func garminFix(_ f: inout FieldReader) -> OtherSentence {
    var sentence = OtherSentence()
    sentence.newData = true
    let week = f.next(), timeOfWeek = f.next(), dateField = f.next(), timeField = f.next(), leap = f.next()
    let digit = { (field: Field) in field.character.map { $0 &- 0x30 < 10 } ?? false }
    if digit(week) && digit(timeOfWeek) && digit(leap) && (leap.int ?? 0) > 0 {
      sentence.stamp = .last
    } else if let time = timeField.timeOfDay, let date = dateField.ddmmyy {
      sentence.stamp = .at(time)
      sentence.date = date
    }
    let position = f.readCoordinates()
    guard f.next().character == UInt8(ascii: "A") else { return sentence }
    var new = GPSDFixModel.NewData()
    new.position = position
    new.mode =
      switch f.next().character {
      case UInt8(ascii: "0"): 1
      case UInt8(ascii: "1"): 2
      case UInt8(ascii: "2"): 3
      default: nil
      }
    new.speed = f.next().gpsdDouble / 3.6
    new.track = f.next().gpsdDouble
    sentence.data = .fix(new, dops: GPSDFixModel.GivenDOPs(position: f.next().gpsdDOP, time: f.next().gpsdDOP))
    return sentence
  }

  /// `$PGPSP` (GPS navigation data): the mode and status from its status word's second byte,
  /// with 2D or 3D the position in degrees, with 3D both altitudes, and gpsd's last time as the
  /// fix's time.
  private static func gpsp(_ f: inout FieldReader) -> OtherSentence {
    var sentence = OtherSentence()
    sentence.newData = true
    _ = f.next()  // time of week, ms
    _ = f.next()  // week
    let word = f.next().int ?? 0
    let latitude = f.next().gpsdDouble, longitude = f.next().gpsdDouble
    let altitudeHAE = f.next().gpsdDouble, altitudeMSL = f.next().gpsdDouble
    let (status, mode): (Int, Int) =
      switch (word >> 8) & 0xFF {
      case 0: (0, 1)
      case 1: (5, 3)
      case 2: (1, 2)
      case 3: (1, 3)
      case 4: (6, 3)
      case 5: (7, 3)
      case 8: (2, 3)
      case 9: (1, 3)
      case 10, 11: (4, 3)
      case 12: (3, 3)
      default: (0, 0)
      }
    var new = GPSDFixModel.NewData()
    (new.mode, new.status) = (mode, status)
    if mode >= 2 {
      // gpsd takes the degrees as they come; a position is only one that is a position.
      if abs(latitude) <= 90 && abs(longitude) <= 180 { new.position = (latitude, longitude) }
      sentence.stamp = .last
    }
    if mode == 3 { (new.altitudeHAE, new.altitudeMSL) = (altitudeHAE, altitudeMSL) }
    sentence.data = .fix(new)
    return sentence
  }

  /// Ericsson's timing receivers' `$PERC` sentences as gpsd (3.27.6) reads them: `GPsts` gives
  /// a status (7, time only, while surveying or holding a position; 1 while acquiring), `GPppr`
  /// stamps the fix with gpsd's last time, sets the satellites used and makes gpsd take the
  /// satellites in view (and DOPs from them), `GPppf` has oscillator data.
  private static func ericsson(_ f: inout FieldReader) -> (GPSDCycleDetector.Tag, OtherSentence) {
    var sentence = OtherSentence()
    let subtype = f.next()
    if subtype.equals("GPsts") {
      switch f.next().int ?? 0 {
      case 1, 2, 4: sentence.data = .status(7)
      case 0: sentence.data = .status(1)
      default: return (.other, sentence)
      }
      sentence.newData = true
    } else if subtype.equals("GPppr") {
      _ = f.next()  // time of week
      _ = f.next()  // week
      _ = f.next()  // cable delay
      sentence.data = .skyComplete(satellitesUsed: f.next().int ?? 0)
      sentence.stamp = .last
      sentence.newData = true
    } else if subtype.equals("GPppf") {
      sentence.newData = true
    } else if subtype.equals("GPavp") {
      guard let (latitude, longitude) = f.readCoordinates() else { return (.other, sentence) }
      sentence.data = .averagedPosition(latitude: latitude, longitude: longitude, altitudeHAE: f.next().gpsdDouble)
      sentence.newData = true
    }
    return (.other, sentence)
  }
}
