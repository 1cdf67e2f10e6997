public import Emulator
public import Foundation
public import Geo
public import LocationServices

/// The HTTP API of `locemu serve` (`openapi.yaml`) as Codable values: what the server decodes
/// and encodes, what the Swift client and `locemu ctl` send and read. One model for all three,
/// so that the contract is written once.
///
/// Requests are decoded strictly by type (a number is not a string, `true` is not `1`);
/// unknown members are ignored; ranges are checked by the server after decoding.
public enum Wire {
  /// A location: `POST /phones/{id}/location`, a route's waypoint, a new phone's location.
  public struct Location: Codable, Sendable, Hashable {
    public var lat: Double
    public var lon: Double
    /// Metres above mean sea level.
    public var altitude: Double?
    public var horizontalAccuracy: Double?
    public var verticalAccuracy: Double?
    /// m/s.
    public var speed: Double?
    /// Degrees true.
    public var course: Double?

    public init(
      lat: Double, lon: Double, altitude: Double? = nil, horizontalAccuracy: Double? = nil, verticalAccuracy: Double? = nil,
      speed: Double? = nil, course: Double? = nil
    ) {
      self.lat = lat
      self.lon = lon
      self.altitude = altitude
      self.horizontalAccuracy = horizontalAccuracy
      self.verticalAccuracy = verticalAccuracy
      self.speed = speed
      self.course = course
    }

    /// The members of `fix` (nil without a coordinate).
    public init?(_ fix: LocationFix) {
      guard let c = fix.coordinate else { return nil }
      self.init(
        lat: c.latitude, lon: c.longitude, altitude: fix.altitudeMSL, horizontalAccuracy: fix.horizontalAccuracy,
        verticalAccuracy: fix.verticalAccuracy, speed: fix.speed, course: fix.course)
    }
  }

  /// Location Services as the state spells them.
  public enum Switch: String, Codable, Sendable, Hashable, CaseIterable {
    case on, off
  }

  /// `POST /phones`: every member optional (a new iPhone's defaults).
  public struct NewPhone: Codable, Sendable, Hashable {
    public var permission: LocationPermissionStatus?
    public var services: Switch?
    public var accuracy: LocationAccuracyAuthorization?
    public var app: AppState?
    public var backgroundLocationUpdates: Bool?
    public var promptAnswer: PromptAnswer?
    /// Seconds.
    public var promptDelay: Double?
    public var location: Location?
    public var trace: TraceRun?
    /// A realistic receiver under what the phone plays (see ``Realism``).
    public var realism: Realism?
    /// Whether the phone runs the lost-pets app's map features (the landing page's map
    /// preview, the fullscreen map): its map events (`tap`, `back`, `swipeBack`, `retry`) then
    /// apply through `POST /phones/{id}/events`, and its lines (`preview`, `navigation`,
    /// `fullscreenMap`, …, as `locemu preview` writes them) join the phone's event stream.
    public var mapFeatures: Bool?

    public init(
      permission: LocationPermissionStatus? = nil, services: Switch? = nil, accuracy: LocationAccuracyAuthorization? = nil,
      app: AppState? = nil, backgroundLocationUpdates: Bool? = nil, promptAnswer: PromptAnswer? = nil, promptDelay: Double? = nil,
      location: Location? = nil, trace: TraceRun? = nil, realism: Realism? = nil, mapFeatures: Bool? = nil
    ) {
      self.mapFeatures = mapFeatures
      self.realism = realism
      self.permission = permission
      self.services = services
      self.accuracy = accuracy
      self.app = app
      self.backgroundLocationUpdates = backgroundLocationUpdates
      self.promptAnswer = promptAnswer
      self.promptDelay = promptDelay
      self.location = location
      self.trace = trace
    }
  }

  /// `POST /phones/{id}/realism` (and `realism` in `POST /phones`): what the phone plays from
  /// now on is the truth, and a seeded GNSS receiver of the built-in `profile` (`open-sky`,
  /// `suburban`, `urban-canyon`, `indoor`, `tunnel`) reports it; `profile` null turns it off.
  public struct Realism: Codable, Sendable, Hashable {
    public var profile: String?
    /// The receiver's seed (default 1); phones of one seed err independently.
    public var seed: UInt64?
    /// `cold` (default), `warm` or `hot`.
    public var start: String?
    /// Assisted GNSS, as a phone has (default true); false for a standalone receiver.
    public var assisted: Bool?

