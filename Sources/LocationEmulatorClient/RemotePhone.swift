public import Emulator
public import Foundation
import Geo
public import LocationModel

/// A phone of a `locemu serve` process, from another process: what a test script sets
/// (location, permission, Location Services, accuracy, app state, the prompt's answer) and
/// what the app reads — a `LocationServiceProtocol` and an `AppLifecycleProviding`, so a
/// `LocationPermissionHandler(service: phone, lifecycle: phone)` runs the app's permission
/// logic against a phone that the test drives.
///
/// Reads are requests (`GET /phones/{id}`); the streams follow the phone's transcript
/// (`GET /phones/{id}/events`) and end when the phone is deleted or the server stops. A read
/// that cannot reach the server answers what a phone without a decision answers
/// (`notDetermined`, services on); the throwing methods say why.
public final class RemotePhone: Sendable {
  /// The server that holds the phone.
  public let server: EmulatorServer
  /// The phone's identifier on the server (the `{id}` of its routes).
  public let id: String

  init(server: EmulatorServer, id: String) {
    self.server = server
    self.id = id
  }

  private var path: String { "phones/\(id)" }

  // MARK: State

  /// The phone's state now.
  public func state() async throws(EmulatorClientError) -> RemotePhoneState {
    try RemotePhoneState(json: try await server.send("GET", path))
  }

  /// The phone's transcript from now on (and its last `history` lines first): the JSON lines
  /// of `locemu permissions --json`, decoded.
  public func transcript(history: Int = 0) async throws(EmulatorClientError) -> AsyncThrowingStream<TranscriptEvent, any Error> {
    try await server.events("\(path)/events?history=\(history)") { TranscriptEvent(json: $0) }
  }

  // MARK: What a test sets

  /// A fix now, from a `LocationFix`: its coordinate and the members it reports, sent as a `Wire.Location`.
  /// - Parameter fix: the fix; it must have a coordinate.
  /// - Returns: the phone's state after the change.
  /// - Throws: ``EmulatorClientError``: `.badRequest` when `fix` has no coordinate, `.refused` with 400 when a member is
  ///   out of range.
  @discardableResult
  public func setLocation(_ fix: LocationFix) async throws(EmulatorClientError) -> RemotePhoneState {
    guard let location = Wire.Location(fix) else { throw .badRequest("a location needs a coordinate") }
    return try await setLocation(location)
  }

  /// A fix now, its members sent as they are (`POST /phones/{id}/location`): what the phone
  /// played stops, and a lost fix is back. The server checks the ranges and says which member is
  /// out.
  /// - Parameter location: the fix's coordinate and the members it reports (altitude, accuracy,
  ///   speed, course).
  /// - Throws: ``EmulatorClientError``: `.refused` with 400 when a member is out of range.
  @discardableResult
  public func setLocation(_ location: Wire.Location) async throws(EmulatorClientError) -> RemotePhoneState {
    try await post("location", location)
  }

  /// A 2D fix at `coordinate` now, without altitude, accuracy, speed or course.
  /// - Parameter coordinate: where the phone is.
  /// - Returns: the phone's state after the change.
  /// - Throws: ``EmulatorClientError``: `.refused` with 400 when the coordinate is out of range.
  @discardableResult
  public func setLocation(_ coordinate: Coordinate) async throws(EmulatorClientError) -> RemotePhoneState {
    try await setLocation(LocationFix(mode: .twoD, coordinate: coordinate))
  }

  /// No more fixes: the receiver has lost the sky.
  @discardableResult
  public func clearLocation() async throws(EmulatorClientError) -> RemotePhoneState {
    try RemotePhoneState(json: try await server.send("DELETE", "\(path)/location"))
  }

