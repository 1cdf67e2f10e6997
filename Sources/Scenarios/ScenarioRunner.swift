public import Foundation
public import Emulator
import Geo
public import LocationModel
public import PermissionHandling

/// One line of a scenario transcript: `{"t":1.500,"event":"…",…}`.
public struct TranscriptLine: Sendable, Hashable {
  /// Time since the start of the scenario on its clock.
  public var t: Duration
  public var event: String
  /// Further members, in order, with JSON-encoded values.
  public var members: [Member]

  public struct Member: Sendable, Hashable {
    public var name: String
    public var json: String
  }

  public init(t: Duration, event: String, members: [Member] = []) {
    self.t = t
    self.event = event
    self.members = members
  }

  /// The member's JSON value, if present.
  public subscript(name: String) -> String? { members.first { $0.name == name }?.json }

  /// The line as one JSON object.
  public var json: String {
    var out = "{\"t\":\(FixRecord.fixed(t.seconds, 3)),\"event\":\(JSONText.quoted(event))"
    for m in members { out += ",\(JSONText.quoted(m.name)):\(m.json)" }
    return out + "}"
  }
}

extension TranscriptLine.Member {
  public static func raw(_ name: String, json: String) -> Self { .init(name: name, json: json) }
  public static func string(_ name: String, _ value: String) -> Self { .init(name: name, json: JSONText.quoted(value)) }
  public static func bool(_ name: String, _ value: Bool) -> Self { .init(name: name, json: value ? "true" : "false") }
  public static func seconds(_ name: String, _ value: Duration) -> Self { .init(name: name, json: FixRecord.fixed(value.seconds, 3)) }
  /// A fix as a JSON object (the fix-record members), or null.
  public static func fix(_ name: String, _ fix: LocationFix?) -> Self { .init(name: name, json: fix.map { FixRecord.json($0) } ?? "null") }

  /// The fix-record members of `fix`, one by one.
  public static func members(of fix: LocationFix) -> [Self] {
    let object = FixRecord.json(fix)
    // FixRecord writes flat members whose values contain no commas or braces.
    return object.dropFirst().dropLast().split(separator: ",").compactMap { pair in
      guard let colon = pair.firstIndex(of: ":") else { return nil }
      return Self(
        name: String(pair[pair.index(pair.startIndex, offsetBy: 1)..<pair.index(before: colon)]),
        json: String(pair[pair.index(after: colon)...]))
    }
  }

  public static func state(_ s: PermissionState) -> [Self] {
    [
      .string("status", s.status.rawValue), .string("services", s.servicesEnabled ? "on" : "off"),
      .string("accuracy", s.accuracy.rawValue), .string("app", s.app.rawValue),
    ]
  }
}

/// What a scenario drives beyond the permission system (the map features): started once the
/// handler observes, told of every scenario event after the runner's line for it (on the
/// phone's clock, synchronously), stopped before the `end` line. It reports through `emit`
/// (event name and members), on the runner's timeline.
public protocol ScenarioApp: Sendable {
  func start(emit: @escaping @Sendable (String, [TranscriptLine.Member]) -> Void) async
  func handle(_ event: ScenarioEvent)
  func stop() async
}

/// Runs a `Scenario` on an `EmulatedPhone` and a `LocationPermissionHandler`, and reports
/// everything as transcript lines, in the phone's order.
///
/// The scenario's steps are timers on the phone's clock, set before the source starts, so at
/// any instant a step comes before the source's fix. The app's calls (`authorize`, `request`,
/// `locate`) are tasks the clock runs one at a time. On a virtual clock the whole run is a
/// function of the scenario: the same transcript every time.
///
/// Lines: `start` and `end` (the state), one per scenario event (the state it produced),
/// `prompt`/`promptAnswered`/`promptDismissed`/`allowOnceExpired` from the operating system,
/// `statusChange` from the handler's observer, `fix` for every fix the app's continuous stream
/// got, and `authorizeResult`, `requestResult`, `locateResult` when the app's calls return
/// (`result`: a fix record or null). Calls still waiting at the end are cancelled and report
/// before the `end` line.
public final class ScenarioRunner: Sendable {
  public let scenario: Scenario
  public let phone: EmulatedPhone
  public let handler: LocationPermissionHandler
  public var clock: EmulatorClock { phone.clock }
  /// Whether `fix` lines are written for the fixes the app's stream gets.
  public let reportFixes: Bool
  private let emit: @Sendable (TranscriptLine) -> Void
  private let app = Locked<(any ScenarioApp)?>(nil)
  /// The app's calls, by number; finished ones are pruned as new ones come (a served phone
  /// takes calls for as long as it lives).
  private let calls = Locked<(next: UInt64, tasks: [UInt64: ClockTask<Void>])>((0, [:]))
  private let observation = Locked<PhoneObservation?>(nil)

