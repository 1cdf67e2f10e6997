public import Emulator
import Foundation
import Geo
public import LocationModel

/// The HTTP API of `locemu serve` (`openapi.yaml`) as Codable values: what the server decodes
/// and encodes, what the Swift client and `locemu ctl` send and read. One model for all three,
/// so that the contract is written once.
///
/// Requests are decoded strictly by type (a number is not a string, `true` is not `1`);
/// unknown members are ignored; ranges are checked by the server after decoding.
public enum Wire {
  /// A location: `POST /phones/{id}/location`, a route's waypoint, a new phone's location.
  public struct Location: Codable, Sendable, Hashable {
    /// Latitude, in degrees.
    public var lat: Double
    /// Longitude, in degrees.
    public var lon: Double
    /// Metres above mean sea level.
    public var altitude: Double?
    /// Horizontal accuracy, in metres.
    public var horizontalAccuracy: Double?
    /// Vertical accuracy, in metres.
    public var verticalAccuracy: Double?
    /// m/s.
    public var speed: Double?
    /// Degrees true.
    public var course: Double?

    /// Creates a location: each parameter sets the member of the same name.
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
    /// Location Services on (`on`) or off (`off`).
    case on, off
  }

  /// `POST /phones`: every member optional (a new iPhone's defaults).
  public struct NewPhone: Codable, Sendable, Hashable {
    /// The app's permission status to start with.
    public var permission: LocationPermissionStatus?
    /// Location Services on or off.
    public var services: Switch?
    /// Precise (`full`) or approximate (`reduced`) location for the app.
    public var accuracy: LocationAccuracyAuthorization?
    /// Whether the app starts in the foreground or the background.
    public var app: AppState?
    /// Whether the app declared background location updates.
    public var backgroundLocationUpdates: Bool?
    /// How the scripted user answers the permission prompt.
    public var promptAnswer: PromptAnswer?
    /// Seconds.
    public var promptDelay: Double?
    /// A location the phone is at from the start (not with `trace`).
    public var location: Location?
    /// A trace the phone plays from the start (not with `location`).
    public var trace: TraceRun?
    /// A realistic receiver under what the phone plays (see ``Realism``).
    public var realism: Realism?
    /// Whether the phone runs the lost-pets app's map features (the landing page's map
    /// preview, the fullscreen map): its map events (`tap`, `back`, `swipeBack`, `retry`) then
    /// apply through `POST /phones/{id}/events`, and its lines (`preview`, `navigation`,
    /// `fullscreenMap`, …, as `locemu preview` writes them) join the phone's event stream.
    public var mapFeatures: Bool?

    /// Creates a request: each parameter sets the member of the same name; nil keeps a new iPhone's default.
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
    /// The built-in receiver profile (`open-sky`, `suburban`, …); nil turns realism off.
    public var profile: String?
    /// The receiver's seed (default 1); phones of one seed err independently.
    public var seed: UInt64?
    /// `cold` (default), `warm` or `hot`.
    public var start: String?
    /// Assisted GNSS, as a phone has (default true); false for a standalone receiver.
    public var assisted: Bool?

    /// Creates a value from its members: each parameter sets the member of the same name.
    public init(profile: String?, seed: UInt64? = nil, start: String? = nil, assisted: Bool? = nil) {
      self.profile = profile
      self.seed = seed
      self.start = start
      self.assisted = assisted
    }
  }

  /// `POST /phones/{id}/route`.
  public struct Route: Codable, Sendable, Hashable {
    /// The route, walked from the first point (1 to 10,000 points).
    public var waypoints: [Location]
    /// m/s (1.4 when nil).
    public var speed: Double?
    /// Seconds between fixes (1 when nil).
    public var interval: Double?

    /// Creates a value from its members: each parameter sets the member of the same name.
    public init(waypoints: [Location], speed: Double? = nil, interval: Double? = nil) {
      self.waypoints = waypoints
      self.speed = speed
      self.interval = interval
    }
  }

  /// A trace file's format, as the API names it (the trace library's formats, by the same names;
  /// the wire model depends on no trace reader).
  public enum TraceFormat: String, Codable, Sendable, Hashable, CaseIterable {
    /// NMEA sentences, GPX, JSON lines of fix records, KML, or GeoJSON.
    case nmea, gpx, jsonl, kml, geojson
  }

  /// A trace to play and how (`POST /phones/{id}/trace` with JSON, a new phone's trace): a
  /// `name` of the server's `--traces` directory, or `data`, the trace's text.
  public struct TraceRun: Codable, Sendable, Hashable {
    /// A trace of the server's `--traces` directory, by name (give `name` or `data`).
    public var name: String?
    /// The trace's text, sent in the request (give `name` or `data`).
    public var data: String?
    /// Refused: a request names no file of the server's machine. Decoded to say so.
    public var path: String?
    /// The trace's format; nil to tell it from the name or the contents.
    public var format: TraceFormat?
    /// Trace seconds per clock second (1 when nil).
    public var speed: Double?
    /// Whether to start again at the end (false when nil).
    public var loop: Bool?
    /// Seconds of the trace to skip.
    public var offset: Double?

    /// Creates a value from its members: each parameter sets the member of the same name.
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
    /// What a request does to the app's permission.
    public enum Action: String, Codable, Sendable, Hashable, CaseIterable {
      /// Grant it, revoke it (`denied`), reset it (`notDetermined`), or restrict it (`restricted`).
      case grant, revoke, reset, restrict
    }
    /// What to do to the app's permission.
    public var action: Action
    /// With `grant`: Always rather than When In Use.
    public var always: Bool?