    public init(profile: String?, seed: UInt64? = nil, start: String? = nil, assisted: Bool? = nil) {
      self.profile = profile
      self.seed = seed
      self.start = start
      self.assisted = assisted
    }
  }

  /// `POST /phones/{id}/route`.
  public struct Route: Codable, Sendable, Hashable {
    public var waypoints: [Location]
    /// m/s (1.4 when nil).
    public var speed: Double?
    /// Seconds between fixes (1 when nil).
    public var interval: Double?

    public init(waypoints: [Location], speed: Double? = nil, interval: Double? = nil) {
      self.waypoints = waypoints
      self.speed = speed
      self.interval = interval
    }
  }

  /// A trace file's format, as the API names it (the trace library's formats, by the same names;
  /// the wire model depends on no trace reader).
  public enum TraceFormat: String, Codable, Sendable, Hashable, CaseIterable {
    case nmea, gpx, jsonl, kml, geojson
  }

  /// A trace to play and how (`POST /phones/{id}/trace` with JSON, a new phone's trace): a
  /// `name` of the server's `--traces` directory, or `data`, the trace's text.
  public struct TraceRun: Codable, Sendable, Hashable {
    public var name: String?
    public var data: String?
    /// Refused: a request names no file of the server's machine. Decoded to say so.
    public var path: String?
    public var format: TraceFormat?
    /// Trace seconds per clock second (1 when nil).
    public var speed: Double?
    public var loop: Bool?
    /// Seconds of the trace to skip.
    public var offset: Double?

    public init(
      name: String? = nil, data: String? = nil, format: TraceFormat? = nil, speed: Double? = nil, loop: Bool? = nil,
      offset: Double? = nil
    ) {
      self.name = name
      self.data = data
      self.format = format
      self.speed = speed
      self.loop = loop
      self.offset = offset
    }
  }

  /// `POST /phones/{id}/privacy`.
  public struct Privacy: Codable, Sendable, Hashable {
    public enum Action: String, Codable, Sendable, Hashable, CaseIterable { case grant, revoke, reset, restrict }
    public var action: Action
    /// With `grant`: Always rather than When In Use.
    public var always: Bool?

    public init(action: Action, always: Bool? = nil) {
      self.action = action
      self.always = always
    }
  }

  /// `POST /phones/{id}/services`.
  public struct Services: Codable, Sendable, Hashable {
    public var enabled: Bool
    public init(enabled: Bool) { self.enabled = enabled }
  }

  /// `POST /phones/{id}/accuracy`.
  public struct Accuracy: Codable, Sendable, Hashable {
    public var accuracy: LocationAccuracyAuthorization
    public init(accuracy: LocationAccuracyAuthorization) { self.accuracy = accuracy }
  }

  /// `POST /phones/{id}/app`.
  public struct App: Codable, Sendable, Hashable {
    public var state: AppState
    public init(state: AppState) { self.state = state }
  }

  /// `POST /phones/{id}/prompt`.
  public struct Prompt: Codable, Sendable, Hashable {
    public var answer: PromptAnswer
    /// Seconds.
    public var delay: Double?

    public init(answer: PromptAnswer, delay: Double? = nil) {
      self.answer = answer
      self.delay = delay
    }
  }

  /// `POST /phones/{id}/events`: any scenario event, as `locemu permissions --at` spells it.
  public struct Event: Codable, Sendable, Hashable {
    public var event: String
    public init(event: String) { self.event = event }
  }

  /// `POST /clock/advance`.
  public struct ClockAdvance: Codable, Sendable, Hashable {
    public var seconds: Double
    public init(seconds: Double) { self.seconds = seconds }
  }

  /// `GET /clock`.
  public struct Clock: Codable, Sendable, Hashable {
    public var virtual: Bool
    /// Seconds on the clock since the server started.
    public var elapsed: Double

