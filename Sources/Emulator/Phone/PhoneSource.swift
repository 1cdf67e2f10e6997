public import Foundation
public import Geo
public import LocationModel

/// Where an ``EmulatedPhone``'s positions come from.
///
/// Timeline sources (``fixed(_:horizontalAccuracy:altitude:interval:count:)``, ``script(_:)``,
/// any ``timeline(_:)``; the `PhoneSources` module adds trace files and a realistic receiver)
/// are paced by the phone's own timers on its clock, one fix ahead: on a virtual clock a whole walk replays in order, instantly,
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
  /// - Parameters:
  ///   - coordinate: where the device stands.
  ///   - horizontalAccuracy: each fix's horizontal accuracy, in metres (nil: none).
  ///   - altitude: each fix's altitude above mean sea level, in metres (nil: a 2D fix).
  ///   - interval: the time between fixes.
  ///   - count: how many fixes (nil: no end).
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

  /// Fixes at given times, delivered exactly as given (a fix without a timestamp stays without):
  /// a replay worked out beforehand.
  package static func scheduled(_ fixes: [ScriptedFix]) -> PhoneSource {
    PhoneSource(kind: .timeline { _ in ScriptTimeline(fixes: fixes, start: nil) })
  }

  /// A timeline of your own: `make` is called when the phone starts the source, with the
  /// phone's start date, and the phone asks the timeline for one fix ahead of the clock.
  public static func timeline(_ make: @escaping @Sendable (_ startDate: Date) throws -> any PhoneTimeline) -> PhoneSource {
    PhoneSource(kind: .timeline(make))
  }

  /// Any `LocationSource` (a `GPSDSource`, say), read while the phone's `run()` runs.
  public static func live(_ source: any LocationSource) -> PhoneSource { PhoneSource(kind: .live(source)) }

  /// The timeline a phone would play from this source, to step yourself, as fast as you read
  /// it (a receiver simulated offline, a look at what a phone will get): each fix with its
  /// time since the start, stamped from `startDate` as the phone stamps it. Nil for ``none``
  /// and for a ``live(_:)`` source, which has no timeline (read the `LocationSource`). Close
  /// it when done (a trace's file stays open until then).
  public func makeTimeline(startDate: Date) throws -> (any PhoneTimeline)? {
    guard case .timeline(let make) = kind else { return nil }
    return try make(startDate)
  }

  /// This source's fixes through `makeTransform()`'s function: one function is made each time
  /// the source starts (so it may keep state, such as a receiver model's), and every fix
  /// (no-fix reports included) goes through it, in order. A timeline's fixes are transformed
  /// under the phone's lock, one ahead of the clock: keep the function short and do not call
  /// into the phone from it.
  public func transformed(
    _ makeTransform: @escaping @Sendable () -> (LocationFix) -> LocationFix
  ) -> PhoneSource {
    switch kind {
    case .none:
      return self
    case .timeline(let make):
      return PhoneSource(kind: .timeline { start in TransformedTimeline(truth: try make(start), transform: makeTransform()) })
    case .live(let source):
      return PhoneSource(kind: .live(TransformedSource(truth: source, makeTransform: makeTransform)))
    }
  }
}

/// A timeline's fixes through a function.
final class TransformedTimeline: PhoneTimeline {
  let truth: any PhoneTimeline
  let transform: (LocationFix) -> LocationFix

  init(truth: any PhoneTimeline, transform: @escaping (LocationFix) -> LocationFix) {
    self.truth = truth
    self.transform = transform
  }

  func next() throws -> (at: Duration, fix: LocationFix)? {
    guard let (at, fix) = try truth.next() else { return nil }
    return (at, transform(fix))
  }

  func close() { truth.close() }
}

/// A live source's fixes through a function.
struct TransformedSource: LocationSource {
  let truth: any LocationSource
  let makeTransform: @Sendable () -> (LocationFix) -> LocationFix

  struct AsyncIterator: AsyncIteratorProtocol {
    var truth: any AsyncIteratorProtocol<LocationFix, any Error>
    let transform: (LocationFix) -> LocationFix

    mutating func next() async throws -> LocationFix? {
      guard let fix = try await truth.next(isolation: nil) else { return nil }
      return transform(fix)
    }
  }

  func makeAsyncIterator() -> AsyncIterator { AsyncIterator(truth: truth.makeAsyncIterator(), transform: makeTransform()) }
}

/// One fix of a ``PhoneSource/script(_:)``.
public struct ScriptedFix: Sendable, Hashable {
  /// Time since the source started.
  public var at: Duration
  /// The fix the source reports then.
  public var fix: LocationFix

  /// A fix at a time since the source started.
  /// - Parameters:
  ///   - at: the time since the source started.
  ///   - fix: the fix to report then.
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

/// A source the phone paces itself (``PhoneSource/timeline(_:)``): the next fix and its time
/// since the source started. A class: the phone advances it in place, under its lock, without
/// copying its state for every fix; it is called from one thread at a time.
public protocol PhoneTimeline: AnyObject {
  /// The next fix and when it is due, as time since the source started (times must not
  /// decrease), or nil at the end. An error ends the source with it.
  func next() throws -> (at: Duration, fix: LocationFix)?
  /// The phone stops the source: `next()` is not called again.
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

/// A phone's place in a list of fixes (a script, a shared replay schedule): an index into it.
final class ScriptTimeline: PhoneTimeline {
  let fixes: [ScriptedFix]
  /// The date a fix without a timestamp is stamped from (its time added); nil: left unstamped.
  let start: Date?
  var index = 0

  init(fixes: [ScriptedFix], start: Date?) {
    self.fixes = fixes
    self.start = start
  }

  func next() -> (at: Duration, fix: LocationFix)? {
    var fix: LocationFix?
    guard let at = next(into: &fix), let fix else { return nil }
    return (at, fix)
  }

  /// ``next()`` written straight into `slot` (the phone's pending fix): a fix is 160 bytes, and
  /// its copies on the way from a replay to the phone (the tuple returned, the pending slot
  /// set from it) were a few per cent of a fleet's time.
  /// - Returns: when the fix is due; nil at the end (`slot` untouched).
  func next(into slot: inout LocationFix?) -> Duration? {
    guard index < fixes.count else { return nil }
    let at = fixes[index].at
    slot = fixes[index].fix
    index += 1
    if let start, slot!.timestamp == nil { slot!.timestamp = start.addingTimeInterval(at.seconds) }
    return at
  }

  func close() { index = fixes.count }
}
