public import Foundation
public import Geo
public import LocationModel

/// One thing that happens in a scenario: the vocabulary of `--at TIME=EVENT`, scenario files and `--control stdin`.
public enum ScenarioEvent: Sendable, Hashable, CustomStringConvertible {
  /// The user changes the app's authorization in Settings.
  case permission(LocationPermissionStatus)
  /// Location Services switched system-wide.
  case services(Bool)
  /// Precise location switched for the app.
  case accuracy(LocationAccuracyAuthorization)
  /// The app leaves the foreground.
  case background
  /// The app returns to the foreground.
  case foreground
  /// The app calls `requestWhenInUseAuthorization()`.
  case authorize
  /// The app calls `requestAlwaysAuthorization()`.
  case authorizeAlways
  /// The app calls `requestLocation()` (never prompts).
  case request
  /// The app calls the handler's `requestLocationWithPermissions()` (prompts when needed).
  case locate
  /// The source stops (`false`) or resumes (`true`) delivering fixes.
  case fix(available: Bool)
  /// The user answers the prompt on screen now (for live control).
  case answer(PromptAnswer)
  /// The user taps the preview, goes back, swipes back, or retries after an error (map features).
  case tap, back, swipeBack, retry

  /// Whether the event is the map features' (a tap on the preview, back, swipe back, retry):
  /// something only an app with a map (`locemu preview`) can act on.
  public var isMapEvent: Bool {
    switch self {
    case .tap, .back, .swipeBack, .retry: true
    default: false
    }
  }

  /// Parses `permission=denied`, `services=off`, `accuracy=reduced`, `background`, `authorize`, `fix=lost`, ….
  public init(parsing text: String) throws(ScenarioError) {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    let parts = trimmed.split(separator: "=", maxSplits: 1).map(String.init)
    let name = parts.first ?? "", value = parts.count > 1 ? parts[1] : nil
    func need<T>(_ parsed: T?, _ expected: String) throws(ScenarioError) -> T {
      guard let parsed else {
        throw ScenarioError("'\(trimmed)': \(name) takes \(expected)")
      }
      return parsed
    }
    switch (name, value) {
    case ("permission", let v?):
      self = .permission(
        try need(LocationPermissionStatus(rawValue: v), LocationPermissionStatus.allCases.map(\.rawValue).joined(separator: "|")))
    case ("services", let v?):
      self = .services(try need(["on": true, "off": false][v], "on|off"))
    case ("accuracy", let v?):
      self = .accuracy(try need(LocationAccuracyAuthorization(rawValue: v), "full|reduced"))
    case ("fix", let v?):
      self = .fix(available: try need(["lost": false, "back": true][v], "lost|back"))
    case ("answer", let v?):
      self = .answer(try need(PromptAnswer(rawValue: v), PromptAnswer.allCases.map(\.rawValue).joined(separator: "|")))
    case ("background", nil): self = .background
    case ("foreground", nil): self = .foreground
    case ("authorize", nil): self = .authorize
    case ("authorizeAlways", nil): self = .authorizeAlways
    case ("request", nil): self = .request
    case ("locate", nil): self = .locate
    case ("tap", nil): self = .tap
    case ("back", nil): self = .back
    case ("swipeBack", nil): self = .swipeBack
    case ("retry", nil): self = .retry
    default:
      throw ScenarioError(
        "unknown event '\(trimmed)' (events: permission=STATE, services=on|off, accuracy=full|reduced, background, "
          + "foreground, authorize, authorizeAlways, request, locate, fix=lost|back, answer=ANSWER, tap, back, swipeBack, retry)")
    }
  }

  /// The event as `TIME=EVENT` writes it (`permission=denied`, `fix=lost`…): what ``init(parsing:)`` reads.
  public var description: String {
    switch self {
    case .permission(let s): "permission=\(s.rawValue)"
    case .services(let on): "services=\(on ? "on" : "off")"
    case .accuracy(let a): "accuracy=\(a.rawValue)"
    case .background: "background"
    case .foreground: "foreground"
    case .authorize: "authorize"
    case .authorizeAlways: "authorizeAlways"
    case .request: "request"
    case .locate: "locate"
    case .fix(let available): "fix=\(available ? "back" : "lost")"
    case .answer(let a): "answer=\(a.rawValue)"
    case .tap: "tap"
    case .back: "back"
    case .swipeBack: "swipeBack"
    case .retry: "retry"
    }
  }
}

/// A scenario that cannot be understood.
public struct ScenarioError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What is wrong, in words.
  public var description: String
  /// An error saying `description`.
  /// - Parameter description: what is wrong, in words.
  public init(_ description: String) { self.description = description }
}

/// A timeline of events on one clock, with the state it starts from.
public struct Scenario: Sendable, Hashable {
  /// One event of a scenario and when it happens.
  public struct Step: Sendable, Hashable {
    /// Seconds from the start.
    public var at: Double
    /// What happens then.
    public var event: ScenarioEvent
    /// A step at `at` seconds from the start.
    /// - Parameters:
    ///   - at: seconds from the start.
    ///   - event: what happens then.
    public init(at: Double, event: ScenarioEvent) {
      self.at = at
      self.event = event
    }
  }

  /// The permission state at the start.
  public var initial: PermissionState
  /// How the scripted user answers the permission prompt.
  public var promptAnswer: PromptAnswer
  /// Seconds the scripted user takes to answer.
  public var promptDelay: Double
  /// In time order (stable for equal times).
  public private(set) var steps: [Step]
  /// Seconds the scenario runs; nil: until the last step plus ``settleTime``.
  public var duration: Double?