  /// Walks a route of waypoints from the first (`POST /phones/{id}/route`), in place of what the
  /// phone played: a fix every `interval` seconds at `speed`, on the phone's clock.
  /// - Parameters:
  ///   - waypoints: the route, 1 to 10,000 points.
  ///   - speed: metres per second, above 0 and at most 1000 (nil: 1.4, a walk).
  ///   - interval: seconds between fixes, 0.01 to 3600 (nil: 1).
  /// - Throws: ``EmulatorClientError``: `.refused` with 400 (a value out of range, or a route of
  ///   too many fixes).
  @discardableResult
  public func walkRoute(
    _ waypoints: [Wire.Location], speed: Double? = nil, interval: Double? = nil
  ) async throws(EmulatorClientError) -> RemotePhoneState {
    try await post("route", Wire.Route(waypoints: waypoints, speed: speed, interval: interval))
  }

  /// Grants the app's permission (`POST /phones/{id}/privacy`), as a user would in Settings.
  /// - Parameter always: `true` for Always, `false` for When In Use.
  /// - Returns: the phone's state after the change.
  /// - Throws: ``EmulatorClientError``.
  @discardableResult
  public func grant(always: Bool = false) async throws(EmulatorClientError) -> RemotePhoneState {
    try await post("privacy", Wire.Privacy(action: .grant, always: always))
  }

  /// Denies the app's permission (status `denied`), as a user would in Settings.
  /// - Returns: the phone's state after the change.
  /// - Throws: ``EmulatorClientError``.
  @discardableResult
  public func revoke() async throws(EmulatorClientError) -> RemotePhoneState { try await post("privacy", Wire.Privacy(action: .revoke)) }

  /// Takes the app's permission back to `notDetermined`, so that its next request shows the prompt.
  /// - Returns: the phone's state after the change.
  /// - Throws: ``EmulatorClientError``.
  @discardableResult
  public func resetPermission() async throws(EmulatorClientError) -> RemotePhoneState {
    try await post("privacy", Wire.Privacy(action: .reset))
  }

  /// Makes the app's permission `restricted`, as parental controls or a device policy do.
  /// - Returns: the phone's state after the change.
  /// - Throws: ``EmulatorClientError``.
  @discardableResult
  public func restrict() async throws(EmulatorClientError) -> RemotePhoneState {
    try await post("privacy", Wire.Privacy(action: .restrict))
  }

  /// Turns Location Services on or off for the whole phone (`POST /phones/{id}/services`).
  /// - Parameter enabled: `true` to turn them on.
  /// - Returns: the phone's state after the change.
  /// - Throws: ``EmulatorClientError``.
  @discardableResult
  public func setServicesEnabled(_ enabled: Bool) async throws(EmulatorClientError) -> RemotePhoneState {
    try await post("services", Wire.Services(enabled: enabled))
  }

  /// A realistic receiver of the built-in `profile` under what the phone plays from now on
  /// (nil: none, exact positions again).
  @discardableResult
  public func setRealism(
    _ profile: String?, seed: UInt64? = nil, start: String? = nil, assisted: Bool? = nil
  ) async throws(EmulatorClientError) -> RemotePhoneState {
    try await post("realism", Wire.Realism(profile: profile, seed: seed, start: start, assisted: assisted))
  }

  /// Pauses what the phone plays (`true`) or resumes it where it paused (`false`).
  /// - Throws: ``EmulatorClientError`` (HTTP 409 when nothing plays).
  @discardableResult
  public func setPlaybackPaused(_ paused: Bool) async throws(EmulatorClientError) -> RemotePhoneState {
    try await post("playback", Wire.Playback(paused: paused))
  }

  /// Jumps within the trace or route the phone plays (paused or playing) to its fix `fix`
  /// (an index from 0) or to `seconds` after its start: give one.
  /// - Throws: ``EmulatorClientError`` (HTTP 409 when no trace or route plays).
  @discardableResult
  public func seek(fix: Int? = nil, seconds: Double? = nil) async throws(EmulatorClientError) -> RemotePhoneState {
    try await post("seek", Wire.Seek(fix: fix, seconds: seconds))
  }

  /// Gives the app precise (`full`) or approximate (`reduced`) location (`POST /phones/{id}/accuracy`).
  /// - Parameter accuracy: the accuracy the app gets.
  /// - Returns: the phone's state after the change.
  /// - Throws: ``EmulatorClientError``.
  @discardableResult
  public func setAccuracy(_ accuracy: LocationAccuracyAuthorization) async throws(EmulatorClientError) -> RemotePhoneState {
    try await post("accuracy", Wire.Accuracy(accuracy: accuracy))
  }

