public import ArgumentParser
import Emulator
import Foundation
import Geo
package import LocationEmulatorClient
package import LocationModel
import Traces

extension LocEmu {
  /// `locemu ctl`: a served phone driven from a shell, through the Swift client
  /// (``LocationEmulatorClient/RemotePhone``) and the API's wire model.
  struct Ctl: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "ctl",
      abstract: "Drive a phone of 'locemu serve' from a shell, as 'xcrun simctl location/privacy' drive a simulator.",
      discussion: """
        The server is --server or $LOCEMU_SERVER (default http://127.0.0.1:8947); the phone \
        is --phone or $LOCEMU_PHONE (default 1); the token --token or $LOCEMU_TOKEN: the same \
        variables a program bound to the served phone reads, so ctl drives that program's phone. \
        Options go before the verb. A southern or western coordinate needs no '--' \
        (locemu ctl location set -33.8688,151.2093), and one is accepted where options end.

        Example: locemu ctl privacy revoke && locemu ctl status

        Exit status: 0 done; 1 the server refused (its one-line message on standard error); \
        2 the server could not be reached; 64 bad usage.
        """,
      subcommands: [
        Status.self, Location.self, Privacy.self, Services.self, Accuracy.self, Realism.self, App.self, Prompt.self, Call.self,
        Event.self, Events.self, Phones.self, Clock.self, Traces.self,
      ]
    )

    @Option(help: ArgumentHelp("The server (default: $LOCEMU_SERVER, else http://127.0.0.1:8947).", valueName: "URL"))
    var server: String?

    @Option(help: ArgumentHelp("The server's token (default: $LOCEMU_TOKEN), for a server beyond loopback.", valueName: "TOKEN"))
    var token: String?

    @Option(name: .customLong("phone"), help: ArgumentHelp("The phone (default: $LOCEMU_PHONE, else 1).", valueName: "ID"))
    var phoneOption: String?

    @Option(
      help: ArgumentHelp(
        "How long to wait for the server's answer, in seconds (default 30): raise it for a long `clock advance` on a busy machine.",
        valueName: "SECONDS"))
    var timeout: Double = 30

    /// --phone, else `$LOCEMU_PHONE`, else 1: the phone a program bound with the same variables uses.
    var phone: String {
      phoneOption ?? ProcessInfo.processInfo.environment["LOCEMU_PHONE"].flatMap { $0.isEmpty ? nil : $0 } ?? "1"
    }

    var baseURL: String {
      (server ?? ProcessInfo.processInfo.environment["LOCEMU_SERVER"] ?? "http://127.0.0.1:8947")
        .trimmingCharacters(in: CharacterSet(charactersIn: "/"))
    }

    func validate() throws {
      guard let url = URL(string: baseURL), url.host != nil else { throw ValidationError("--server: '\(baseURL)' is not a URL") }
      guard timeout > 0, timeout <= 86_400 else { throw ValidationError("--timeout must be more than 0 and at most 86400 seconds") }
    }

    /// Without a verb: say so (exit 64) rather than print the help as if asked.
    func run() async throws { throw ValidationError("give a verb (locemu ctl --help lists them)") }

    /// The server, as the Swift client speaks to it.
    var client: EmulatorServer { EmulatorServer(url: URL(string: baseURL), token: token, timeout: timeout) }

    /// Runs one request and prints the server's answer (a state, a list) on standard output.
    static func print(_ request: () async throws(EmulatorClientError) -> Data) async throws {
      do {
        let data = try await request()
        let text = String(decoding: data, as: UTF8.self)
        if !text.isEmpty { writeOutput(text.hasSuffix("\n") ? text : text + "\n") }
      } catch {
        throw failure(error)
      }
    }

    /// Runs a client call that answers a phone's state, and prints the state as the server sent it.
    static func printState(_ call: () async throws(EmulatorClientError) -> RemotePhoneState) async throws {
      try await printJSON { () throws(EmulatorClientError) in try await call().json }
    }

    /// Runs a client call that answers JSON as the server sent it (a list, the clock), and prints it.
    static func printJSON(_ call: () async throws(EmulatorClientError) -> String) async throws {
      try await print { () throws(EmulatorClientError) in Data(try await call().utf8) }
    }

    /// The server refused (1, its message) or could not be reached (2).
    static func failure(_ error: EmulatorClientError) -> CommandFailure {
      switch error {
      case .unreachable: CommandFailure("\(error)", status: 2)
      case .refused, .badRequest: CommandFailure("\(error)")
      }
    }

    struct Status: AsyncParsableCommand {
      static let configuration = CommandConfiguration(commandName: "status", abstract: "The phone's state, one JSON object.")
      @ParentCommand var ctl: Ctl

      func run() async throws {
        let ctl = self.ctl
        try await Ctl.printState { () throws(EmulatorClientError) in try await ctl.client.phone(ctl.phone).state() }
      }
    }

    struct Location: AsyncParsableCommand {
      static let configuration = CommandConfiguration(
        commandName: "location",
        abstract: "Set, walk, play, pause or clear the phone's location.",
        subcommands: [Set.self, Start.self, Run.self, Pause.self, Resume.self, Seek.self, Clear.self])

      struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "set", abstract: "A fix now (what played stops; a lost fix is back).")
        @ParentCommand var ctl: Ctl
        // Taken as it comes, so that a southern latitude (-33.87,151.21) is not read as an option.
        @Argument(parsing: .allUnrecognized, help: ArgumentHelp("Where, e.g. 52.2297,21.0122 or -33.8688,151.2093.", valueName: "LAT,LON"))
        var points: [String]
        var point: Point { Point.positional(points).compactMap(Point.init(argument:))[0] }
        @Option(help: ArgumentHelp("Metres above mean sea level.", valueName: "M")) var altitude: Double?
        @Option(help: ArgumentHelp("Horizontal accuracy, metres (5 by default).", valueName: "M")) var accuracy: Double?
        @Option(help: ArgumentHelp("Speed, m/s.", valueName: "MPS")) var speed: Double?
        @Option(help: ArgumentHelp("Course, degrees true.", valueName: "DEG")) var course: Double?

        func validate() throws {
          let points = try Point.parse(points, command: self)
          guard points.count == 1 else { throw ValidationError("give one point: LAT,LON") }
        }

        func run() async throws {
          let location = Wire.Location(
            lat: point.latitude, lon: point.longitude, altitude: altitude, horizontalAccuracy: accuracy, speed: speed,
            course: course)
          let phone = ctl.client.phone(ctl.phone)
          try await Ctl.printState { () throws(EmulatorClientError) in try await phone.setLocation(location) }
        }
      }

      struct Start: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
          commandName: "start",
          abstract: "Walk a route of waypoints (default 1.4 m/s, a fix a second), as simctl location start.")
        @ParentCommand var ctl: Ctl
        @Option(help: ArgumentHelp("m/s.", valueName: "MPS")) var speed: Double?
        @Option(help: ArgumentHelp("Seconds between fixes.", valueName: "S")) var interval: Double?
        @Argument(parsing: .allUnrecognized, help: ArgumentHelp("The waypoints (negative ones as they are).", valueName: "LAT,LON"))
        var points: [String]
        var waypoints: [Point] { Point.positional(points).compactMap(Point.init(argument:)) }

        func validate() throws {
          if try Point.parse(points, command: self).isEmpty { throw ValidationError("give the waypoints: LAT,LON LAT,LON …") }
        }

        func run() async throws {
          let phone = ctl.client.phone(ctl.phone)
          let (speed, interval) = (speed, interval)
          let route = waypoints.map { Wire.Location(lat: $0.latitude, lon: $0.longitude) }
          try await Ctl.printState { () throws(EmulatorClientError) in
            try await phone.walkRoute(route, speed: speed, interval: interval)
          }
        }
      }

      struct Run: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
          commandName: "run",
          abstract:
            "Play a trace, stamped with the phone's time: a file of this machine (uploaded), or a trace of the server's --traces directory."
        )
        @ParentCommand var ctl: Ctl
        @Argument(help: ArgumentHelp("A trace file (NMEA, GPX or JSON lines), sent to the server.", valueName: "TRACE"))
        var trace: String?
        @Option(help: ArgumentHelp("A trace of the server's --traces directory instead.", valueName: "NAME")) var named: String?
        @Option(help: ArgumentHelp("Trace seconds per clock second (default 1).", valueName: "X")) var speed: Double = 1
        @Flag(help: "Start again at the end.") var loop = false
        @Option(help: ArgumentHelp("Seconds of the trace to skip.", valueName: "S")) var offset: Double = 0
        @Option(
          help: ArgumentHelp(
            "The trace's format (by default from its name, else its first bytes).", valueName: "nmea|gpx|jsonl|kml|geojson"))
        var format: Wire.TraceFormat?

        func validate() throws {
          if (trace == nil) == (named == nil) { throw ValidationError("give a TRACE file or --named NAME, one of them") }
        }

        func run() async throws {
          let phone = ctl.client.phone(ctl.phone)
          let (format, speed, loop, offset) = (format, speed, loop, offset)
          if let named {
            try await Ctl.printState { () throws(EmulatorClientError) in
              try await phone.playTrace(named: named, format: format, speed: speed, loop: loop, offset: offset)
            }
            return
          }
          // Read here and sent in the request: the server reads no file of its machine. At
          // most 1 GB here; the server states its own, smaller, limit (413 beyond it).
          let path = trace ?? "-"
          let contents: Data
          do {
            contents = Data(try TraceBytes.read(path: path, maxBytes: 1 << 30).bytes)
          } catch {
            throw CommandFailure("\(error)")
          }
          let name = (path as NSString).lastPathComponent
          try await Ctl.printState { () throws(EmulatorClientError) in
            try await phone.playTrace(contents, name: name, format: format, speed: speed, loop: loop, offset: offset)
          }
        }
      }

      struct Pause: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
          commandName: "pause",
          abstract: "Pause what plays (a route, a trace); 'resume' carries on where it paused. Exit 1 when nothing plays.")
        @ParentCommand var ctl: Ctl

        func run() async throws {
          let phone = ctl.client.phone(ctl.phone)
          try await Ctl.printState { () throws(EmulatorClientError) in try await phone.setPlaybackPaused(true) }
        }
      }

      struct Resume: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
          commandName: "resume",
          abstract: "Resume what 'pause' paused: its next fix as long after now as it was due after the pause.")
        @ParentCommand var ctl: Ctl

        func run() async throws {
          let phone = ctl.client.phone(ctl.phone)
          try await Ctl.printState { () throws(EmulatorClientError) in try await phone.setPlaybackPaused(false) }
        }
      }

      struct Seek: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
          commandName: "seek",
          abstract:
            "Jump within the trace or route that plays, paused or playing: to a fix (--fix, an index from 0) or a time (--seconds from its start). Exit 1 when none plays."
        )
        @ParentCommand var ctl: Ctl
        @Option(help: ArgumentHelp("The fix to play next: its index from 0 (the state's playing.position).", valueName: "N"))
        var fix: Int?
        @Option(help: ArgumentHelp("Seconds from the start of the trace or route.", valueName: "S")) var seconds: Double?

        func validate() throws {
          if (fix == nil) == (seconds == nil) { throw ValidationError("give --fix N or --seconds S, one of them") }
          if let fix, fix < 0 { throw ValidationError("--fix must be 0 or more") }
          if let seconds, !(seconds >= 0) { throw ValidationError("--seconds must be 0 or more") }
        }

        func run() async throws {
          let phone = ctl.client.phone(ctl.phone)
          let (fix, seconds) = (fix, seconds)
          try await Ctl.printState { () throws(EmulatorClientError) in try await phone.seek(fix: fix, seconds: seconds) }
        }
      }

      struct Clear: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
          commandName: "clear", abstract: "No more fixes: the receiver lost the sky (a route or trace stops).")
        @ParentCommand var ctl: Ctl

        func run() async throws {
          let phone = ctl.client.phone(ctl.phone)
          try await Ctl.printState { () throws(EmulatorClientError) in try await phone.clearLocation() }
        }
      }
    }

    struct Privacy: AsyncParsableCommand {
      static let configuration = CommandConfiguration(
        commandName: "privacy", abstract: "The app's permission, as the user sets it in Settings.")
      @ParentCommand var ctl: Ctl
      @Argument(help: ArgumentHelp("grant, revoke, reset or restrict.", valueName: "ACTION")) var action: Wire.Privacy.Action
      @Flag(help: "With grant: Always rather than While Using.") var always = false

      func validate() throws {
        if always && action != .grant { throw ValidationError("--always goes with grant") }
      }

      func run() async throws {
        let phone = ctl.client.phone(ctl.phone)
        let (action, always) = (action, always)
        try await Ctl.printState { () throws(EmulatorClientError) in
          switch action {
          case .grant: return try await phone.grant(always: always)
          case .revoke: return try await phone.revoke()
          case .reset: return try await phone.resetPermission()
          case .restrict: return try await phone.restrict()
          }
        }
      }
    }

    struct Services: AsyncParsableCommand {
      static let configuration = CommandConfiguration(commandName: "services", abstract: "Location Services on or off, system-wide.")
      @ParentCommand var ctl: Ctl
      @Argument(help: ArgumentHelp("on or off.", valueName: "on|off")) var state: Wire.Switch

      func run() async throws {
        let phone = ctl.client.phone(ctl.phone), enabled = state == .on
        try await Ctl.printState { () throws(EmulatorClientError) in try await phone.setServicesEnabled(enabled) }
      }
    }

    struct Accuracy: AsyncParsableCommand {
      static let configuration = CommandConfiguration(
        commandName: "accuracy", abstract: "Precise (full) or approximate (reduced) location.")
      @ParentCommand var ctl: Ctl
      @Argument(help: ArgumentHelp("full or reduced.", valueName: "full|reduced")) var accuracy: LocationAccuracyAuthorization

      func run() async throws {
        let phone = ctl.client.phone(ctl.phone), accuracy = self.accuracy
        try await Ctl.printState { () throws(EmulatorClientError) in try await phone.setAccuracy(accuracy) }
      }
    }

    struct Realism: AsyncParsableCommand {
      static let configuration = CommandConfiguration(
        commandName: "realism",
        abstract: "A realistic GNSS receiver under what the phone plays from now on, or off.",
        discussion: """
          What the phone plays next (a location, a route, a trace) is the truth, and a seeded \
          receiver of PROFILE reports it: satellites, a time to first fix, errors that drift, \
          an accuracy from the same model (see locemu simulate). Set it before what it plays.
          """)
      @ParentCommand var ctl: Ctl
      @Argument(
        help: ArgumentHelp("open-sky, suburban, urban-canyon, indoor, tunnel, or off.", valueName: "PROFILE|off"))
      var profile: String
      @Option(help: "The receiver's seed (default 1).") var seed: UInt64?
      @Option(help: ArgumentHelp("cold (default), warm or hot.", valueName: "KIND")) var start: String?
      @Flag(help: "A standalone receiver rather than a phone's assisted GNSS.") var standalone = false

      func run() async throws {
        let phone = ctl.client.phone(ctl.phone), profile = self.profile == "off" ? nil : self.profile
        let seed = self.seed, start = self.start, assisted: Bool? = standalone ? false : nil
        try await Ctl.printState { () throws(EmulatorClientError) in
          try await phone.setRealism(profile, seed: seed, start: start, assisted: assisted)
        }
      }
    }

    struct App: AsyncParsableCommand {
      static let configuration = CommandConfiguration(
        commandName: "app", abstract: "Send the app to the background or bring it to the foreground.")
      @ParentCommand var ctl: Ctl
      @Argument(help: ArgumentHelp("background or foreground.", valueName: "background|foreground")) var state: AppState

      func run() async throws {
        let phone = ctl.client.phone(ctl.phone), state = self.state
        try await Ctl.printState { () throws(EmulatorClientError) in try await phone.setAppState(state) }
      }
    }

    struct Prompt: AsyncParsableCommand {
      static let configuration = CommandConfiguration(
        commandName: "prompt", abstract: "How the user will answer the next permission prompt, and after how long.")
      @ParentCommand var ctl: Ctl
      @Argument(
        help: ArgumentHelp(
          "allowWhileUsing, allowOnce, deny, none or allowAlways (the upgrade prompt's \"Change to Always Allow\").", valueName: "ANSWER"))
      var answer: PromptAnswer
      @Option(help: ArgumentHelp("Seconds before the answer.", valueName: "S")) var delay: Double?

      func run() async throws {
        let phone = ctl.client.phone(ctl.phone)
        let (answer, delay) = (answer, delay)
        try await Ctl.printState { () throws(EmulatorClientError) in try await phone.setPromptAnswer(answer, delaySeconds: delay) }
      }
    }

    struct Call: AsyncParsableCommand {
      static let configuration = CommandConfiguration(
        commandName: "call", abstract: "One of the app's own calls; its result comes on 'events'.")
      @ParentCommand var ctl: Ctl
      @Argument(
        help: ArgumentHelp(
          "authorize (requestWhenInUseAuthorization), authorizeAlways (requestAlwaysAuthorization), request or locate.", valueName: "CALL"))
      var call: Wire.Call

      func run() async throws {
        let phone = ctl.client.phone(ctl.phone), call = self.call
        try await Ctl.printState { () throws(EmulatorClientError) in try await phone.startCall(call) }
      }
    }

    struct Event: AsyncParsableCommand {
      static let configuration = CommandConfiguration(
        commandName: "event",
        abstract: "Any scenario event, e.g. fix=lost or permission=denied; tap or back on a phone with map features.")
      @ParentCommand var ctl: Ctl
      @Argument(help: ArgumentHelp("The event, as 'locemu permissions --at' spells it.", valueName: "EVENT")) var event: String

      func run() async throws {
        let phone = ctl.client.phone(ctl.phone), event = self.event
        try await Ctl.printState { () throws(EmulatorClientError) in try await phone.sendEvent(event) }
      }
    }

    struct Events: AsyncParsableCommand {
      static let configuration = CommandConfiguration(
        commandName: "events", abstract: "The phone's transcript as it happens, one JSON line per event.")
      @ParentCommand var ctl: Ctl
      @Option(help: ArgumentHelp("Stop after N lines.", valueName: "N")) var count: Int?
      @Option(help: ArgumentHelp("Lines from before the connection to print first (at most 1000).", valueName: "N"))
      var history: Int = 0

      func validate() throws {
        if let count, count < 1 { throw ValidationError("--count must be at least 1") }
        if history < 0 { throw ValidationError("--history must be 0 or more") }
      }

      func run() async throws {
        do {
          var printed = 0
          for try await event in try await ctl.client.phone(ctl.phone).transcript(history: history) {
            writeOutput(event.json + "\n")
            printed += 1
            if let count, printed >= count { break }
          }
        } catch let error as EmulatorClientError {
          throw Ctl.failure(error)
        } catch {
          throw Ctl.failure(.unreachable("\(error)"))
        }
      }
    }

    struct Phones: AsyncParsableCommand {
      static let configuration = CommandConfiguration(
        commandName: "phones",
        abstract: "The server's phones: list them, make one, delete one.", subcommands: [List.self, Create.self, Delete.self],
        defaultSubcommand: List.self)

      struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "Every phone's state.")
        @ParentCommand var ctl: Ctl
        func run() async throws {
          let client = ctl.client
          try await Ctl.printJSON { () throws(EmulatorClientError) in try await client.phones().json }
        }
      }

      struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "create", abstract: "A new phone (a new iPhone's defaults).")
        @ParentCommand var ctl: Ctl
        @Flag(help: "The phone runs the lost-pets app's map features (map events: tap, back, swipeBack, retry).")
        var mapFeatures = false
        func run() async throws {
          let client = ctl.client, settings = Wire.NewPhone(mapFeatures: mapFeatures ? true : nil)
          try await Ctl.printState { () throws(EmulatorClientError) in try await client.createPhone(settings) }
        }
      }

      struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
          commandName: "delete", abstract: "Stop a phone and forget it (its event streams end).")
        @ParentCommand var ctl: Ctl
        @Argument(help: ArgumentHelp("The phone to delete.", valueName: "ID")) var id: String
        func run() async throws {
          let client = ctl.client, id = self.id
          // The server answers 204, no body: nothing is printed.
          try await Ctl.printJSON { () throws(EmulatorClientError) in
            try await client.deletePhone(id)
            return ""
          }
        }
      }
    }

    struct Clock: AsyncParsableCommand {
      static let configuration = CommandConfiguration(
        commandName: "clock",
        abstract: "The server's clock: read it, or advance a virtual one.", subcommands: [Show.self, Advance.self],
        defaultSubcommand: Show.self)

      struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
          commandName: "show", abstract: "Virtual or real, and the seconds since the server started.")
        @ParentCommand var ctl: Ctl
        func run() async throws {
          let client = ctl.client
          try await Ctl.printJSON { () throws(EmulatorClientError) in try await client.clock().json }
        }
      }

      struct Advance: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
          commandName: "advance",
          abstract: "Move a --virtual-time server's clock on; answers when all due has happened.")
        @ParentCommand var ctl: Ctl
        @Argument(help: ArgumentHelp("Seconds to move on.", valueName: "S")) var seconds: Double

        func validate() throws {
          guard seconds >= 0, seconds.isFinite else { throw ValidationError("clock advance SECONDS (0 or more)") }
        }

        func run() async throws {
          let client = ctl.client, seconds = self.seconds
          try await Ctl.printJSON { () throws(EmulatorClientError) in try await client.advanceClock(seconds: seconds).json }
        }
      }
    }

    struct Traces: AsyncParsableCommand {
      static let configuration = CommandConfiguration(
        commandName: "traces", abstract: "The server's --traces directory and the largest trace it takes.")
      @ParentCommand var ctl: Ctl
      func run() async throws {
        let client = ctl.client
        try await Ctl.printJSON { () throws(EmulatorClientError) in try await client.traces().json }
      }
    }
  }
}

