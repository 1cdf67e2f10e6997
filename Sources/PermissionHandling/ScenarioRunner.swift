public import Emulator
public import Geo

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
      return Self(name: String(pair[pair.index(pair.startIndex, offsetBy: 1)..<pair.index(before: colon)]), json: String(pair[pair.index(after: colon)...]))
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
/// handler observes, told of every scenario event after the runner applied it, stopped before
/// the `end` line. It reports through `emit` (event name and members), on the runner's timeline.
public protocol ScenarioApp: Sendable {
  func start(emit: @escaping @Sendable (String, [TranscriptLine.Member]) -> Void) async
  func handle(_ event: ScenarioEvent) async
  func stop() async
}

/// Runs a ``Scenario`` against a ``PermissionEmulator``, a ``LocationService`` and a
/// ``LocationPermissionHandler`` on one clock, and reports everything as transcript lines.
///
/// Lines: `start` and `end` (the state), one per scenario event (the state it produced),
/// `prompt`/`promptAnswered`/`promptDismissed`/`allowOnceExpired` from the emulator,
/// `statusChange` from the handler's observer, `fix` for every fix `locations()`
/// delivered, and `authorizeResult`, `requestResult`, `locateResult` when the
/// app's calls return (`result`: a fix record or null).
public final class ScenarioRunner<C: Clock>: Sendable where C.Duration == Duration {
  public let scenario: Scenario
  public let emulator: PermissionEmulator<C>
  public let service: LocationService<C>
  public let handler: LocationPermissionHandler
  public let clock: C
  private let emit: @Sendable (TranscriptLine) -> Void
  private let origin: Locked<C.Instant?> = Locked(nil)
  private let calls = Locked<[Task<Void, Never>]>([])
  private let app = Locked<(any ScenarioApp)?>(nil)
  /// Whether `fix` lines are written for the fixes `locations()` delivers.
  public let reportFixes: Bool

  public init(
    scenario: Scenario, source: any LocationSource, clock: C, requestTimeout: Duration = .seconds(10),
    reducedAccuracy: ReducedAccuracy = ReducedAccuracy(), reportFixes: Bool = true,
    emit: @escaping @Sendable (TranscriptLine) -> Void
  ) {
    self.reportFixes = reportFixes
    self.scenario = scenario
    self.clock = clock
    self.emit = emit
    let relay = Locked<(@Sendable (PermissionEvent) -> Void)?>(nil)
    emulator = PermissionEmulator(
      initial: scenario.initial, promptAnswer: scenario.promptAnswer,
      promptDelay: .milliseconds(Int64((scenario.promptDelay * 1000).rounded())), clock: clock,
      onEvent: { event in relay.withLock { $0 }?(event) })
    service = LocationService(emulator: emulator, source: source, requestTimeout: requestTimeout, reducedAccuracy: reducedAccuracy)
    handler = LocationPermissionHandler(service: service, lifecycle: emulator)
    relay.withLock { $0 = { [weak self] event in self?.emulatorEvent(event) } }
  }

  private var elapsed: Duration {
    let now = clock.now
    let start = origin.withLock { origin in
      if origin == nil { origin = now }
      return origin!
    }
    return start.duration(to: now)
  }

  private func line(_ event: String, _ members: [TranscriptLine.Member] = []) {
    emit(TranscriptLine(t: elapsed, event: event, members: members))
  }

