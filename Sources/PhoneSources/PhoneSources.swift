public import Emulator
import Foundation
public import GNSSReceiver
import LocationModel
public import Traces

// Sources that plug into a phone, for those who ask for them: trace files (NMEA, GPX, KML,
// GeoJSON, JSON lines; GPX and KML through libxml2) and a realistic receiver. The phone itself
// (Emulator) knows only timelines and live sources.

extension PhoneSource {
  /// A trace file (NMEA, GPX, KML, GeoJSON or JSON lines) replayed with `options` (speed, loop,
  /// offset, time base, gap filling).
  public static func trace(_ trace: Trace, options: ReplayOptions = ReplayOptions()) -> PhoneSource {
    replay(options: options) { try trace.makeReader() }
  }

  /// A replay of the epochs `makeReader` gives (an in-memory trace shared by a fleet, a test's list).
  public static func replay(
    options: ReplayOptions = ReplayOptions(), makeReader: @escaping @Sendable () throws -> any TraceReader
  ) -> PhoneSource {
    .timeline { _ in ReplayTimeline(cursor: TraceReplayCursor(options: options, makeReader: makeReader)) }
  }

  /// `truth` as a realistic receiver reports it: each of its fixes is where the phone really
  /// is, and the phone gets what a seeded ``GNSSReceiver/GNSSReceiver`` makes of it (satellites, a time to
  /// first fix, errors that drift, an honest or over-confident accuracy, outages).
  ///
  /// ```swift
  /// let phone = EmulatedPhone(
  ///   source: .realistic(.fixed(home), receiver: .init(profile: .urbanCanyon, seed: 7)), clock: clock)
  /// ```
  ///
  /// The same seed and truth give the same fixes on every run; phones of one seed differ by
  /// their `GNSSReceiver.Options.phone`.
  ///
  /// - Parameter epochs: Given each of the receiver's whole epochs (satellites, DOPs, errors
  ///   beside the fix), for whoever writes them out as a receiver's NMEA. A timeline's epoch is
  ///   measured before the phone delivers its fix (the phone looks one fix ahead), under the
  ///   phone's lock: keep the call short and do not call into the phone from it.
  public static func realistic(
    _ truth: PhoneSource, receiver options: GNSSReceiver.Options, epochs: (@Sendable (ReceiverEpoch) -> Void)? = nil
  ) -> PhoneSource {
    truth.transformed {
      var receiver = GNSSReceiver(options: options)
      return { fix in receiver.measureFix(fix, epochs: epochs) }
    }
  }
}

/// A trace replayed on the phone's clock.
final class ReplayTimeline: PhoneTimeline {
  var cursor: TraceReplayCursor

  init(cursor: TraceReplayCursor) { self.cursor = cursor }

  func next() throws -> (at: Duration, fix: LocationFix)? {
    guard let step = try cursor.next() else { return nil }
    return (step.scheduled, step.fix)
  }

  func close() { cursor.close() }
}

/// A trace's replay worked out once — its pacing, start offset, gap fills and time base — and
/// shared by every phone that plays it (`PhoneSource.replay(_:)`): each phone's timeline is
/// an index into one array, so a fleet on one trace pays for the replay once, not per phone.
/// The phones get the same fixes at the same times as from `PhoneSource.replay(options:makeReader:)`
/// with the same options.
public final class ReplaySchedule: Sendable {
  /// A replay that never ends (`ReplayOptions.loop` without a `ReplayOptions.count`).
  public struct Endless: Error, CustomStringConvertible {
    public var description: String { "a looping replay without a count has no end to schedule" }
  }

  /// Each fix and when it is due, as time since the source started.
  public let fixes: [ScriptedFix]

  /// Replays the epochs `makeReader` gives with `options`, to the end.
  /// - Throws: ``Endless`` for a loop without a count; what the reader throws.
  public init(options: ReplayOptions = ReplayOptions(), makeReader: @escaping @Sendable () throws -> any TraceReader) throws {
    guard !options.loop || options.count != nil else { throw Endless() }
    var cursor = TraceReplayCursor(options: options, makeReader: makeReader)
    var fixes: [ScriptedFix] = []
    while let step = try cursor.next() { fixes.append(ScriptedFix(at: step.scheduled, fix: step.fix)) }
    self.fixes = fixes
  }
}

extension PhoneSource {
  /// A replay scheduled once and shared (a fleet's phones on one trace).
  public static func replay(_ schedule: ReplaySchedule) -> PhoneSource { .scheduled(schedule.fixes) }
}