  /// Puts the app in the foreground or the background (`POST /phones/{id}/app`).
  /// - Parameter app: the app's state.
  /// - Returns: the phone's state after the change.
  /// - Throws: ``EmulatorClientError``.
  @discardableResult
  public func setAppState(_ app: AppState) async throws(EmulatorClientError) -> RemotePhoneState {
    try await post("app", Wire.App(state: app))
  }

  /// How the scripted user answers the next prompt, and after how long.
  @discardableResult
  public func setPromptAnswer(_ answer: PromptAnswer, delay: Duration? = nil) async throws(EmulatorClientError) -> RemotePhoneState {
    try await setPromptAnswer(answer, delaySeconds: delay?.seconds)
  }

  /// How the scripted user answers the next prompt, and after how many seconds, as the API takes
  /// it (`POST /phones/{id}/prompt`); the server checks the delay.
  /// - Parameters:
  ///   - answer: the scripted user's answer.
  ///   - delaySeconds: seconds before the answer, 0 to 86400 (nil: the delay the phone has).
  /// - Throws: ``EmulatorClientError``: `.refused` with 400 when the delay is out of range.
  @discardableResult
  public func setPromptAnswer(_ answer: PromptAnswer, delaySeconds: Double?) async throws(EmulatorClientError) -> RemotePhoneState {
    try await post("prompt", Wire.Prompt(answer: answer, delay: delaySeconds))
  }

  /// Makes one of the app's calls (`POST /phones/{id}/calls/{call}`) and answers without waiting
  /// for its result, which comes on the ``transcript(history:)`` (`authorizeResult`,
  /// `requestResult`, `locateResult`); ``requestWhenInUseAuthorization()`` and the other requests
  /// wait for it.
  /// - Parameter call: the call the app makes.
  /// - Returns: the phone's state once the call has started (the prompt on screen, say).
  /// - Throws: ``EmulatorClientError``.
  @discardableResult
  public func startCall(_ call: Wire.Call) async throws(EmulatorClientError) -> RemotePhoneState {
    try RemotePhoneState(json: try await server.send("POST", "\(path)/calls/\(call.rawValue)"))
  }

  /// Applies any scenario event now (`POST /phones/{id}/events`), as `locemu permissions --at`
  /// spells it: `fix=lost`, `permission=denied`, …; `tap`, `back`, `swipeBack` or `retry` on a
  /// phone with map features.
  /// - Parameter event: the event.
  /// - Throws: ``EmulatorClientError``: `.refused` with 400 (not an event, or a map event on a
  ///   phone without a map).
  @discardableResult
  public func sendEvent(_ event: String) async throws(EmulatorClientError) -> RemotePhoneState {
    try await post("events", Wire.Event(event: event))
  }

  /// Plays a trace on the phone from now, stamped with the phone's time, in place of what it
  /// played: `contents` (NMEA, GPX or JSON lines of fix records, as read from a file here) go
  /// to the server in the request; the server reads no file of its machine for it.
  /// - Parameters:
  ///   - contents: the trace, as read from a file here.
  ///   - name: what the phone's state calls the trace.
  ///   - format: nil to tell from `name`'s extension, else from the first bytes.
  ///   - speed: trace seconds per clock second.
  ///   - loop: start again at the end.
  ///   - offset: seconds of the trace to skip.
  /// - Throws: ``EmulatorClientError``: `.refused` with 400 (not a trace), 413 (over the
  ///   server's `--max-trace-bytes`).
  @discardableResult
  public func playTrace(
    _ contents: Data, name: String = "upload", format: Wire.TraceFormat? = nil, speed: Double = 1, loop: Bool = false, offset: Double = 0
  ) async throws(EmulatorClientError) -> RemotePhoneState {
    var query = URLComponents()
    query.queryItems =
      [
        URLQueryItem(name: "name", value: name), URLQueryItem(name: "speed", value: "\(speed)"),
        URLQueryItem(name: "loop", value: "\(loop)"), URLQueryItem(name: "offset", value: "\(offset)"),
      ] + (format.map { [URLQueryItem(name: "format", value: $0.rawValue)] } ?? [])
    let path = "\(path)/trace?" + (query.percentEncodedQuery ?? "")
    return try RemotePhoneState(json: try await server.send("POST", path, body: contents, contentType: "application/octet-stream"))
  }