  /// Runs the scenario's timeline, then `control`'s events (applied when they arrive) until it ends,
  /// and stops at ``Scenario/end`` (or when `control` ends, if later).
  ///
  /// With an `app`, the app is started after the handler observes and before the first event,
  /// handles every event after the runner, and is stopped before the `end` line.
  public func run(control: AsyncStream<ScenarioEvent>? = nil, app: (any ScenarioApp)? = nil) async {
    self.app.withLock { $0 = app }
    let start = clock.now
    origin.withLock { $0 = start }
    line("start", TranscriptLine.Member.state(emulator.state))
    await handler.startObservingLocationPermissionChanges { [weak self] change in
      var members: [TranscriptLine.Member] = [
        .string("status", change.status.rawValue), .bool("authorized", change.isAuthorized),
        .bool("didBecomeAuthorized", change.didBecomeAuthorized),
      ]
      if let reason = change.reason { members.append(.string("reason", reason.rawValue)) }
      self?.line("statusChange", members)
    }
    let fixes = await service.locations()
    let fixTask = Task {
      for await fix in fixes where self.reportFixes { self.line("fix", TranscriptLine.Member.members(of: fix)) }
    }
    await app?.start(emit: { [weak self] event, members in self?.line(event, members) })
    let controlTask = control.map { control in
      Task {
        for await event in control { await self.apply(event) }
      }
    }
    for step in scenario.steps {
      do {
        try await clock.sleep(until: start.advanced(by: .milliseconds(Int64((step.at * 1000).rounded()))), tolerance: nil)
      } catch {
        break
      }
      await apply(step.event)
    }
    try? await clock.sleep(until: start.advanced(by: .milliseconds(Int64((scenario.end * 1000).rounded()))), tolerance: nil)
    if let controlTask { await controlTask.value }
    await app?.stop()
    await handler.stopObservingLocationPermissionChanges()
    fixTask.cancel()
    // Calls still waiting (a prompt never answered, a request for a fix) end now, before the end line.
    let pending = calls.withLock { $0 }
    for task in pending { task.cancel() }
    for task in pending { await task.value }
    line("end", TranscriptLine.Member.state(emulator.state))
  }

  /// Applies one event now.
  public func apply(_ event: ScenarioEvent) async {
    switch event {
    case .permission(let status): await emulator.setAuthorization(status)
    case .services(let on): await emulator.setServicesEnabled(on)
    case .accuracy(let accuracy): await emulator.setAccuracy(accuracy)
    case .background: await emulator.setAppState(.background)
    case .foreground: await emulator.setAppState(.foreground)
    case .fix(let available): await service.setSourcePaused(!available)
    case .answer(let answer): await emulator.answerPrompt(answer)
    case .authorize, .request, .locate, .tap, .back, .swipeBack, .retry: break
    }
    line(event.description, TranscriptLine.Member.state(emulator.state))
    if let app = app.withLock({ $0 }) { await app.handle(event) }
    switch event {
    case .authorize:
      call {
        let status = await self.service.requestWhenInUseAuthorization()
        self.line("authorizeResult", [.string("status", status.rawValue)])
      }
    case .request:
      call {
        let fix = await self.service.requestFix()
        self.line("requestResult", [.fix("result", fix)])
      }
    case .locate:
      call {
        let result = await self.handler.requestLocationWithPermissions()
        var members: [TranscriptLine.Member] = [.string("status", result.status.rawValue)]
        if let reason = result.reason { members.append(.string("reason", reason.rawValue)) }
        let fix = result.location.map { LocationFix(mode: .twoD, coordinate: $0) }
        members.append(.fix("result", fix))
        self.line("locateResult", members)
      }
    default: break
    }
  }

  private func call(_ body: @escaping @Sendable () async -> Void) {
    let task = Task { await body() }
    calls.withLock { $0.append(task) }
  }

  private func emulatorEvent(_ event: PermissionEvent) {
    switch event {
    case .promptShown(let answer, let delay):
      line("prompt", [.string("answer", answer.rawValue)] + (answer == .none ? [] : [.seconds("delay", delay)]))
    case .promptAnswered(let answer, let status):
      line("promptAnswered", [.string("answer", answer.rawValue), .string("status", status.rawValue)])
    case .promptDismissed(let status):
      line("promptDismissed", [.string("status", status.rawValue)])
    case .allowOnceExpired:
      line("allowOnceExpired", [.string("status", LocationPermissionStatus.notDetermined.rawValue)])
    }
  }
}