    public init(virtual: Bool, elapsed: Double) {
      self.virtual = virtual
      self.elapsed = elapsed
    }
  }

  /// What a phone's source plays and how far it got.
  public struct Playing: Codable, Sendable, Hashable {
    public enum Kind: String, Codable, Sendable, Hashable { case source, route, trace }
    public var kind: Kind
    /// The trace's name, the source's description, or the route's waypoint count.
    public var name: String
    public var fixes: Int
    /// Fixes in all (a route's fixes, a trace's epochs); nil when open-ended (a source).
    public var total: Int?
    public var ended: Bool
    public var error: String?
    /// Paused (`POST /phones/{id}/playback`); nil when not.
    public var paused: Bool?
    /// Where a seek bar stands: the index (from 0, of ``total``) of the trace's epoch or the
    /// route's fix that plays next; nil for a source (`POST /phones/{id}/seek` moves it).
    public var position: Int?

    public init(
      kind: Kind, name: String, fixes: Int = 0, total: Int? = nil, ended: Bool = false, error: String? = nil, paused: Bool? = nil,
      position: Int? = nil
    ) {
      self.kind = kind
      self.name = name
      self.fixes = fixes
      self.total = total
      self.ended = ended
      self.error = error
      self.paused = paused
      self.position = position
    }
  }

  /// `POST /phones/{id}/seek`: jump within the trace or route the phone plays, paused or
  /// playing, to a fix (its index, from 0) or a time (seconds from its start); one of the two.
  public struct Seek: Codable, Sendable, Hashable {
    public var fix: Int?
    public var seconds: Double?

    public init(fix: Int? = nil, seconds: Double? = nil) {
      self.fix = fix
      self.seconds = seconds
    }
  }

  /// `POST /phones/{id}/playback`: pause what the phone plays, or resume it where it paused.
  public struct Playback: Codable, Sendable, Hashable {
    public var paused: Bool

    public init(paused: Bool) { self.paused = paused }
  }

  /// A fix as the state carries it: a fix record's members (gpsd's TPV names).
  public struct Fix: Codable, Sendable, Hashable {
    public var time: String?
    public var mode: Int
    public var lat: Double?
    public var lon: Double?
    public var altMSL: Double?
    public var altHAE: Double?
    public var speed: Double?
    public var track: Double?
    public var eph: Double?
    public var epv: Double?

    public init(_ fix: LocationFix) {
      time = fix.timestamp.map(FixRecord.iso8601)
      mode = fix.mode.rawValue
      lat = fix.coordinate?.latitude
      lon = fix.coordinate?.longitude
      altMSL = fix.altitudeMSL
      altHAE = fix.altitudeHAE
      speed = fix.speed
      track = fix.course
      eph = fix.horizontalAccuracy
      epv = fix.verticalAccuracy
    }

    /// The fix these members describe (nil when they do not make one: a bad time or range).
    public var locationFix: LocationFix? {
      var members: [String: JSONValue] = ["mode": .number(Double(mode))]
      if let time { members["time"] = .string(time) }
      for (key, value) in [
        ("lat", lat), ("lon", lon), ("altMSL", altMSL), ("altHAE", altHAE), ("speed", speed), ("track", track), ("eph", eph),
        ("epv", epv),
      ] {
        if let value { members[key] = .number(value) }
      }
      return FixRecord.fix(members)
    }
  }

  /// A phone's whole state: `GET /phones/{id}`, and the answer to every change.
  public struct PhoneState: Codable, Sendable, Hashable {
    public var id: String
    /// What the app reads (`denied` while Location Services are off).
    public var status: LocationPermissionStatus
    public var services: Switch
    public var accuracy: LocationAccuracyAuthorization
    public var app: AppState
    public var backgroundLocationUpdates: Bool
    public var promptOnScreen: Bool
    public var promptAnswer: PromptAnswer
    /// Seconds.
    public var promptDelay: Double
    public var fixLost: Bool
    public var walkingRoute: Bool
    public var playing: Playing?
    public var lastFix: Fix?
    /// Seconds on the phone's clock since it started.
    public var elapsed: Double
    public var eventClients: Int
    /// The realistic receiver under what it plays, when there is one.
    public var realism: Realism?
    /// True when the phone runs the lost-pets app's map features (made with
    /// ``NewPhone/mapFeatures``); absent otherwise.
    public var mapFeatures: Bool?

