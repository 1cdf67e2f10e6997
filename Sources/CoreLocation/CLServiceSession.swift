import Emulator
import Foundation
import Geo
import LocationModel

/// The app's declared need for location (iOS 18): made with an authorization requirement, it
/// asks for that authorization as iOS does (when in use, or Always, from the foreground; full
/// accuracy for a while with a purpose key), and says through ``diagnostics`` what stands in
/// the way, until ``invalidate()``.
public final class CLServiceSession: Sendable {
  /// The authorization the session needs.
  public enum AuthorizationRequirement: Equatable, Hashable, Sendable {
    /// None sought: the session only counts as a session (with authorization already granted).
    case none
    /// Authorization when the app is in use.
    case whenInUse
    /// Always authorization, in the background too.
    case always
  }

  /// What stands in the way of the session, at one moment.
  public struct Diagnostic: Sendable {
    let flags: LocationDiagnostics
    /// The app or Location Services (system-wide) are denied.
    public var authorizationDenied: Bool { flags.authorizationDenied }
    /// Location Services are off.
    public var authorizationDeniedGlobally: Bool { flags.authorizationDeniedGlobally }
    /// The app's authorization is restricted (by parental controls or a profile on iOS).
    public var authorizationRestricted: Bool { flags.authorizationRestricted }
    /// The app, authorized when in use, is not in use (in the background, with no session).
    public var insufficientlyInUse: Bool { flags.insufficientlyInUse }
    /// The app requires explicit service sessions and holds none (never on the emulator, which reads no Info.plist).
    public var serviceSessionRequired: Bool { flags.serviceSessionRequired }
    /// Full accuracy was asked for (a purpose key) and the app has approximate location.
    public var fullAccuracyDenied: Bool { flags.fullAccuracyDenied }
    /// Always was required and the app has less.
    public var alwaysAuthorizationDenied: Bool { flags.alwaysAuthorizationDenied }
    /// The permission prompt is on screen.
    public var authorizationRequestInProgress: Bool { flags.authorizationRequestInProgress }
    /// The app has approximate location only.
    public var accuracyLimited: Bool { flags.accuracyLimited }
  }

  /// The diagnostics from now on: the current one, then one per change, until the session is
  /// invalidated.
  public final class Diagnostics: AsyncSequence, Sendable {
    /// Each element is one diagnostic.
    public typealias Element = Diagnostic
    private let source: DiagnosticSource

    init(_ source: DiagnosticSource) { self.source = source }

    /// Starts an iteration: the current diagnostic first, then one per change.
    /// - Returns: A new iterator.
    public func makeAsyncIterator() -> Iterator { Iterator(feed: source.feed()) }

    /// Iterates over a session's diagnostics.
    public struct Iterator: AsyncIteratorProtocol {
      let feed: DiagnosticFeed
      /// Waits for the next diagnostic.
      /// - Returns: The next diagnostic, or nil once the session is invalidated.
      /// - Throws: Never here (declared `throws` as in the SDK).
      public mutating func next() async throws -> Diagnostic? { await feed.subscription.next().map(Diagnostic.init(flags:)) }
    }
  }

  private let source: DiagnosticSource

  /// A session on the phone of the code running now; asks for `authorization` when the app
  /// has less and may be asked.
  public convenience init(authorization: AuthorizationRequirement) {
    self.init(authorization: authorization, purposeKey: nil)
  }

  /// A session that also asks for full accuracy for a while, with the purpose string of
  /// `fullAccuracyPurposeKey` (see `requestTemporaryFullAccuracyAuthorization(withPurposeKey:)`).
  public convenience init(authorization: AuthorizationRequirement, fullAccuracyPurposeKey: String) {
    self.init(authorization: authorization, purposeKey: fullAccuracyPurposeKey)
  }

  private init(authorization: AuthorizationRequirement, purposeKey: String?) {
    let bound = BoundPhone.current
    source = DiagnosticSource(bound: bound, requirement: authorization, fullAccuracy: purposeKey != nil)
    let now = bound.phone.state
    let mayAsk = now.servicesEnabled && now.app == .foreground && !now.promptShown
    switch authorization {
    case .whenInUse where now.appStatus == .notDetermined && mayAsk:
      bound.requestAuthorization(always: false)
    case .always where (now.appStatus == .notDetermined || now.appStatus == .authorizedWhenInUse) && mayAsk:
      bound.requestAuthorization(always: true)
    default: break
    }
    if let purposeKey, now.accuracy == .reduced, now.app == .foreground, !purposeKey.isEmpty {
      TemporaryFullAccuracy.request(on: bound)
    }
  }

  deinit { source.invalidate() }

  /// What stands in the way of the session: the current diagnostic, then one per change, until invalidated.
  public var diagnostics: Diagnostics { Diagnostics(source) }

  /// Ends the session: its diagnostics sequences finish.
  public func invalidate() { source.invalidate() }
}

