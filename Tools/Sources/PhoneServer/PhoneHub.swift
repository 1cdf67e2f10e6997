package import Emulator
import PhoneSources
package import LostPetsApp
package import PetMap
import Foundation
package import GNSSReceiver
package import LocationEmulatorClient
import Geo
import PermissionHandling
package import Scenarios
package import Traces
package import LocationModel

/// The phones a `locemu serve` process holds, on one clock: each a ``ScenarioRunner`` over an
/// ``EmulatedPhone`` with no timeline of its own, driven by requests, and its transcript fanned
/// out to event-stream clients.
///
/// On a virtual clock nothing happens until the clock is advanced (``advance(by:)``), so a
/// remote test is as deterministic as one in process; on the real clock each phone's timers
/// fire by themselves.
package final class PhoneHub: Sendable {
  package let clock: EmulatorClock
  /// Where the lost-pets app of a phone made with `mapFeatures` gets its pins (nil: none).
  package let announcements: (any AnnouncementRepository)?
  private let state = Locked<(next: Int, phones: [String: ServedPhone], maxPhones: Int)>((1, [:], .max))
  /// Phones made and not yet run, for whoever runs them (``PhonesService``, in its task group).
  private let toRun = AsyncStream.makeStream(of: ServedPhone.self)

  /// Each phone made, once, to be run (``ServedPhone/run()``) in the caller's task group;
  /// ends with ``finishRunning()``.
  package var phonesToRun: AsyncStream<ServedPhone> { toRun.stream }

  /// Ends ``phonesToRun``: phones made from now on are not run (a server shutting down).
  package func finishRunning() { toRun.continuation.finish() }

  /// Phones held at once; ``create(_:source:sourceName:)`` makes none beyond it. No limit by default.
  package var maxPhones: Int {
    get { state.withLock { $0.maxPhones } }
    set { state.withLock { $0.maxPhones = newValue } }
  }

  /// - Parameters:
  ///   - virtualTime: a virtual clock that moves only when told; else the real one.
  ///   - announcements: the pins of the lost-pets app that phones made with `mapFeatures` run.
  package init(virtualTime: Bool, announcements: (any AnnouncementRepository)? = nil) {
    clock = virtualTime ? EmulatorClock() : EmulatorClock.realTime()
    self.announcements = announcements
  }

  /// The phones, by id in creation order.
  package var phones: [ServedPhone] {
    state.withLock { Array($0.phones.values) }.sorted { $0.number < $1.number }
  }

  package func phone(_ id: String) -> ServedPhone? { state.withLock { $0.phones[id] } }

  /// Makes a phone with `settings` and starts it; its id is the next number ("1", "2", …).
  /// - Parameter sourceName: what `source` is, for the phone's state (nil: no source).
  /// - Returns: the phone; nil when the hub already holds ``maxPhones``.
  package func create(_ settings: PhoneSettings, source: PhoneSource = .none, sourceName: String? = nil) async -> ServedPhone? {
    let clock = self.clock
    let made = state.withLock { s -> ServedPhone? in
      guard s.phones.count < s.maxPhones else { return nil }
      defer { s.next += 1 }
      let phone = ServedPhone(
        number: s.next, settings: settings, source: source, sourceName: sourceName, clock: clock, announcements: announcements)
      s.phones[phone.id] = phone
      return phone
    }
    guard let phone = made else { return nil }
    await phone.start()
    toRun.continuation.yield(phone)
    return phone
  }

  /// Stops the phone and forgets it; false when there is none with that id.
  package func delete(_ id: String) async -> Bool {
    guard let phone = state.withLock({ $0.phones.removeValue(forKey: id) }) else { return false }
    await phone.stop()
    return true
  }

  /// Moves a virtual clock on, returning when everything due has happened.
  package func advance(by duration: Duration) async throws(EmulatorClockError) {
    try await clock.advance(by: duration)
  }

  /// Time on the hub's clock since it was made.
  package var elapsed: Duration { clock.now.offset }

  /// Stops every phone: no task, timer or subscriber left.
  package func shutdown() async {
    let all = state.withLock { s -> [ServedPhone] in
      defer { s.phones.removeAll() }
      return Array(s.phones.values)
    }
    for phone in all { await phone.stop() }
  }
}