  /// How long a scenario goes on after its last step by default: long enough for a
  /// location request to time out and a prompt to be answered.
  public var settleTime: Double { 10 + promptDelay + 1 }

  /// A scenario; its steps are put in time order, as ``add(_:)`` does.
  /// - Parameters:
  ///   - initial: the permission state at the start.
  ///   - promptAnswer: how the scripted user answers the permission prompt.
  ///   - promptDelay: seconds the scripted user takes to answer.
  ///   - steps: the events and their times, in any order.
  ///   - duration: seconds the scenario runs; nil: until the last step plus ``settleTime``.
  public init(
    initial: PermissionState = PermissionState(), promptAnswer: PromptAnswer = .allowWhileUsing,
    promptDelay: Double = 1, steps: [Step] = [], duration: Double? = nil
  ) {
    self.initial = initial
    self.promptAnswer = promptAnswer
    self.promptDelay = promptDelay
    self.steps = []
    self.duration = duration
    for step in steps { add(step) }
  }

  /// Adds a step, keeping time order (after steps at the same time).
  public mutating func add(_ step: Step) {
    let index = steps.firstIndex { $0.at > step.at } ?? steps.endIndex
    steps.insert(step, at: index)
  }

  /// When the scenario ends, in seconds.
  public var end: Double { duration ?? ((steps.last?.at ?? 0) + settleTime) }

  /// Parses `TIME=EVENT`, e.g. `5=permission=denied` or `2.5=background`.
  public static func step(parsing text: String) throws(ScenarioError) -> Step {
    guard let equals = text.firstIndex(of: "="), let at = Double(text[..<equals]), at >= 0, at.isFinite else {
      throw ScenarioError("'\(text)' is not TIME=EVENT (TIME in seconds, e.g. 5=permission=denied)")
    }
    return Step(at: at, event: try ScenarioEvent(parsing: String(text[text.index(after: equals)...])))
  }

  /// Parses a scenario file: JSON with the members `permission`, `services`, `accuracy`,
  /// `app`, `promptAnswer`, `promptDelay`, `duration` and `events` (a list of
  /// `{"at": seconds, "event": "permission=denied"}` or `"TIME=EVENT"` strings).
  public init(json data: Data) throws(ScenarioError) {
    guard let document = JSONValue(parsing: data) else { throw ScenarioError("not JSON") }
    guard let members = document.object else { throw ScenarioError("a scenario is a JSON object") }
    try self.init(members: members)
  }

  /// Builds a scenario from already-decoded members.
  public init(members d: [String: JSONValue]) throws(ScenarioError) {
    self.init()
    let known: Set = [
      "permission", "services", "accuracy", "app", "backgroundLocationUpdates", "promptAnswer", "promptDelay", "duration",
      "events",
    ]
    if let unknown = d.keys.sorted().first(where: { !known.contains($0) }) {
      throw ScenarioError("unknown member '\(unknown)' (members: \(known.sorted().joined(separator: ", ")))")
    }
    func string(_ key: String) throws(ScenarioError) -> String? {
      guard let value = d[key] else { return nil }
      if let b = value.bool, key == "services" { return b ? "on" : "off" }
      guard let s = value.string else { throw ScenarioError("'\(key)' must be a string") }
      return s
    }
    func number(_ key: String) throws(ScenarioError) -> Double? {
      guard let value = d[key] else { return nil }
      guard let n = value.number ?? value.string.flatMap(Double.init), n >= 0, n.isFinite
      else { throw ScenarioError("'\(key)' must be a number of seconds, 0 or more") }
      return n
    }
    if let v = try string("permission") {
      guard let s = LocationPermissionStatus(rawValue: v) else { throw ScenarioError("permission: unknown status '\(v)'") }
      initial.appStatus = s
    }
    if let v = try string("services") {
      guard let on = ["on": true, "off": false][v] else { throw ScenarioError("services: on or off, got '\(v)'") }
      initial.servicesEnabled = on
    }
    if let v = try string("accuracy") {
      guard let a = LocationAccuracyAuthorization(rawValue: v) else { throw ScenarioError("accuracy: full or reduced, got '\(v)'") }
      initial.accuracy = a
    }
    if let v = try string("app") {
      guard let a = AppState(rawValue: v) else { throw ScenarioError("app: foreground or background, got '\(v)'") }
      initial.app = a
    }
    if let v = d["backgroundLocationUpdates"] {
      guard let on = v.bool else { throw ScenarioError("'backgroundLocationUpdates' must be true or false") }
      initial.backgroundLocationUpdates = on
    }
    if let v = try string("promptAnswer") {
      guard let a = PromptAnswer(rawValue: v) else { throw ScenarioError("promptAnswer: unknown answer '\(v)'") }
      promptAnswer = a
    }
    if let v = try number("promptDelay") { promptDelay = v }
    if let v = try number("duration") { duration = v }
    if let events = d["events"] {
      guard let list = events.array else { throw ScenarioError("'events' must be a list") }
      for (i, item) in list.enumerated() {
        if let text = item.string {
          add(try Scenario.step(parsing: text))
        } else if let text = item["event"]?.string, let at = item["at"]?.number, at >= 0, at.isFinite {
          add(Step(at: at, event: try ScenarioEvent(parsing: text)))
        } else {
          throw ScenarioError("events[\(i)]: expected {\"at\": SECONDS, \"event\": \"EVENT\"} or \"TIME=EVENT\"")
        }
      }
    }
  }
}