  /// Plays the trace `name` from the server's trace directory (`locemu serve --traces DIR`),
  /// as ``playTrace(_:name:format:speed:loop:offset:)`` plays an uploaded one.
  /// - Throws: ``EmulatorClientError``: `.refused` with 404 when the directory has no such trace.
  @discardableResult
  public func playTrace(
    named name: String, format: Wire.TraceFormat? = nil, speed: Double = 1, loop: Bool = false, offset: Double = 0
  ) async throws(EmulatorClientError) -> RemotePhoneState {
    try await post("trace", Wire.TraceRun(name: name, format: format, speed: speed, loop: loop, offset: offset))
  }

  private func post(_ route: String, _ body: some Encodable & Sendable) async throws(EmulatorClientError) -> RemotePhoneState {
    try RemotePhoneState(json: try await server.send("POST", "\(path)/\(route)", body))
  }

  /// Makes one of the app's calls and waits for its result line on the transcript.
  private func call(_ call: Wire.Call, result: String) async throws(EmulatorClientError) -> TranscriptEvent {
    // Listening before calling: the result cannot come before the stream is open.
    let events = try await transcript()
    try await server.send("POST", "\(path)/calls/\(call.rawValue)")
    do {
      for try await event in events where event.event == result { return event }
    } catch {
      throw .unreachable("the event stream broke before '\(result)': \(error)")
    }
    throw .unreachable("the phone's transcript ended before '\(result)' (phone deleted or server stopped)")
  }

  /// A stream of one member of the state: its value now, then each change. It follows the
  /// transcript while it is consumed; letting it go closes the connection.
  private func follow<Value: Sendable & Equatable>(
    _ current: @escaping @Sendable (RemotePhoneState) -> Value, _ member: @escaping @Sendable (TranscriptEvent) -> Value?
  ) -> AsyncStream<Value> {
    let follower = Follower<Value>()
    return AsyncStream(unfolding: { [self] () async -> Value? in
      if follower.events == nil {
        // Listening first, then reading: a change between the two is not missed.
        guard let events = try? await transcript(), let state = try? await state() else { return nil }
        follower.events = events.makeAsyncIterator()
        follower.last = current(state)
        return follower.last
      }
      while let event = try? await follower.events?.next() {
        guard let value = member(event), value != follower.last else { continue }
        follower.last = value
        return value
      }
      return nil
    })
  }
}

/// What a followed stream keeps between its consumer's calls (one consumer at a time).
private final class Follower<Value>: @unchecked Sendable {
  var events: AsyncThrowingStream<TranscriptEvent, any Error>.AsyncIterator?
  var last: Value?
}

