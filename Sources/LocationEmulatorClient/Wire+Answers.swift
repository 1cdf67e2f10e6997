public import Emulator
public import Foundation
public import Geo
public import LocationModel

// The server's answers: a phone's state and its parts, lists, failures, and the event-stream
// lines (the requests are in Wire.swift).
extension Wire {
  /// A fix as the state carries it: a fix record's members (gpsd's TPV names).
  public struct Fix: Codable, Sendable, Hashable {
    /// The fix's UTC time, ISO 8601 with milliseconds; nil when unknown.
    public var time: String?
    /// The fix mode, gpsd's numbering: 1 no fix, 2 2D, 3 3D.
    public var mode: Int
    /// Latitude, in degrees; nil without a position.
    public var lat: Double?
    /// Longitude, in degrees; nil without a position.
    public var lon: Double?
    /// Metres above mean sea level.
    public var altMSL: Double?
    /// Metres above the WGS 84 ellipsoid.
    public var altHAE: Double?
    /// Speed over ground, m/s.
    public var speed: Double?
    /// Course over ground, degrees true.
    public var track: Double?
    /// Estimated horizontal error, metres.
    public var eph: Double?
    /// Estimated vertical error, metres.
    public var epv: Double?

    /// The members of `fix`.
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
    /// The phone's identifier on the server.
    public var id: String
    /// What the app reads (`denied` while Location Services are off).
    public var status: LocationPermissionStatus
    /// Location Services, on or off.
    public var services: Switch
    /// Precise (`full`) or approximate (`reduced`) location for the app.
    public var accuracy: LocationAccuracyAuthorization
    /// Whether the app is in the foreground or the background.
    public var app: AppState
    /// Whether the app declared background location updates.
    public var backgroundLocationUpdates: Bool
    /// Whether the permission prompt is on screen.
    public var promptOnScreen: Bool
    /// How the scripted user answers the next prompt.
    public var promptAnswer: PromptAnswer
    /// Seconds.
    public var promptDelay: Double
    /// Whether the fixes of what the phone plays are held back (a lost fix, a tunnel).
    public var fixLost: Bool
    /// Whether the phone is walking a route that has not ended.
    public var walkingRoute: Bool
    /// What the phone plays and how far it got; nil when it has played nothing.
    public var playing: Playing?
    /// The newest fix of what the phone plays, whatever the permission; nil before the first.
    public var lastFix: Fix?
    /// Seconds on the phone's clock since it started.
    public var elapsed: Double
    /// Clients connected to the phone's event stream now.
    public var eventClients: Int
    /// The realistic receiver under what it plays, when there is one.
    public var realism: Realism?
    /// True when the phone runs the lost-pets app's map features (made with
    /// ``NewPhone/mapFeatures``); absent otherwise.
    public var mapFeatures: Bool?

    /// Creates a value from its members: each parameter sets the member of the same name.
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
    /// Every phone's state.
    public var phones: [PhoneState]
    /// Creates a value from its members: each parameter sets the member of the same name.
    public init(phones: [PhoneState]) { self.phones = phones }
  }

  /// `GET /places?q=TEXT`: what a search of the server's maps found, best first.
  public struct PlaceList: Codable, Sendable, Hashable {
    /// The places found, best first.
    public var places: [Place]
    /// Creates a value from its members: each parameter sets the member of the same name.
    public init(places: [Place]) { self.places = places }
  }

  /// A place a search found: a coordinate typed in (kind `coordinate`), or a named feature of
  /// the server's maps (`place`, `station`, `water`, `park`, `street`, …).
  public struct Place: Codable, Sendable, Hashable {
    /// The place's name, or the coordinate as typed.
    public var name: String
    /// What it is: `coordinate`, `place`, `station`, `water`, `park`, `street`, …
    public var kind: String
    /// Latitude, in degrees.
    public var lat: Double
    /// Longitude, in degrees.
    public var lon: Double
    /// Creates a value from its members: each parameter sets the member of the same name.
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
    /// The traces of the server's directory, by name.
    public var names: [String]

    /// Creates a value from its members: each parameter sets the member of the same name.
    public init(directory: Bool, maxBytes: Int, names: [String]) {
      self.directory = directory
      self.maxBytes = maxBytes
      self.names = names
    }
  }

  /// Every refusal: `{"error": "…"}` with a 4xx status.
  public struct Failure: Codable, Sendable, Hashable {
    /// The server's message.
    public var error: String
    /// Creates a refusal with its message.
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
  /// What is wrong, in words.
  public var message: String
  /// The message.
  public var description: String { message }

  /// Creates an error with its message.
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
  /// The event's name (`fix`, `authorizeResult`, …).
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

extension Wire {
  /// Seconds from the server as a duration to the millisecond: a value no clock holds (beyond
  /// about 292 million years either way) is held at the limit rather than trapping.
  static func duration(seconds: Double) -> Duration {
    let milliseconds = (seconds * 1000).rounded()
    guard milliseconds.isFinite else { return .zero }
    return .milliseconds(Int64(max(-9.2e18, min(9.2e18, milliseconds))))
  }
}