/// What a phone starts with (every member optional in a request: the defaults are a new
/// iPhone's).
package struct PhoneSettings: Sendable, Hashable, Codable {
  package var permission: LocationPermissionStatus?
  package var services: Bool?
  package var accuracy: LocationAccuracyAuthorization?
  package var app: AppState?
  package var backgroundLocationUpdates: Bool?
  package var promptAnswer: PromptAnswer?
  /// Seconds.
  package var promptDelay: Double?
  /// Whether the phone runs the lost-pets app's map features (``MapFeaturesApp``): its map
  /// events (`tap`, `back`, `swipeBack`, `retry`) then apply, and its lines join the transcript.
  package var mapFeatures: Bool?

  package init(
    permission: LocationPermissionStatus? = nil, services: Bool? = nil, accuracy: LocationAccuracyAuthorization? = nil,
    app: AppState? = nil, backgroundLocationUpdates: Bool? = nil, promptAnswer: PromptAnswer? = nil, promptDelay: Double? = nil,
    mapFeatures: Bool? = nil
  ) {
    self.mapFeatures = mapFeatures
    self.permission = permission
    self.services = services
    self.accuracy = accuracy
    self.app = app
    self.backgroundLocationUpdates = backgroundLocationUpdates
    self.promptAnswer = promptAnswer
    self.promptDelay = promptDelay
  }

  /// The scenario these settings start: no steps, no end of its own.
  var scenario: Scenario {
    var s = Scenario()
    if let permission { s.initial.appStatus = permission }
    if let services { s.initial.servicesEnabled = services }
    if let accuracy { s.initial.accuracy = accuracy }
    if let app { s.initial.app = app }
    if let backgroundLocationUpdates { s.initial.backgroundLocationUpdates = backgroundLocationUpdates }
    // The prompt waits for its user unless told how it is answered, as a simulator's waits for
    // whoever drives it (`locemu ctl privacy grant`, `ctl prompt ANSWER`).
    s.promptAnswer = promptAnswer ?? .none
    if let promptDelay { s.promptDelay = promptDelay }
    return s
  }
}