    public init(
      id: String, status: LocationPermissionStatus, services: Switch, accuracy: LocationAccuracyAuthorization, app: AppState,
      backgroundLocationUpdates: Bool, promptOnScreen: Bool, promptAnswer: PromptAnswer, promptDelay: Double, fixLost: Bool,
      walkingRoute: Bool, playing: Playing?, lastFix: Fix?, elapsed: Double, eventClients: Int, realism: Realism? = nil,
      mapFeatures: Bool? = nil
    ) {
      self.mapFeatures = mapFeatures
      self.realism = realism
      self.id = id
      self.status = status
      self.services = services
      self.accuracy = accuracy
      self.app = app
      self.backgroundLocationUpdates = backgroundLocationUpdates
      self.promptOnScreen = promptOnScreen
      self.promptAnswer = promptAnswer
      self.promptDelay = promptDelay
      self.fixLost = fixLost
      self.walkingRoute = walkingRoute
      self.playing = playing
      self.lastFix = lastFix
      self.elapsed = elapsed
      self.eventClients = eventClients
    }

    /// Encoded with `null` for what is absent (`playing`, `lastFix`), as the API documents;
    /// `realism` and `mapFeatures` only when set.
    public func encode(to encoder: any Encoder) throws {
      var c = encoder.container(keyedBy: CodingKeys.self)
      try c.encode(id, forKey: .id)
      try c.encode(status, forKey: .status)
      try c.encode(services, forKey: .services)
      try c.encode(accuracy, forKey: .accuracy)
      try c.encode(app, forKey: .app)
      try c.encode(backgroundLocationUpdates, forKey: .backgroundLocationUpdates)
      try c.encode(promptOnScreen, forKey: .promptOnScreen)
      try c.encode(promptAnswer, forKey: .promptAnswer)
      try c.encode(promptDelay, forKey: .promptDelay)
      try c.encode(fixLost, forKey: .fixLost)
      try c.encode(walkingRoute, forKey: .walkingRoute)
      try c.encode(playing, forKey: .playing)
      try c.encode(lastFix, forKey: .lastFix)
      try c.encode(elapsed, forKey: .elapsed)
      try c.encode(eventClients, forKey: .eventClients)
      try c.encodeIfPresent(realism, forKey: .realism)
      try c.encodeIfPresent(mapFeatures, forKey: .mapFeatures)
    }
  }

  /// `GET /phones`.
  public struct PhoneList: Codable, Sendable, Hashable {
    public var phones: [PhoneState]
    public init(phones: [PhoneState]) { self.phones = phones }
  }

  /// `GET /places?q=TEXT`: what a search of the server's maps found, best first.
  public struct PlaceList: Codable, Sendable, Hashable {
    public var places: [Place]
    public init(places: [Place]) { self.places = places }
  }

  /// A place a search found: a coordinate typed in (kind `coordinate`), or a named feature of
  /// the server's maps (`place`, `station`, `water`, `park`, `street`, …).
  public struct Place: Codable, Sendable, Hashable {
    public var name: String
    public var kind: String
    public var lat: Double
    public var lon: Double
    public init(name: String, kind: String, lat: Double, lon: Double) {
      self.name = name
      self.kind = kind
      self.lat = lat
      self.lon = lon
    }
  }

  /// `GET /traces`.
  public struct TraceList: Codable, Sendable, Hashable {
    /// Whether the server has a trace directory.
    public var directory: Bool
    /// The largest trace the server takes, uploaded or named.
    public var maxBytes: Int
    public var names: [String]

    public init(directory: Bool, maxBytes: Int, names: [String]) {
      self.directory = directory
      self.maxBytes = maxBytes
      self.names = names
    }
  }

  /// Every refusal: `{"error": "…"}` with a 4xx status.
  public struct Failure: Codable, Sendable, Hashable {
    public var error: String
    public init(error: String) { self.error = error }
  }