  /// - Parameters:
  ///   - scenario: the timeline of events to run, with the permission state it starts from.
  ///   - source: where the phone's positions come from (started when the run starts).
  ///   - clock: a virtual clock (instant, deterministic) or a real-time one.
  ///   - requestTimeout: how long a one-shot location request waits for a fix.
  ///   - reducedAccuracy: what reduced accuracy does to the phone's locations.
  ///   - reportFixes: whether `fix` lines are written for the fixes the app's stream gets.
  ///   - startDate: the phone's date at the start (fixed and scripted fixes are stamped from it).
  ///   - emit: called with every transcript line, in the phone's order.
  public init(
    scenario: Scenario, source: PhoneSource, clock: EmulatorClock, requestTimeout: Duration = .seconds(10),
    reducedAccuracy: ReducedAccuracy = ReducedAccuracy(), reportFixes: Bool = true,
    startDate: Date = EmulatedPhone.Configuration.defaultStartDate, emit: @escaping @Sendable (TranscriptLine) -> Void
  ) {
    self.scenario = scenario
    self.reportFixes = reportFixes
    self.emit = emit
    phone = EmulatedPhone(
      EmulatedPhone.Configuration(
        name: "scenario", permission: scenario.initial, promptAnswer: scenario.promptAnswer,
        promptDelay: .milliseconds(Int64((scenario.promptDelay * 1000).rounded())), requestTimeout: requestTimeout,
        reducedAccuracy: reducedAccuracy, source: source, startDate: startDate, startsSource: false),
      clock: clock)
    handler = LocationPermissionHandler(service: phone.service)
  }

  private func line(_ event: String, _ members: [TranscriptLine.Member] = []) {
    emit(TranscriptLine(t: phone.elapsed, event: event, members: members))
  }

  /// Runs the scenario's timeline, and `control`'s events (applied as they arrive, on a
  /// real-time clock) until it ends; stops at `Scenario.end` (or when `control` ends, if later).
  ///
  /// With an `app`, the app is started after the handler observes and before the first event,
  /// handles every event after the runner, and is stopped before the `end` line.
  ///
  /// - Throws: `EmulatorClockError` when the virtual clock stalls (a task of the app awaited
  ///   something other than the phone).
  public func run(control: AsyncStream<ScenarioEvent>? = nil, app: (any ScenarioApp)? = nil) async throws(EmulatorClockError) {
    let start = phone.startedAt
    await begin(app: app, startSource: false)
    // The steps, then the end, then the source: at any instant, a step comes before the
    // source's fix, and the source stops at the end before a fix due then.
    for step in scenario.steps {
      clock.schedule(at: start.advanced(by: .milliseconds(Int64((step.at * 1000).rounded())))) { [weak self] in
        self?.apply(step.event)
      }
    }
    let end = start.advanced(by: .milliseconds(Int64((scenario.end * 1000).rounded())))
    // With a control stream on real time the run ends when both the timeline and the stream
    // have, and the source keeps delivering until then: a control stream's events come when a
    // test or a script sends them, however late, and each finds the phone as it was.
    let sourceStopsAtEnd = clock.isVirtual || control == nil
    if sourceStopsAtEnd { clock.schedule(at: end) { [phone] in phone.stopSource() } }
    phone.startSource()
    var failure: EmulatorClockError?
    if clock.isVirtual {
      do {
        try await clock.advance(to: end)
      } catch {
        failure = error
      }
    } else {
      let controlTask = control.map { control in
        Task {
          for await event in control { self.apply(event) }
        }
      }
      try? await clock.sleep(until: end)
      if let controlTask { await controlTask.value }
      if !sourceStopsAtEnd { phone.stopSource() }
    }
    do {
      try await finish()
    } catch {
      failure = failure ?? error
    }
    if let failure { throw failure }
  }