/// One served phone: the runner that reports its transcript, the task that runs it, and the
/// clients of its event stream.
package final class ServedPhone: Sendable {
  package let id: String
  let number: Int
  package let runner: ScenarioRunner
  package var phone: EmulatedPhone { runner.phone }
  /// The lost-pets app the phone runs, when made with `mapFeatures`.
  package let app: MapFeaturesApp?
  /// The transcript so far, the newest ``historyLimit`` lines (a new client gets them first).
  private let transcript = Locked<(history: [String], subscribers: [UInt64: AsyncStream<String>.Continuation], next: UInt64)>(
    ([], [:], 0))
  /// ``stop()`` finishes it: ``run()`` ends.
  private let stopSignal = AsyncStream.makeStream(of: Void.self)
  /// ``run()`` finishes it when it ends.
  private let endSignal = AsyncStream.makeStream(of: Void.self)
  private let runStarted = Locked(false)
  /// What the phone's source is playing, counted as its fixes arrive.
  private let playback: Locked<Playback?>
  /// The trace or route playing, whole, for a seek.
  private let seekable = Locked<Seekable?>(nil)
  private let sourceObservation = Locked<PhoneObservation?>(nil)
  /// The realistic receiver under what the phone plays, and how the state shows it.
  private let realism = Locked<(options: GNSSReceiver.Options, wire: Wire.Realism)?>(nil)
  /// The realistic receiver's latest whole epochs, for `serve --nmea-listen`.
  package let receiverEpochs = ReceiverEpochLog()
  /// Where the source's fixes put the phone, oldest first (the newest ``trailLimit``).
  private let trailBox = Locked<[Coordinate]>([])
  /// Positions kept for the trail on the web page's map.
  package static let trailLimit = 1000
  /// Lines kept for a client that connects later.
  package static let historyLimit = 1000
  /// Lines a client may fall behind before it is dropped (a client that stops reading must
  /// not slow the phone or the other clients).
  package static let clientBacklog = 4096

  init(
    number: Int, settings: PhoneSettings, source: PhoneSource, sourceName: String?, clock: EmulatorClock,
    announcements: (any AnnouncementRepository)? = nil
  ) {
    self.number = number
    id = String(number)
    playback = Locked(sourceName.map { Playback(kind: .source, name: $0) })
    // The runner reports through `emit`, which needs `self`; it reports nothing before
    // `begin()` (in `start()`), so the sink is in place by then.
    let sink = Locked<(@Sendable (String) -> Void)?>(nil)
    // A phone on the real clock lives today; on a virtual clock, on the fixed default date.
    let startDate = clock.isVirtual ? EmulatedPhone.Configuration.defaultStartDate : Date()
    runner = ScenarioRunner(scenario: settings.scenario, source: source, clock: clock, startDate: startDate) { line in
      sink.withLock { $0 }?(line.json)
    }
    // The app's composition root, as `locemu preview` runs it (no snapshot images: the page
    // draws the phone's map itself).
    app = settings.mapFeatures == true ? MapFeaturesApp(phone: runner.phone, repository: announcements, snapshotter: nil) : nil
    sink.withLock { $0 = { [weak self] json in self?.publish(json) } }
  }

  func start() async {
    let phone = self.phone
    let playback = self.playback
    let seekable = self.seekable
    let trail = trailBox
    let observation = phone.observe([.sourceFix, .sourceEnded]) { event in
      if case .sourceFix(let fix) = event, fix.hasFix, let coordinate = fix.coordinate {
        trail.withLock {
          $0.append(coordinate)
          if $0.count > Self.trailLimit { $0.removeFirst($0.count - Self.trailLimit) }
        }
      }
      playback.withLock { p in
        switch event {
        case .sourceFix:
          guard p?.ended == false else { break }
          p?.fixes += 1
          // The seek bar moves on; a looping trace comes round to its start again.
          if let position = p?.position, let total = p?.total {
            if position + 1 < total {
              p?.position = position + 1
            } else {
              let loops = seekable.withLock { if case .trace(_, let options)? = $0 { options.loop } else { false } }
              p?.position = loops ? 0 : total
            }
          }
        case .sourceEnded(let error):
          p?.ended = true
          p?.error = error
        default: break
        }
      }
    }
    sourceObservation.withLock { $0 = observation }
    await runner.begin(app: app)
  }

  /// Runs the phone (reads a live source, fires a real-time clock's timers) until ``stop()``
  /// or cancellation: ``PhonesService`` calls it in its task group, so no phone outlives the
  /// server. At most once; a phone stopped before it ran returns at once.
  package func run() async {
    guard
      runStarted.withLock({ started in
        defer { started = true }
        return !started
      })
    else { return }
    defer { endSignal.continuation.finish() }
    let phone = self.phone, stopped = stopSignal.stream
    await withDiscardingTaskGroup { group in
      group.addTask { await phone.run() }
      for await _ in stopped {}
      // EmulatedPhone.run() ends when its task is cancelled (it drives the shared clock until then).
      group.cancelAll()
    }
  }

  func stop() async {
    stopPlaying()
    sourceObservation.withLock { $0 }?.cancel()
    try? await runner.finish()
    phone.shutdown()
    stopSignal.continuation.finish()
    // Waits for run() to end, if it began (not in a cancelled task: the run ends with it).
    if runStarted.withLock({ $0 }) { for await _ in endSignal.stream {} }
    let subscribers = transcript.withLock { t -> [AsyncStream<String>.Continuation] in
      defer { t.subscribers.removeAll() }
      return Array(t.subscribers.values)
    }
    for subscriber in subscribers { subscriber.finish() }
  }

  private func publish(_ json: String) {
    let dropped = transcript.withLock { t -> [AsyncStream<String>.Continuation] in
      t.history.append(json)
      if t.history.count > Self.historyLimit { t.history.removeFirst(t.history.count - Self.historyLimit) }
      var dropped: [AsyncStream<String>.Continuation] = []
      for (key, subscriber) in t.subscribers {
        if case .dropped = subscriber.yield(json) {
          dropped.append(subscriber)
          t.subscribers[key] = nil
        }
      }
      return dropped
    }
    // Outside the lock: finishing runs the stream's onTermination, which takes it.
    for subscriber in dropped { subscriber.finish() }
  }

  /// The transcript from now on (after the last `history` lines, when asked for), as JSON
  /// objects, one per element, with ``keepAliveLine`` between them when ``keepAlive()`` is
  /// called; finishes when the phone is deleted, when the client falls more than
  /// ``clientBacklog`` lines behind, or when it is cancelled (``EventSubscription/cancel()``:
  /// the server does so when writing to the client fails).
  /// - Parameter maxClients: nil (no subscription) when the phone has this many clients already.
  package func events(history: Int = 0, maxClients: Int = .max) -> EventSubscription? {
    let (stream, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingOldest(Self.clientBacklog))
    let key = transcript.withLock { t -> UInt64? in
      guard t.subscribers.count < maxClients else { return nil }
      for line in t.history.suffix(max(0, history)) { continuation.yield(line) }
      t.next += 1
      t.subscribers[t.next] = continuation
      return t.next
    }
    guard let key else { return nil }
    continuation.onTermination = { [weak self] _ in
      self?.transcript.withLock { $0.subscribers[key] = nil }
    }
    return EventSubscription(lines: stream, continuation: continuation)
  }

  /// What ``events(history:)`` yields when ``keepAlive()`` is called: not a transcript line.
  package static let keepAliveLine = ""

  /// Sends every client a keep-alive (an SSE comment), so a client that went away is noticed
  /// when the write fails, even while the phone is quiet.
  package func keepAlive() {
    let subscribers = transcript.withLock { Array($0.subscribers.values) }
    for subscriber in subscribers { subscriber.yield(Self.keepAliveLine) }
  }

  /// Clients of the event stream right now.
  package var eventClientCount: Int { transcript.withLock { $0.subscribers.count } }

  /// The whole state: permission, prompt, what plays, last fix, time.
  package var state: Wire.PhoneState {
    let s = phone.state
    let script = phone.promptScript
    return Wire.PhoneState(
      id: id, status: s.status, services: s.servicesEnabled ? .on : .off, accuracy: s.accuracy, app: s.app,
      backgroundLocationUpdates: s.backgroundLocationUpdates, promptOnScreen: s.promptShown, promptAnswer: script.answer,
      promptDelay: script.delay.seconds, fixLost: phone.isFixLost, walkingRoute: isWalkingRoute, playing: playing,
      lastFix: phone.latestFix.map(Wire.Fix.init), elapsed: phone.elapsed.seconds, eventClients: eventClientCount,
      realism: realism.withLock { $0?.wire }, mapFeatures: app != nil ? true : nil)
  }
}

