public import Foundation
import Geo
public import LocationModel
import NMEA

/// Writes a recording as it comes (`locemu record`): raw NMEA sentences or fixes as NMEA lines
/// after a `# Date:` header, or fixes as a GPX track. Written line by line, so a crash loses at
/// most the last epoch. Safe to call from several threads.
public final class TraceRecorder: @unchecked Sendable {
  private let file: FileHandle
  private let format: Trace.Format
  private let name: String
  private let lock = NSLock()
  private var gpx = GPXWriter()
  private var started = false
  /// NMEA lines held until a date is known (the header comes first).
  private var held: [String] = []
  private var written = 0
  /// The time of the last sentence that gave one (an epoch is a time stamp).
  private var lastTime: NMEATimeOfDay?
  /// Where "today" comes from when no sentence gives a date (the clock, in tests).
  private let now: @Sendable () -> Date

  /// - Parameters:
  ///   - file: where the recording is written.
  ///   - format: `.gpx` for a GPX track; any other format writes NMEA.
  ///   - name: the GPX track's name.
  ///   - now: the date and time now, for a fix without a time and a recording without a date.
  public init(file: FileHandle, format: Trace.Format, name: String, now: @escaping @Sendable () -> Date = { Date() }) {
    self.file = file
    self.format = format
    self.name = name
    self.now = now
  }

  /// The epochs written so far: fixes, or time stamps of the sentences (one epoch begins with
  /// the first sentence whose time differs from the one before; sentences without a time, such
  /// as GSA and GSV, belong to the epoch they come in).
  public var epochs: Int { lock.withLock { written } }

  private func put(_ text: String) { file.write(Data(text.utf8)) }

  /// A raw sentence. The header's date is the first one a sentence (RMC, ZDA) gives, or
  /// today's (UTC) when 20 sentences came without one.
  /// - Parameters:
  ///   - sentence: the sentence, without its line ending.
  ///   - epochLimit: when given, a sentence that would begin an epoch past it is not
  ///     written.
  /// - Returns: false when `epochLimit` kept the sentence out.
  @discardableResult
  public func write(sentence: String, epochLimit: Int? = nil) -> Bool {
    let message = try? NMEAMessage(sentence)
    let time = message.flatMap(Self.time(of:))
    return lock.withLock {
      if let time, time != lastTime {
        if let epochLimit, written >= epochLimit { return false }
        written += 1
        lastTime = time
      }
      if !started {
        held.append(sentence)
        guard let date = message.flatMap(Self.date(of:)) ?? (held.count >= 20 ? today() : nil) else { return true }
        startNMEA(date)
        return true
      }
      put(sentence + "\r\n")
      return true
    }
  }

  private func startNMEA(_ date: String) {
    started = true
    put("# Date: \(date)\r\n# Recorded by locemu record\r\n")
    for line in held { put(line + "\r\n") }
    held.removeAll()
  }

  /// A fix: a GPX point, or an NMEA epoch (GGA, GSA, GSV, RMC, VTG).
  public func write(fix: LocationFix) {
    lock.withLock {
      written += 1
      switch format {
      case .gpx:
        if !started {
          started = true
          put(gpx.header(name: name))
        }
        put(gpx.append(fix))
      default:
        var fix = fix
        if fix.timestamp == nil { fix.timestamp = now() }
        if !started { startNMEA(Self.isoDate(fix.timestamp!)) }
        for line in NMEAWriter.receiverEpoch(for: fix) { put(line + "\r\n") }
      }
    }
  }

  /// Ends the file: held sentences written, a GPX track closed.
  public func finish() {
    lock.withLock {
      switch format {
      case .gpx:
        if !started { put(gpx.header(name: name)) }
        put(gpx.footer())
      default:
        if !started && !held.isEmpty { startNMEA(today()) }
      }
      try? file.close()
    }
  }

  /// `yyyy-mm-dd` from an RMC's date or a ZDA's, as the NMEA module decodes them.
  static func date(of message: NMEAMessage) -> String? {
    switch message {
    case .rmc(let rmc):
      guard let date = rmc.date else { return nil }
      return String(format: "20%02d-%02d-%02d", date.yearOfCentury, date.month, date.day)
    case .zda(let zda):
      guard let date = zda.date else { return nil }
      return String(format: "%04d-%02d-%02d", date.year, date.month, date.day)
    case .gga, .gll, .gns, .gsa, .gsv, .vtg, .gst, .unknown: return nil
    }
  }

  /// The UTC time of a GGA, RMC, GNS, GLL or ZDA (the kinds whose time gpsd takes as the current
  /// time, `NMEASentenceKind.latchesTime`); nil when absent (a GSA, a GSV, an empty field). A
  /// GST's is left out: it reports on an epoch another sentence began, as gpsd counts.
  static func time(of message: NMEAMessage) -> NMEATimeOfDay? {
    guard message.kind?.latchesTime == true else { return nil }
    return message.timeOfDay
  }

  static func isoDate(_ date: Date) -> String { String(FixRecord.iso8601(date).prefix(10)) }

  private func today() -> String { Self.isoDate(now()) }
}