/// The app keeps using location in the background (iOS 17): made in the foreground, it lets an
/// app authorized when in use have its locations (live updates, a manager's) after it leaves
/// the foreground, as the blue indicator does on iOS, until ``invalidate()`` or it goes away.
public final class CLBackgroundActivitySession: Sendable {
  /// What stands in the way of the session, at one moment.
  public struct Diagnostic: Sendable {
    let flags: LocationDiagnostics
    /// The app or Location Services (system-wide) are denied.
    public var authorizationDenied: Bool { flags.authorizationDenied }
    /// Location Services are off.
    public var authorizationDeniedGlobally: Bool { flags.authorizationDeniedGlobally }
    /// The app's authorization is restricted (by parental controls or a profile on iOS).
    public var authorizationRestricted: Bool { flags.authorizationRestricted }
    /// The app, authorized when in use, is not in use (in the background, with no session).
    public var insufficientlyInUse: Bool { flags.insufficientlyInUse }
    /// The app requires explicit service sessions and holds none (never on the emulator, which reads no Info.plist).
    public var serviceSessionRequired: Bool { flags.serviceSessionRequired }
    /// The permission prompt is on screen.
    public var authorizationRequestInProgress: Bool { flags.authorizationRequestInProgress }
  }

  /// The diagnostics from now on: the current one, then one per change, until invalidated.
  public final class Diagnostics: AsyncSequence, Sendable {
    /// Each element is one diagnostic.
    public typealias Element = Diagnostic
    private let source: DiagnosticSource

    init(_ source: DiagnosticSource) { self.source = source }

    /// Starts an iteration: the current diagnostic first, then one per change.
    /// - Returns: A new iterator.
    public func makeAsyncIterator() -> Iterator { Iterator(feed: source.feed()) }

    /// Iterates over a session's diagnostics.
    public struct Iterator: AsyncIteratorProtocol {
      let feed: DiagnosticFeed
      /// Waits for the next diagnostic.
      /// - Returns: The next diagnostic, or nil once the session is invalidated.
      /// - Throws: Never here (declared `throws` as in the SDK).
      public mutating func next() async throws -> Diagnostic? { await feed.subscription.next().map(Diagnostic.init(flags:)) }
    }
  }

  private let source: DiagnosticSource
  private let held: Locked<BackgroundUse?>

  /// A session on the phone of the code running now; it holds the background only when made
  /// with the app in the foreground, as on iOS.
  public init() {
    let bound = BoundPhone.current
    source = DiagnosticSource(bound: bound, requirement: .none, fullAccuracy: false)
    if bound.phone.state.app == .foreground {
      let use = BackgroundUse.of(bound.phone)
      use.acquire()
      held = Locked(use)
    } else {
      held = Locked(nil)
    }
  }

  deinit { invalidate() }

  /// What stands in the way of the session: the current diagnostic, then one per change, until invalidated.
  public var diagnostics: Diagnostics { Diagnostics(source) }

  /// Ends the session: the app no longer keeps its locations in the background.
  public func invalidate() {
    let use = held.withLock { h in
      defer { h = nil }
      return h
    }
    use?.release()
    source.invalidate()
  }
}

/// The diagnostics of a session: one feed per iteration, all finished when the session ends.
final class DiagnosticSource: Sendable {
  let bound: BoundPhone
  let requirement: CLServiceSession.AuthorizationRequirement
  let fullAccuracy: Bool
  private let feeds = Locked<(list: [WeakFeed], invalid: Bool)>(([], false))

  private struct WeakFeed {
    weak var feed: DiagnosticFeed?
  }

  init(bound: BoundPhone, requirement: CLServiceSession.AuthorizationRequirement, fullAccuracy: Bool) {
    self.bound = bound
    self.requirement = requirement
    self.fullAccuracy = fullAccuracy
  }

  /// The session's diagnostics in `state`.
  func diagnostics(_ state: PermissionState) -> LocationDiagnostics {
    var flags = LocationDiagnostics(state)
    flags.fullAccuracyDenied = fullAccuracy && state.accuracy == .reduced
    flags.alwaysAuthorizationDenied = requirement == .always && state.appStatus != .authorizedAlways && state.appStatus != .notDetermined
    return flags
  }

  func feed() -> DiagnosticFeed {
    let feed = DiagnosticFeed(source: self)
    let invalid = feeds.withLock { f -> Bool in
      f.list.removeAll { $0.feed == nil }
      if !f.invalid { f.list.append(WeakFeed(feed: feed)) }
      return f.invalid
    }
    if invalid { feed.subscription.finish() } else { feed.start() }
    return feed
  }

  func invalidate() {
    let list = feeds.withLock { f -> [WeakFeed] in
      f.invalid = true
      defer { f.list = [] }
      return f.list
    }
    for entry in list { entry.feed?.subscription.finish() }
  }
}

/// One iteration of a session's diagnostics: the current one, then one per change.
final class DiagnosticFeed: Sendable {
  let subscription: PhoneSubscription<LocationDiagnostics>
  private let source: DiagnosticSource
  private let state = Locked<(observation: PhoneObservation?, last: LocationDiagnostics?)>((nil, nil))

  init(source: DiagnosticSource) {
    self.source = source
    subscription = PhoneSubscription(clock: source.bound.clock, limit: 64)
  }

  func start() {
    let phone = source.bound.phone
    let observation = phone.observe(.stateChanged) { [weak self] event in
      if case .stateChanged(_, let to) = event { self?.report(to) }
    }
    state.withLock { $0.observation = observation }
    subscription.whenEnded { [weak self] in self?.stop() }
    report(phone.state)
  }

  deinit { stop() }

  private func stop() {
    let observation = state.withLock { s in
      defer { s.observation = nil }
      return s.observation
    }
    observation?.cancel()
  }

  private func report(_ permission: PermissionState) {
    let flags = source.diagnostics(permission)
    let send = state.withLock { s -> Bool in
      guard s.last != flags else { return false }
      s.last = flags
      return true
    }
    if send { subscription.deliver(flags) }
  }
}