extension ServedPhone {
  /// What a phone's source plays, as its state reports it.
  typealias Playback = Wire.Playing

  /// What a seek plays again from another point.
  enum Seekable: Sendable {
    case trace(DecodedTrace, ReplayOptions)
    case route(RouteWalk, [LocationFix])
  }

  /// Plays `source` from now on the phone, in place of what it played (``PhoneSource/live(_:)``
  /// sources excepted); its fixes arrive as a receiver's would, through the permission gate.
  func play(_ source: PhoneSource, _ playback: Playback, seekable: Seekable? = nil) {
    self.seekable.withLock { $0 = seekable }
    self.playback.withLock { $0 = playback }
    receiverEpochs.removeAll()
    let epochs = receiverEpochs
    phone.play(
      realism.withLock { $0 }.map { PhoneSource.realistic(source, receiver: $0.options, epochs: { epochs.record($0) }) } ?? source)
  }

  /// A realistic receiver (or none) under what the phone plays from now on, with the request
  /// that asked for it (what the state shows). The receiver is this phone's own: phones of one
  /// seed err independently.
  package func setRealism(_ realism: (options: GNSSReceiver.Options, wire: Wire.Realism)?) {
    var realism = realism
    realism?.options.phone = UInt64(number)
    self.realism.withLock { $0 = realism }
  }

  /// Where the source's fixes have put the phone, oldest first (at most ``trailLimit``).
  package var trail: [Coordinate] { trailBox.withLock { $0 } }

  /// Whether a realistic receiver is set.
  package var isRealistic: Bool { realism.withLock { $0 != nil } }

  /// Stands the phone at `fix` through its receiver: a fixed source, one fix a second.
  package func stand(at fix: LocationFix) {
    guard let coordinate = fix.coordinate else { return }
    play(
      .fixed(coordinate, horizontalAccuracy: fix.horizontalAccuracy, altitude: fix.altitudeMSL),
      Playback(kind: .source, name: "fixed \(coordinate.latitude),\(coordinate.longitude)"))
  }