  /// Starts reporting without a timeline of its own: the `start` line, the phone's and the
  /// handler's observers, the `app`, and (unless told not to) the source. Events then come
  /// through ``apply(_:)`` — from an HTTP request, a control stream — until ``finish()``.
  /// (``run(control:app:)`` is `begin`, the scenario's steps, and `finish` at its end.)
  public func begin(app: (any ScenarioApp)? = nil, startSource: Bool = true) async {
    self.app.withLock { $0 = app }
    line("start", TranscriptLine.Member.state(phone.state))
    let observation = phone.observe([.permission, .applied, .location]) { [weak self] event in self?.phoneEvent(event) }
    self.observation.withLock { $0 = observation }
    await handler.startObservingLocationPermissionChanges { [weak self] change in
      var members: [TranscriptLine.Member] = [
        .string("status", change.status.rawValue), .bool("authorized", change.isAuthorized),
        .bool("didBecomeAuthorized", change.didBecomeAuthorized),
      ]
      if let reason = change.reason { members.append(.string("reason", reason.rawValue)) }
      self?.line("statusChange", members)
    }
    await app?.start(emit: { [weak self] event, members in self?.line(event, members) })
    if startSource { phone.startSource() }
  }

  /// Ends what ``begin(app:startSource:)`` started: the app stops, observers go, calls still
  /// waiting (a prompt never answered, a request for a fix) are cancelled and report, then
  /// the `end` line.
  /// - Throws: `EmulatorClockError` when the virtual clock stalls while they finish.
  public func finish() async throws(EmulatorClockError) {
    await app.withLock { $0 }?.stop()
    handler.stopObservingLocationPermissionChanges()
    observation.withLock { observation in
      observation?.cancel()
      observation = nil
    }
    let pending = calls.withLock { Array($0.tasks.values) }
    for task in pending { task.cancel() }
    var failure: EmulatorClockError?
    if clock.isVirtual {
      do {
        try await clock.runUntilIdle()
      } catch {
        failure = error
      }
    } else {
      for task in pending { _ = try? await task.value }
    }
    line("end", TranscriptLine.Member.state(phone.state))
    if let failure { throw failure }
  }

  /// Applies one event now (on the clock's loop, or from a control thread).
  public func apply(_ event: ScenarioEvent) {
    // Settings and inputs: the phone applies them, and its `applied` event writes the line.
    if phone.apply(event) { return }
    line(event.description, TranscriptLine.Member.state(phone.state))
    app.withLock { $0 }?.handle(event)
    switch event {
    case .authorize:
      call("authorize") {
        let status = await self.phone.requestWhenInUseAuthorization()
        self.line("authorizeResult", [.string("status", status.rawValue)])
      }
    case .authorizeAlways:
      call("authorizeAlways") {
        let status = await self.phone.requestAlwaysAuthorization()
        self.line("authorizeResult", [.string("status", status.rawValue)])
      }
    case .request:
      call("request") {
        let result = await self.phone.requestLocationResult()
        self.line("requestResult", [.fix("result", result.fix)])
      }
    case .locate:
      call("locate") {
        let result = await self.handler.requestLocationWithPermissions()
        var members: [TranscriptLine.Member] = [.string("status", result.status.rawValue)]
        if let reason = result.reason { members.append(.string("reason", reason.rawValue)) }
        members.append(.fix("result", result.fix))
        self.line("locateResult", members)
      }
    default: break
    }
  }

  private func call(_ name: String, _ body: @escaping @Sendable () async -> Void) {
    let task = phone.start(name, body)
    let snapshot = calls.withLock { calls in
      calls.tasks[calls.next] = task
      calls.next += 1
      return calls.tasks.count > 32 ? calls.tasks : [:]
    }
    // Outside the lock: a task's state is the clock's.
    let finished = snapshot.filter { $0.value.isFinished }.map(\.key)
    if !finished.isEmpty { calls.withLock { calls in for key in finished { calls.tasks[key] = nil } } }
  }

  private func phoneEvent(_ event: PhoneEvent) {
    switch event {
    case .permission(.promptShown(let answer, let delay)):
      line("prompt", [.string("answer", answer.rawValue)] + (answer == .none ? [] : [.seconds("delay", delay)]))
    case .permission(.promptAnswered(let answer, let status)):
      line("promptAnswered", [.string("answer", answer.rawValue), .string("status", status.rawValue)])
    case .permission(.promptDismissed(let status)):
      line("promptDismissed", [.string("status", status.rawValue)])
    case .permission(.allowOnceExpired):
      line("allowOnceExpired", [.string("status", LocationPermissionStatus.notDetermined.rawValue)])
    case .applied(let applied, let state):
      line(applied.description, TranscriptLine.Member.state(state))
      app.withLock { $0 }?.handle(applied)
    case .location(let fix):
      if reportFixes { line("fix", TranscriptLine.Member.members(of: fix)) }
    case .stateChanged, .sourceFix, .sourceEnded:
      break
    }
  }
}
