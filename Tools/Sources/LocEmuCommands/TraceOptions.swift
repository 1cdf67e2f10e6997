public import ArgumentParser
import Foundation
import Geo
import LocationModel
import NMEA
package import Traces

/// How to read a trace: shared by replay, convert and feed.
struct TraceOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "The trace's format; by default from the name (.gpx, .kml, .geojson, .jsonl, .nmea), else the first bytes.",
      valueName: "nmea|gpx|jsonl|kml|geojson"))
  var format: Trace.Format?

  @OptionGroup(title: "NMEA decoding")
  var nmea: NMEAOptions

  @Flag(help: "GPX points without times: move at walking pace (1.4 m/s, the default).")
  var walk = false

  @Flag(help: "GPX points without times: move at driving pace (13.9 m/s, 50 km/h).")
  var drive = false

  @Option(parsing: .unconditional, help: ArgumentHelp("GPX points without times: move at this constant speed.", valueName: "m/s"))
  var mps: Double?

  func validate() throws {
    if [walk, drive, mps != nil].filter({ $0 }).count > 1 {
      throw ValidationError("give at most one of --walk, --drive, --mps")
    }
    if let mps, !(mps > 0 && mps < 1000) { throw ValidationError("--mps must be above 0 and below 1000, got \(mps)") }
  }

  var pace: TracePace {
    if drive { return .drive }
    if let mps { return .metresPerSecond(mps) }
    return .walk
  }

  /// The trace at `path`; a file that cannot be read is a one-line error and exit status 1.
  /// With `keepSentences` (the raw sentences are sent on), every time stamp is an epoch, so that
  /// each one's sentences go out at its own time.
  func trace(_ path: String, command: String, keepSentences: Bool = false) throws -> Trace {
    var options = nmea.assemblerOptions
    if keepSentences { options.reporting = .everyTimeStamp }
    do {
      return try Trace(
        path: path, format: format, nmeaOptions: options, pace: pace,
        keepSentences: keepSentences)
    } catch {
      throw CommandFailure("\(error)")
    }
  }
}

extension Trace {
  /// Reads the trace before it is used — through to its end with `wholeFile`, else its first
  /// epoch — so that a trace that cannot be read, or holds no epoch, is one line and exit 1 now
  /// rather than a silent run. Returns the epochs read.
  @discardableResult
  func check(command: String, wholeFile: Bool) throws -> Int {
    var epochs = 0
    do {
      let reader = try makeReader()
      defer { reader.close() }
      while try reader.next() != nil {
        epochs += 1
        if !wholeFile { break }
      }
    } catch {
      throw CommandFailure("\(error)")
    }
    guard epochs > 0 else {
      throw CommandFailure("\(path): no epochs read as \(format.displayName) (--format says what it is)")
    }
    return epochs
  }
}

/// `HOST:PORT`, `[v6]:PORT` or `:PORT` (loopback).
struct Endpoint: ExpressibleByArgument, CustomStringConvertible {
  var host: String
  var port: Int

  init?(argument: String) {
    guard let colon = argument.lastIndex(of: ":"), let port = Int(argument[argument.index(after: colon)...]),
      (0...65535).contains(port)
    else { return nil }
    var host = String(argument[..<colon])
    if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
    self.host = host.isEmpty ? "127.0.0.1" : host
    self.port = port
  }

  var description: String { "\(Self.shown(host)):\(port)" }

  /// A host as a URL shows it: an IPv6 address in brackets.
  static func shown(_ host: String) -> String { host.contains(":") ? "[\(host)]" : host }
}

extension Trace.Format: @retroactive ExpressibleByArgument {}

/// `--now` / `--start-time`: what replayed timestamps say.
struct TimeBaseOptions: ParsableArguments {
  @Flag(help: "Stamp fixes with the current time, keeping the trace's pace (as Xcode does).")
  var now = false

  @Option(help: ArgumentHelp("Stamp the first fix with this UTC time, the rest at the trace's pace.", valueName: "ISO-8601"))
  var startTime: String?

  func validate() throws {
    if now && startTime != nil { throw ValidationError("give --now or --start-time, not both") }
    if let startTime, GPXTime.parse(startTime) == nil {
      throw ValidationError("--start-time must be an ISO 8601 UTC time such as 2024-05-01T10:00:00Z, got '\(startTime)'")
    }
  }

  /// The time base; `fallback` when neither option was given.
  func timeBase(default fallback: ReplayOptions.TimeBase = .asRecorded) -> ReplayOptions.TimeBase {
    if now { return .startingAt(Date()) }
    if let startTime, let date = GPXTime.parse(startTime) { return .startingAt(date) }
    return fallback
  }
}
