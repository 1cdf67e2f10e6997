public import ArgumentParser
import Foundation
package import NMEA

/// How NMEA logs are decoded: shared by decode and every command that reads a trace.
struct NMEAOptions: ParsableArguments {
  @Option(help: ArgumentHelp("The UTC date of an NMEA log's first epoch, for logs without a date.", valueName: "YYYY-MM-DD"))
  var date: String?

  @Option(
    help: ArgumentHelp(
      "Which NMEA epochs are reported: as gpsd reports them, or every time stamp with all its sentences.",
      valueName: "gpsd|every-time-stamp"))
  var reporting: NMEAEpochAssembler.Reporting = .gpsd

  @Option(
    help: ArgumentHelp(
      "Resolve GPS week rollovers against this date when neither --date nor a '# Date:' header gives one, as gpsd resolves them against the day it started ('today' for the system clock's date). Default: no correction then.",
      valueName: "YYYY-MM-DD|today"))
  var rolloverReference: String?

  func validate() throws {
    if let date, Self.parse(date) == nil {
      throw ValidationError("--date must be a calendar date as YYYY-MM-DD (1700–2200), got '\(date)'")
    }
    if let rolloverReference, rolloverReference != "today", Self.parse(rolloverReference) == nil {
      throw ValidationError(
        "--rollover-reference must be 'today' or a calendar date as YYYY-MM-DD (1700–2200), got '\(rolloverReference)'")
    }
  }

  /// The decoder's options; `today` is the system clock's UTC date.
  var assemblerOptions: NMEAEpochAssembler.Options {
    let reference: NMEADate? =
      rolloverReference == "today"
      ? NMEATimestamp(nanosecondsSinceUnixEpoch: Int64(Date().timeIntervalSince1970) * 1_000_000_000).date
      : rolloverReference.flatMap(Self.parse)
    return NMEAEpochAssembler.Options(
      date: date.flatMap(Self.parse), rolloverReference: reference, reporting: reporting)
  }

  private static func parse(_ text: String) -> NMEADate? {
    guard let date = NMEADate(iso: text), NMEATimestamp.representableYears.contains(date.year) else { return nil }
    return date
  }
}

extension NMEAEpochAssembler.Reporting: @retroactive ExpressibleByArgument {}