/// `LAT,LON` on the command line.
struct Point: ExpressibleByArgument {
  var latitude: Double
  var longitude: Double

  /// The points of arguments taken as they come (`.allUnrecognized`, so that a negative
  /// latitude is not read as an option): `--help` or `-h` among them asks for `command`'s help.
  /// A `--` ends the options as in every Unix tool (`location set -- -33.8,151.2`): it is
  /// dropped, and a `--help` after it is not a request for help.
  /// - Throws: `CleanExit` for help; `ValidationError` naming the first that is not `LAT,LON`.
  static func parse(_ arguments: [String], command: some ParsableCommand) throws -> [Point] {
    let end = arguments.firstIndex(of: "--") ?? arguments.endIndex
    if arguments[..<end].contains(where: { $0 == "--help" || $0 == "-h" }) { throw CleanExit.helpRequest(command) }
    return try positional(arguments).map { argument in
      guard let point = Point(argument: argument) else {
        throw ValidationError("'\(argument)' is not LAT,LON (e.g. 52.2297,21.0122 or -33.8688,151.2093)")
      }
      return point
    }
  }

  /// The arguments without the first `--`, the end of the options.
  static func positional(_ arguments: [String]) -> [String] {
    var arguments = arguments
    if let end = arguments.firstIndex(of: "--") { arguments.remove(at: end) }
    return arguments
  }

  init?(argument: String) {
    let parts = argument.split(separator: ",").map { Double($0) }
    // Ranges are the server's to check (it says which one is out).
    guard parts.count == 2, let lat = parts[0], let lon = parts[1], lat.isFinite, lon.isFinite else { return nil }
    latitude = lat
    longitude = lon
  }
}

extension Wire.Privacy.Action: @retroactive ExpressibleByArgument {}
extension Wire.Switch: @retroactive ExpressibleByArgument {}
extension Wire.TraceFormat: @retroactive ExpressibleByArgument {}
extension Wire.Call: @retroactive ExpressibleByArgument {}
extension AppState: @retroactive ExpressibleByArgument {}