    /// Creates a value from its members: each parameter sets the member of the same name.
    public init(action: Action, always: Bool? = nil) {
      self.action = action
      self.always = always
    }
  }

  /// `POST /phones/{id}/services`.
  public struct Services: Codable, Sendable, Hashable {
    /// Whether Location Services are on.
    public var enabled: Bool
    /// Creates a request that turns Location Services on or off.
    public init(enabled: Bool) { self.enabled = enabled }
  }

  /// `POST /phones/{id}/accuracy`.
  public struct Accuracy: Codable, Sendable, Hashable {
    /// Precise (`full`) or approximate (`reduced`) location for the app.
    public var accuracy: LocationAccuracyAuthorization
    /// Creates a request that sets the app's accuracy.
    public init(accuracy: LocationAccuracyAuthorization) { self.accuracy = accuracy }
  }

  /// `POST /phones/{id}/app`.
  public struct App: Codable, Sendable, Hashable {
    /// The app's state: foreground or background.
    public var state: AppState
    /// Creates a request that sets the app's state.
    public init(state: AppState) { self.state = state }
  }

  /// `POST /phones/{id}/prompt`.
  public struct Prompt: Codable, Sendable, Hashable {
    /// How the scripted user answers the next prompt.
    public var answer: PromptAnswer
    /// Seconds.
    public var delay: Double?

    /// Creates a value from its members: each parameter sets the member of the same name.
    public init(answer: PromptAnswer, delay: Double? = nil) {
      self.answer = answer
      self.delay = delay
    }
  }

  /// `POST /phones/{id}/events`: any scenario event, as `locemu permissions --at` spells it.
  public struct Event: Codable, Sendable, Hashable {
    /// The event, as `locemu permissions --at` spells it (`fix=lost`, `permission=denied`, …).
    public var event: String
    /// Creates a request that applies `event`.
    public init(event: String) { self.event = event }
  }

  /// The app's own calls, `POST /phones/{id}/calls/{call}`: `requestWhenInUseAuthorization()`
  /// (`authorize`), `requestAlwaysAuthorization()` (`authorizeAlways`), a one-shot location
  /// request (`request`), and the permission handler's `requestLocationWithPermissions()`, which
  /// asks first when the permission is not determined (`locate`).
  public enum Call: String, Codable, Sendable, Hashable, CaseIterable {
    /// The app asks for When In Use permission.
    case authorize
    /// The app asks for Always permission.
    case authorizeAlways
    /// The app asks for one location.
    case request
    /// The app asks for a location, asking for permission first when it is not determined.
    case locate
  }

  /// `POST /clock/advance`.
  public struct ClockAdvance: Codable, Sendable, Hashable {
    /// How far to move the virtual clock, in seconds (0 to 864000).
    public var seconds: Double
    /// Creates a request that moves the clock on by `seconds`.
    public init(seconds: Double) { self.seconds = seconds }
  }

  /// `GET /clock`.
  public struct Clock: Codable, Sendable, Hashable {
    /// Whether the clock is virtual (`--virtual-time`, moved by `POST /clock/advance`) rather than real.
    public var virtual: Bool
    /// Seconds on the clock since the server started.
    public var elapsed: Double

    /// Creates a value from its members: each parameter sets the member of the same name.
    public init(virtual: Bool, elapsed: Double) {
      self.virtual = virtual
      self.elapsed = elapsed
    }
  }

  /// What a phone's source plays and how far it got.
  public struct Playing: Codable, Sendable, Hashable {
    /// What kind of thing a phone plays.
    public enum Kind: String, Codable, Sendable, Hashable {
      /// A `source` (live, or a fixed point), a walked `route`, or a `trace`.
      case source, route, trace
    }
    /// What kind of thing plays.
    public var kind: Kind
    /// The trace's name, the source's description, or the route's waypoint count.
    public var name: String
    /// The fixes it has delivered so far.
    public var fixes: Int
    /// Fixes in all (a route's fixes, a trace's epochs); nil when open-ended (a source).
    public var total: Int?
    /// Whether it has ended (run out, failed, or stopped).
    public var ended: Bool
    /// Why it ended, when it ended with an error.
    public var error: String?
    /// Paused (`POST /phones/{id}/playback`); nil when not.
    public var paused: Bool?
    /// Where a seek bar stands: the index (from 0, of ``total``) of the trace's epoch or the
    /// route's fix that plays next; nil for a source (`POST /phones/{id}/seek` moves it).
    public var position: Int?

    /// Creates a value from its members: each parameter sets the member of the same name.
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
    /// The index (from 0) of the fix to jump to.
    public var fix: Int?
    /// The time to jump to, in seconds from the start.
    public var seconds: Double?

    /// Creates a value from its members: each parameter sets the member of the same name.
    public init(fix: Int? = nil, seconds: Double? = nil) {
      self.fix = fix
      self.seconds = seconds
    }
  }

  /// `POST /phones/{id}/playback`: pause what the phone plays, or resume it where it paused.
  public struct Playback: Codable, Sendable, Hashable {
    /// `true` to pause, `false` to resume.
    public var paused: Bool

    /// Creates a request that pauses (`true`) or resumes (`false`) what plays.
    public init(paused: Bool) { self.paused = paused }
  }
}
