import Foundation
public import GNSSReceiver
public import Geo
public import Traces
public import LocationServices

/// Where an ``EmulatedPhone``'s positions come from.
///
/// Timeline sources (``fixed(_:horizontalAccuracy:altitude:interval:count:)``, ``script(_:)``,
/// ``trace(_:options:)``, ``replay(options:makeReader:)``) are paced by the phone's own timers
/// on its clock, one fix ahead: on a virtual clock a whole walk replays in order, instantly,
/// the same on every run. A ``live(_:)`` source (gpsd, anything asynchronous) is read while
/// the phone's `run()` runs; its fixes arrive when they come, at the clock's time then.
public struct PhoneSource: Sendable {
  enum Kind: Sendable {
    case none
    case timeline(@Sendable (_ startDate: Date) throws -> any PhoneTimeline)
    case live(any LocationSource)
  }

  let kind: Kind

  /// No source: fixes come only from ``EmulatedPhone/send(_:)``.
  public static let none = PhoneSource(kind: .none)

  /// A device standing still: `coordinate` every `interval` from the start (the first at
  /// once), stamped with the phone's start date plus the time elapsed.
  /// - Parameter count: how many fixes (nil: no end).
  public static func fixed(
    _ coordinate: Coordinate, horizontalAccuracy: Double? = 5, altitude: Double? = nil, interval: Duration = .seconds(1),
    count: Int? = nil
  ) -> PhoneSource {
    let fix = LocationFix(
      mode: altitude == nil ? .twoD : .threeD, coordinate: coordinate, altitudeMSL: altitude, speed: 0,
      horizontalAccuracy: horizontalAccuracy)
    return PhoneSource(kind: .timeline { start in FixedTimeline(fix: fix, interval: interval, count: count, start: start) })
  }

  /// Fixes at given times from the start, in the order given (times must not decrease). A fix
  /// without a timestamp is stamped with the phone's start date plus its time.
  public static func script(_ fixes: [ScriptedFix]) -> PhoneSource {
    PhoneSource(kind: .timeline { start in ScriptTimeline(fixes: fixes, start: start) })
  }

  /// A trace file (NMEA or GPX) replayed with `options` (speed, loop, offset, time base, gap filling).
  public static func trace(_ trace: Trace, options: ReplayOptions = ReplayOptions()) -> PhoneSource {
    replay(options: options) { try trace.makeReader() }
  }

  /// A replay of the epochs `makeReader` gives (an in-memory trace shared by a fleet, a test's list).
  public static func replay(
    options: ReplayOptions = ReplayOptions(), makeReader: @escaping @Sendable () throws -> any TraceReader
  )
    -> PhoneSource
  {
    PhoneSource(kind: .timeline { _ in ReplayTimeline(cursor: TraceReplayCursor(options: options, makeReader: makeReader)) })
  }

  /// Any ``LocationSource`` (a `GPSDSource`, say), read while the phone's `run()` runs.
  public static func live(_ source: any LocationSource) -> PhoneSource { PhoneSource(kind: .live(source)) }

  /// `truth` as a realistic receiver reports it: each of its fixes is where the phone really
  /// is, and the phone gets what a seeded ``GNSSReceiver`` makes of it (satellites, a time to
  /// first fix, errors that drift, an honest or over-confident accuracy, outages).
  ///
  /// ```swift
  /// let phone = EmulatedPhone(
  ///   source: .realistic(.fixed(home), receiver: .init(profile: .urbanCanyon, seed: 7)), clock: clock)
  /// ```
  ///
  /// The same seed and truth give the same fixes on every run; phones of one seed differ by
  /// their ``GNSSReceiver/Options/phone``.
  ///
  /// - Parameter epochs: Given each of the receiver's whole epochs (satellites, DOPs, errors
  ///   beside the fix), for whoever writes them out as a receiver's NMEA. A timeline's epoch is
  ///   measured before the phone delivers its fix (the phone looks one fix ahead), under the
  ///   phone's lock: keep the call short and do not call into the phone from it.
  public static func realistic(
    _ truth: PhoneSource, receiver options: GNSSReceiver.Options, epochs: (@Sendable (ReceiverEpoch) -> Void)? = nil
  ) -> PhoneSource {
    switch truth.kind {
    case .none:
      return truth
    case .timeline(let make):
      return PhoneSource(
        kind: .timeline { start in RealisticTimeline(truth: try make(start), receiver: GNSSReceiver(options: options), epochs: epochs) })
    case .live(let source):
      return PhoneSource(kind: .live(RealisticSource(truth: source, options: options, epochs: epochs)))
    }
  }
}