extension RemotePhone {
  /// Makes `phone` (an in-process phone, on the real clock) follow this one until the served
  /// phone's transcript ends or the task is cancelled: its permission, Location Services,
  /// accuracy and app state as they change, and every fix it delivers to its app. Code that
  /// needs an `EmulatedPhone` (the map features, say) then runs against a phone that another
  /// process drives.
  /// - Throws: ``EmulatorClientError``, also when the transcript ends (the phone was deleted
  ///   or the server stopped); nothing when cancelled.
  public func mirror(into phone: EmulatedPhone) async throws(EmulatorClientError) {
    let events = try await transcript()
    let now = try await state()
    // The served phone's position, held as a receiver holds it: sent again once a second as a
    // new fix (stamped with the time it is sent, as a still device's receiver reports one each
    // second), so a request made here gets it as it would on the served phone and code that
    // drops stale locations keeps it (nil while the fix is lost).
    let held = Locked<LocationFix?>(now.fixLost ? nil : now.lastFix)
    await Self.apply(
      status: now.status, services: now.servicesEnabled, accuracy: now.accuracy, app: now.app, to: phone)
    if let fix = held.withLock({ $0 }) { await phone.send(fix) }
    let ended: EmulatorClientError? = await withTaskGroup(of: EmulatorClientError?.self) { group in
      group.addTask {
        while (try? await Task.sleep(for: Self.holdInterval)) != nil {
          guard var fix = held.withLock({ $0 }) else { continue }
          fix.timestamp = phone.date
          await phone.send(fix)
        }
        return nil
      }
      group.addTask { [id] in
        do {
          for try await event in events {
            await Self.apply(
              status: event.string("status").flatMap(LocationPermissionStatus.init(rawValue:)),
              services: event.string("services").map { $0 == "on" },
              accuracy: event.string("accuracy").flatMap(LocationAccuracyAuthorization.init(rawValue:)),
              app: event.string("app").flatMap(AppState.init(rawValue:)), to: phone)
            if event.event == "fix=lost" { held.withLock { $0 = nil } }
            if event.event == "fix", let fix = event.fix {
              held.withLock { $0 = fix }
              await phone.send(fix)
            }
          }
        } catch {
          if Task.isCancelled { return nil }
          return .unreachable("phone \(id)'s event stream broke: \(error)")
        }
        if Task.isCancelled { return nil }
        return .unreachable("the server ended phone \(id)'s event stream (the phone was deleted or the server stopped)")
      }
      // The stream's end (or the caller's cancellation) ends the holding too.
      let first = await group.next() ?? nil
      group.cancelAll()
      return first
    }
    if let ended { throw ended }
  }

  /// How often ``mirror(into:)`` sends the held position again (as a new fix, stamped then).
  public static let holdInterval = Duration.seconds(1)

  /// Sets what differs. `status` is what the app reads (denied while services are off): it is
  /// the app's own setting only while services are on.
  private static func apply(
    status: LocationPermissionStatus?, services: Bool?, accuracy: LocationAccuracyAuthorization?, app: AppState?,
    to phone: EmulatedPhone
  ) async {
    if let services, phone.state.servicesEnabled != services { await phone.setServicesEnabled(services) }
    if let status, phone.state.servicesEnabled, phone.state.appStatus != status { await phone.setAuthorization(status) }
    if let accuracy, phone.state.accuracy != accuracy { await phone.setAccuracy(accuracy) }
    if let app, phone.state.app != app { await phone.setAppState(app) }
  }
}

extension RemotePhone: LocationServiceProtocol {
  /// The status the app reads now (`denied` while Location Services are off); `notDetermined` when the
  /// server cannot be reached.
  public var authorizationStatus: LocationPermissionStatus {
    get async { (try? await state())?.status ?? .notDetermined }
  }

  /// The app's status now, then each change; the stream ends with the phone's transcript.
  public var authorizationStatusStream: AsyncStream<LocationPermissionStatus> {
    follow(\.status) { $0.string("status").flatMap(LocationPermissionStatus.init(rawValue:)) }
  }

  /// Asks as the app does: the phone shows its prompt, and the scripted user answers it.
  public func requestWhenInUseAuthorization() async -> LocationPermissionStatus {
    guard let event = try? await call(.authorize, result: "authorizeResult") else { return await authorizationStatus }
    return event.string("status").flatMap(LocationPermissionStatus.init(rawValue:)) ?? .notDetermined
  }

  /// The app's `requestAlwaysAuthorization()` on the served phone: the status once it settles.
  public func requestAlwaysAuthorization() async -> LocationPermissionStatus {
    guard let event = try? await call(.authorizeAlways, result: "authorizeResult") else { return await authorizationStatus }
    return event.string("status").flatMap(LocationPermissionStatus.init(rawValue:)) ?? .notDetermined
  }

  /// A one-shot request as the app makes it (``requestLocationResult()``), reduced to the fix's coordinate.
  /// - Returns: The coordinate, or nil when there is no fix or the server cannot be reached.
  public func requestLocation() async -> Coordinate? { await requestLocationResult().fix?.coordinate }

  /// Whether Location Services are on now; `true` when the server cannot be reached.
  public var locationServicesEnabled: Bool {
    get async { (try? await state())?.servicesEnabled ?? true }
  }