  /// Walks `route` on the phone's clock (as `simctl location start`), stamping each fix with
  /// the phone's date; what played before stops.
  package func start(_ route: RouteWalk, fixes: [LocationFix], from index: Int = 0, fixesSoFar: Int = 0) {
    let rest = Array(fixes[min(index, fixes.count)...])
    play(
      .script(route.script(rest)),
      Playback(kind: .route, name: "\(route.waypoints.count) waypoints", fixes: fixesSoFar, total: fixes.count, position: index),
      seekable: .route(route, fixes))
  }

  /// Plays `trace` (decoded once, held in memory) with `options` from now; what played before stops.
  package func start(_ trace: DecodedTrace, options: ReplayOptions, fixesSoFar: Int = 0) {
    let epochs = trace.epochs
    // Where the offset starts it (a timed trace), for the seek bar.
    var position = 0
    if options.startOffset > 0, let t0 = epochs.first?.traceTime {
      position = epochs.firstIndex { ($0.traceTime ?? -.infinity) - t0 >= options.startOffset } ?? epochs.count
    }
    play(
      .replay(options: options) { trace.makeReader() },
      Playback(kind: .trace, name: trace.name, fixes: fixesSoFar, total: epochs.count, position: position),
      seekable: .trace(trace, options))
  }

  /// Plays the trace or route playing again from its fix `fix` (an index from 0), or from
  /// `seconds` after its start, paused if it was; the trace's speed and loop stay.
  /// - Returns: nil when nothing seekable plays; the index it plays from.
  package func seek(fix: Int?, seconds: Double?) -> Int? {
    guard let seekable = seekable.withLock({ $0 }) else { return nil }
    let wasPaused = phone.isSourcePaused
    let soFar = playback.withLock { $0?.fixes ?? 0 }
    let index: Int
    switch seekable {
    case .trace(let trace, var options):
      let epochs = trace.epochs
      guard !epochs.isEmpty else { return nil }
      let t0 = epochs[0].traceTime
      if let fix {
        index = max(0, min(fix, epochs.count - 1))
      } else {
        let target = max(0, seconds ?? 0)
        index = t0.flatMap { t0 in epochs.firstIndex { ($0.traceTime ?? -.infinity) - t0 >= target } } ?? epochs.count - 1
      }
      options.timeBase = .startingAt(phone.date)
      if let t0, let t = epochs[index].traceTime {
        // A timed trace starts at the offset, and a loop comes round to its start.
        options.startOffset = t - t0
        start(trace, options: options, fixesSoFar: soFar)
      } else {
        options.startOffset = 0
        let rest = DecodedTrace(name: trace.name, format: trace.format, epochs: Array(epochs[index...]), summary: trace.summary)
        play(
          .replay(options: options) { rest.makeReader() },
          Playback(kind: .trace, name: trace.name, fixes: soFar, total: epochs.count, position: index),
          seekable: .trace(trace, options))
      }
    case .route(let route, let fixes):
      guard !fixes.isEmpty else { return nil }
      let step = route.interval.seconds
      index = max(0, min(fix ?? Int(((seconds ?? 0) / step).rounded(.down)), fixes.count - 1))
      start(route, fixes: fixes, from: index, fixesSoFar: soFar)
    }
    if wasPaused { phone.pauseSource() }
    return index
  }

  /// Stops what the source plays (a route, a trace, the starting source); no effect when nothing does.
  package func stopPlaying() {
    phone.stopSource()
    seekable.withLock { $0 = nil }
    playback.withLock { p in if p?.ended == false { p?.ended = true } }
  }

  /// Whether a route is being walked.
  package var isWalkingRoute: Bool { playback.withLock { $0.map { $0.kind == .route && !$0.ended } ?? false } }

  var playing: Wire.Playing? {
    var playing = playback.withLock { $0 }
    if phone.isSourcePaused { playing?.paused = true }
    return playing
  }

  /// Pauses what the phone plays, or resumes it where it paused; either again is no change.
  /// - Returns: false when nothing plays, paused or not.
  package func setPaused(_ paused: Bool) -> Bool {
    paused ? (phone.pauseSource() || phone.isSourcePaused) : (phone.resumeSource() || isPlayingSomething)
  }

  /// Whether a timeline the phone plays has not ended.
  private var isPlayingSomething: Bool { playback.withLock { $0.map { !$0.ended } ?? false } }
}

/// One client's event stream; ``cancel()`` ends it and forgets the client.
package struct EventSubscription: Sendable {
  package let lines: AsyncStream<String>
  let continuation: AsyncStream<String>.Continuation

  package func cancel() { continuation.finish() }
}