/// A timeline's fixes as a receiver reports them.
final class RealisticTimeline: PhoneTimeline {
  let truth: any PhoneTimeline
  var receiver: GNSSReceiver
  let epochs: (@Sendable (ReceiverEpoch) -> Void)?

  init(truth: any PhoneTimeline, receiver: GNSSReceiver, epochs: (@Sendable (ReceiverEpoch) -> Void)?) {
    self.truth = truth
    self.receiver = receiver
    self.epochs = epochs
  }

  func next() throws -> (at: Duration, fix: LocationFix)? {
    guard let (at, fix) = try truth.next() else { return nil }
    return (at, receiver.measureFix(fix, epochs: epochs))
  }

  func close() { truth.close() }
}

/// A live source's fixes as a receiver reports them.
struct RealisticSource: LocationSource {
  let truth: any LocationSource
  let options: GNSSReceiver.Options
  let epochs: (@Sendable (ReceiverEpoch) -> Void)?

  struct AsyncIterator: AsyncIteratorProtocol {
    var truth: any AsyncIteratorProtocol<LocationFix, any Error>
    var receiver: GNSSReceiver
    let epochs: (@Sendable (ReceiverEpoch) -> Void)?

    mutating func next() async throws -> LocationFix? {
      guard let fix = try await truth.next(isolation: nil) else { return nil }
      return receiver.measureFix(fix, epochs: epochs)
    }
  }

  func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(truth: truth.makeAsyncIterator(), receiver: GNSSReceiver(options: options), epochs: epochs)
  }
}

/// One fix of a ``PhoneSource/script(_:)``.
public struct ScriptedFix: Sendable, Hashable {
  /// Time since the source started.
  public var at: Duration
  public var fix: LocationFix

  public init(at: Duration, fix: LocationFix) {
    self.at = at
    self.fix = fix
  }

  /// A 2D fix at `coordinate`.
  public init(at: Duration, _ coordinate: Coordinate, horizontalAccuracy: Double? = 5, speed: Double? = nil, course: Double? = nil) {
    self.init(
      at: at, fix: LocationFix(mode: .twoD, coordinate: coordinate, speed: speed, course: course, horizontalAccuracy: horizontalAccuracy))
  }

  /// A no-fix report (a receiver that lost the sky).
  public static func noFix(at: Duration) -> ScriptedFix { ScriptedFix(at: at, fix: LocationFix(mode: .noFix)) }
}

/// A source the phone paces itself: the next fix and its time since the source started. A class:
/// the phone advances it in place, under its lock, without copying its state for every fix.
protocol PhoneTimeline: AnyObject {
  func next() throws -> (at: Duration, fix: LocationFix)?
  func close()
}

final class FixedTimeline: PhoneTimeline {
  let fix: LocationFix
  let interval: Duration
  let count: Int?
  let start: Date
  var delivered = 0

  init(fix: LocationFix, interval: Duration, count: Int?, start: Date) {
    self.fix = fix
    self.interval = interval
    self.count = count
    self.start = start
  }

  func next() -> (at: Duration, fix: LocationFix)? {
    if let count, delivered >= count { return nil }
    let at = interval * delivered
    delivered += 1
    var fix = self.fix
    fix.timestamp = start.addingTimeInterval(at.seconds)
    return (at, fix)
  }

  func close() { delivered = count ?? Int.max }
}

final class ScriptTimeline: PhoneTimeline {
  let fixes: [ScriptedFix]
  let start: Date
  var index = 0

  init(fixes: [ScriptedFix], start: Date) {
    self.fixes = fixes
    self.start = start
  }

  func next() -> (at: Duration, fix: LocationFix)? {
    guard index < fixes.count else { return nil }
    defer { index += 1 }
    var fix = fixes[index].fix
    if fix.timestamp == nil { fix.timestamp = start.addingTimeInterval(fixes[index].at.seconds) }
    return (fixes[index].at, fix)
  }

  func close() { index = fixes.count }
}

final class ReplayTimeline: PhoneTimeline {
  var cursor: TraceReplayCursor

  init(cursor: TraceReplayCursor) { self.cursor = cursor }

  func next() throws -> (at: Duration, fix: LocationFix)? {
    guard let step = try cursor.next() else { return nil }
    return (step.scheduled, step.fix)
  }

  func close() { cursor.close() }
}