  /// Location Services on or off now, then each change; the stream ends with the phone's transcript.
  public var locationServicesStream: AsyncStream<Bool> {
    follow(\.servicesEnabled) { $0.string("services").map { $0 == "on" } }
  }

  /// Precise (`full`) or approximate (`reduced`) location for the app now; `full` when the server cannot be reached.
  public var accuracyAuthorization: LocationAccuracyAuthorization {
    get async { (try? await state())?.accuracy ?? .full }
  }

  /// A one-shot request as the app makes it; the result says why there is no fix.
  public func requestLocationResult() async -> LocationRequestResult {
    let event = try? await call(.request, result: "requestResult")
    let fix = event?.fix("result")
    guard let state = try? await state() else {
      return LocationRequestResult(status: .notDetermined, fix: nil, reason: .locationUnavailable)
    }
    let reason = fix == nil ? (state.permission.unavailableReason ?? .locationUnavailable) : nil
    return LocationRequestResult(status: state.status, fix: fix, accuracy: state.accuracy, reason: reason)
  }

  /// The fixes the phone delivers to the app, from now on (the stream is connected at its
  /// first read).
  public func locations() -> AsyncStream<LocationFix> {
    let follower = Follower<Void>()
    return AsyncStream(unfolding: { [self] () async -> LocationFix? in
      if follower.events == nil {
        guard let events = try? await transcript() else { return nil }
        follower.events = events.makeAsyncIterator()
      }
      while let event = try? await follower.events?.next() {
        if event.event == "fix", let fix = event.fix { return fix }
      }
      return nil
    })
  }
}

extension RemotePhone: AppLifecycleProviding {
  /// The app's state now, then each change; the stream ends with the phone's transcript.
  /// - Returns: A stream that follows the served phone's app state.
  public func appStateUpdates() -> AsyncStream<AppState> {
    follow(\.app) { $0.string("app").flatMap(AppState.init(rawValue:)) }
  }
}

/// A served phone's state, as `GET /phones/{id}` reads it.
public struct RemotePhoneState: Sendable, Hashable {
  /// The phone's identifier on the server.
  public var id: String
  /// What the app reads (`denied` while Location Services are off).
  public var status: LocationPermissionStatus
  /// Whether Location Services are on.
  public var servicesEnabled: Bool
  /// Precise (`full`) or approximate (`reduced`) location for the app.
  public var accuracy: LocationAccuracyAuthorization
  /// Whether the app is in the foreground or the background.
  public var app: AppState
  /// Whether the permission prompt is on screen.
  public var promptOnScreen: Bool
  /// How the scripted user answers the next prompt.
  public var promptAnswer: PromptAnswer?
  /// Whether the fixes of what the phone plays are held back (a lost fix, a tunnel).
  public var fixLost: Bool
  /// The newest fix of what the phone plays, whatever the permission; nil before the first.
  public var lastFix: LocationFix?
  /// Time on the phone's clock since it started.
  public var elapsed: Duration
  /// The state as the server sent it (every member, those above and the rest), one JSON object.
  public var json: String

  /// The permission state these members make.
  public var permission: PermissionState {
    var state = PermissionState(appStatus: status, servicesEnabled: servicesEnabled)
    state.accuracy = accuracy
    state.app = app
    return state
  }

  /// The state the server sent in `data`.
  init(json data: Data) throws(EmulatorClientError) {
    let state: Wire.PhoneState
    do {
      state = try Wire.decode(Wire.PhoneState.self, from: data)
    } catch {
      throw .badRequest("the server's answer is not a phone's state (\(error)): \(String(decoding: data.prefix(200), as: UTF8.self))")
    }
    self.init(state, json: String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
  }

  /// The members of a decoded state.
  public init(_ state: Wire.PhoneState, json: String) {
    id = state.id
    self.json = json
    status = state.status
    accuracy = state.accuracy
    app = state.app
    servicesEnabled = state.services == .on
    promptOnScreen = state.promptOnScreen
    promptAnswer = state.promptAnswer
    fixLost = state.fixLost
    lastFix = state.lastFix?.locationFix
    elapsed = Wire.duration(seconds: state.elapsed)
  }
}