  /// The encoder every side uses: members in declaration order, no escaped slashes.
  public static func encode<T: Encodable>(_ value: T) -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.withoutEscapingSlashes]
    // Wire values always encode: their members are strings, numbers and booleans.
    return (try? encoder.encode(value)) ?? Data("{}".utf8)
  }

  /// `value` from JSON, with the decoder's complaint as the error's text ("speed: expected a number").
  public static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws(WireError) -> T {
    do {
      return try JSONDecoder().decode(type, from: data)
    } catch let error as DecodingError {
      throw WireError(decoding: error)
    } catch {
      throw WireError(message: "not JSON: \(error)")
    }
  }
}

/// Why a body is not the JSON asked for, in words for an error answer.
public struct WireError: Error, Sendable, Hashable, CustomStringConvertible {
  public var message: String
  public var description: String { message }

  public init(message: String) { self.message = message }

  init(decoding error: DecodingError) {
    func path(_ keys: [any CodingKey]) -> String {
      keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".").replacingOccurrences(of: ".[", with: "[")
    }
    switch error {
    case .keyNotFound(let key, let context):
      let at = path(context.codingPath)
      message = "give \"\(key.stringValue)\"" + (at.isEmpty ? "" : " in \(at)")
    case .typeMismatch(let type, let context):
      message = "\(path(context.codingPath)): expected \(Self.name(of: type))"
    case .valueNotFound(let type, let context):
      message = "\(path(context.codingPath)): expected \(Self.name(of: type)), not null"
    case .dataCorrupted(let context):
      let at = path(context.codingPath)
      message = at.isEmpty ? "the body must be a JSON object" : "\(at): \(Self.allowed(at: context) ?? "not a value it takes")"
    @unknown default:
      message = "the body is not the JSON asked for"
    }
  }

  private static func name(of type: Any.Type) -> String {
    switch type {
    case is Double.Type, is Int.Type: "a number"
    case is Bool.Type: "true or false"
    case is String.Type: "a string"
    default: "an object of its kind"
    }
  }

  /// For an enum member that got an unknown string: the values it takes.
  private static func allowed(at context: DecodingError.Context) -> String? {
    guard let key = context.codingPath.last?.stringValue else { return nil }
    let values: [String]? =
      switch key {
      case "permission", "status": LocationPermissionStatus.allCases.map(\.rawValue)
      case "accuracy": LocationAccuracyAuthorization.allCases.map(\.rawValue)
      case "app", "state": AppState.allCases.map(\.rawValue)
      case "services": Wire.Switch.allCases.map(\.rawValue)
      case "promptAnswer", "answer": PromptAnswer.allCases.map(\.rawValue)
      case "action": Wire.Privacy.Action.allCases.map(\.rawValue)
      case "format": Wire.TraceFormat.allCases.map(\.rawValue)
      default: nil
      }
    return values.map { "one of \($0.joined(separator: ", "))" }
  }
}

/// One line of a phone's transcript: `t`, `event` and its members (those of `locemu
/// permissions --json`, which differ per event).
public struct TranscriptEvent: Sendable, Hashable {
  /// Seconds since the phone started.
  public var t: Double
  public var event: String
  /// Every member of the line (t and event included).
  public var members: [String: JSONValue]
  /// The line as the server sent it.
  public var json: String

  /// The line `json` decoded; nil when it is not a transcript line.
  public init?(json: String) {
    guard let members = JSONValue(parsing: Data(json.utf8))?.object, let event = members["event"]?.string else { return nil }
    self.json = json
    self.event = event
    t = members["t"]?.number ?? 0
    self.members = members
  }

  /// A member that is a string.
  public func string(_ name: String) -> String? { members[name]?.string }

  /// A member that is a fix record (`result` of a call); nil when null or absent.
  public func fix(_ name: String) -> LocationFix? { members[name]?.object.flatMap(FixRecord.fix) }

  /// The line's own fix record (a `fix` line's members).
  public var fix: LocationFix? { FixRecord.fix(members) }
}
