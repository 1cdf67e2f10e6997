public import ArgumentParser
package import Emulator
import Foundation
import GNSS
import GNSSReceiver
import LocationEmulatorClient
import GPSD
import Geo
import PhoneSources
import PermissionHandling
import Scenarios
import Traces
import LocationModel

/// The scenario and source options shared by `permissions` and `preview`.
struct ScenarioOptions: ParsableArguments {
  @Option(help: ArgumentHelp("The app's status at the start.", valueName: "STATE"))
  var permission: LocationPermissionStatus?

  @Option(help: ArgumentHelp("Location Services at the start.", valueName: "on|off"))
  var services: OnOff?

  @Option(help: ArgumentHelp("Precise location at the start.", valueName: "full|reduced"))
  var accuracy: LocationAccuracyAuthorization?

  @Option(help: ArgumentHelp("How the user answers the prompt.", valueName: "allowWhileUsing|allowOnce|deny|none|allowAlways"))
  var promptAnswer: PromptAnswer?

  @Option(parsing: .unconditional, help: ArgumentHelp("Seconds the user takes to answer.", valueName: "S"))
  var promptDelay: Double?

  @Option(
    name: .customLong("at"), help: ArgumentHelp("An event at a time, e.g. 5=permission=denied (repeatable).", valueName: "TIME=EVENT"))
  var steps: [String] = []

  @Flag(
    help: """
      The app declared background location updates: authorized when in use, it keeps getting \
      locations in the background (without it, as on iOS, it gets none until it comes back).
      """)
  var backgroundLocationUpdates = false

  @Option(help: ArgumentHelp("A scenario file (JSON) with the same vocabulary; flags override its start state.", valueName: "FILE"))
  var scenario: String?

  @Option(help: ArgumentHelp("Read further events from standard input, one per line, applied as they arrive.", valueName: "stdin"))
  var control: String?

  @Option(parsing: .unconditional, help: ArgumentHelp("Seconds the scenario runs; every event must fall within it.", valueName: "S"))
  var duration: Double?

  @Option(parsing: .unconditional, help: ArgumentHelp("Seconds a location request waits for a fix.", valueName: "S"))
  var requestTimeout: Double = 10

  @Flag(help: "Run on a virtual clock: instant and deterministic.")
  var virtualTime = false

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp("Source: a fixed point, with its altitude above sea level in metres if given.", valueName: "LAT,LON[,ALT]"))
  var fixed: String?

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp("The fixed point's horizontal accuracy, metres (default 5).", valueName: "M"))
  var fixedAccuracy: Double?

  @Option(
    help: ArgumentHelp(
      "Source: replay this trace (NMEA, GPX or fix records), looping, at --speed; fixes keep the trace's times "
        + "(untimed points: from the start of the run) unless --now or --start-time.",
      valueName: "FILE"))
  var trace: String?

  @Option(parsing: .unconditional, help: ArgumentHelp("With --trace: replay speed (default 1).", valueName: "X"))
  var speed: Double?

  @Option(
    help: ArgumentHelp(
      "Source: a live gpsd. A run that ends before gpsd ever answered says so and exits 1.", valueName: "HOST:PORT"))
  var gpsd: Endpoint?

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp("With --gpsd: give up (exit 1) after S seconds without a connection to it.", valueName: "S"))
  var gpsdTimeout: Double = 10

  /// The options that shape the source, which each command declares beside these rather than
  /// inside them: argument-parser checks an option group's declarations again for every group
  /// around it, so each level of nesting multiplies what a command's parse costs (in debug builds,
  /// 0.2 s for `permissions --help` with three levels, most of it those checks).
  struct Sources {
    var realism: RealismOptions
    var trace: TraceOptions
    var time: TimeBaseOptions
  }

  enum OnOff: String, ExpressibleByArgument { case on, off }

  func validate() throws {
    if [fixed != nil, trace != nil, gpsd != nil].filter({ $0 }).count > 1 {
      throw ValidationError("give one source: --fixed, --trace or --gpsd")
    }
    if let fixed, Self.point(fixed) == nil {
      throw ValidationError("--fixed must be LAT,LON[,ALT] (degrees, metres), got '\(fixed)'")
    }
    if let fixedAccuracy {
      guard fixed != nil else { throw ValidationError("--fixed-accuracy goes with --fixed") }
      guard fixedAccuracy > 0, fixedAccuracy <= 100_000 else {
        throw ValidationError("--fixed-accuracy must be above 0 and at most 100000 metres")
      }
    }
    if let control, control != "stdin" { throw ValidationError("--control takes 'stdin'") }
    if control != nil && virtualTime { throw ValidationError("--control stdin runs on the real clock; drop --virtual-time") }
    if gpsd != nil && virtualTime { throw ValidationError("--gpsd runs on the real clock; drop --virtual-time") }
    guard gpsdTimeout > 0, gpsdTimeout <= 86_400 else {
      throw ValidationError("--gpsd-timeout must be between 0 and 86400 seconds")
    }
    if let promptDelay, !(promptDelay >= 0 && promptDelay <= 86_400) { throw ValidationError("--prompt-delay must be 0 to 86400 seconds") }
    if let duration, !(duration >= 0 && duration <= 864_000) { throw ValidationError("--duration must be 0 to 864000 seconds") }
    guard requestTimeout > 0, requestTimeout <= 3600 else {
      throw ValidationError("--request-timeout must be above 0 and at most 3600 seconds")
    }
    if trace == "-" { throw ValidationError("--trace must be a file: the trace loops, and standard input cannot be read twice") }
    if let speed {
      guard trace != nil else { throw ValidationError("--speed applies to a --trace source only") }
      guard ReplayOptions.speedRange.contains(speed) else { throw ValidationError("--speed must be between 0.1 and 1000") }
    }
    for step in steps {
      do {
        _ = try Scenario.step(parsing: step)
      } catch {
        throw ValidationError("--at \(error)")
      }
    }
  }

  static func coordinate(_ text: String) -> Coordinate? { point(text)?.coordinate }

  /// `LAT,LON` or `LAT,LON,ALT`: a coordinate and an optional altitude in metres.
  static func point(_ text: String) -> (coordinate: Coordinate, altitude: Double?)? {
    let parts = text.split(separator: ",", omittingEmptySubsequences: false).map {
      Double($0.trimmingCharacters(in: .whitespaces))
    }
    guard parts.count == 2 || parts.count == 3, let lat = parts[0], let lon = parts[1],
      let coordinate = Coordinate(latitude: lat, longitude: lon)
    else { return nil }
    if parts.count == 3 {
      guard let altitude = parts[2], altitude.isFinite, abs(altitude) <= 100_000 else { return nil }
      return (coordinate, altitude)
    }
    return (coordinate, nil)
  }

  /// The scenario from the file and the flags.
  /// - Parameter mapEvents: whether the command runs an app with a map (`preview`); the others
  ///   refuse map events (`tap`, `back`, …) rather than ignore them.
  /// The checks that involve the source options too; each command's `validate()` calls it.
  func validate(_ sources: Sources) throws {
    if (sources.time.now || sources.time.startTime != nil) && trace == nil {
      throw ValidationError("--now and --start-time apply to a --trace source only")
    }
  }

  func makeScenario(command: String, mapEvents: Bool) throws -> Scenario {
    var s = Scenario()
    if let path = scenario {
      do {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        s = try Scenario(json: data)
      } catch let error as ScenarioError {
        throw CommandFailure("\(path): \(error)")
      } catch {
        throw CommandFailure("cannot read \(path): \(error.localizedDescription)")
      }
    }
    if let permission { s.initial.appStatus = permission }
    if let services { s.initial.servicesEnabled = services == .on }
    if let accuracy { s.initial.accuracy = accuracy }
    if backgroundLocationUpdates { s.initial.backgroundLocationUpdates = true }
    if let promptAnswer { s.promptAnswer = promptAnswer }
    if let promptDelay { s.promptDelay = promptDelay }
    if let duration { s.duration = duration }
    for step in steps { s.add(try Scenario.step(parsing: step)) }
    // A map event where no map is would silently do nothing.
    if !mapEvents, let step = s.steps.first(where: { $0.event.isMapEvent }) {
      throw CommandFailure("'\(step.event)' is a map event: only locemu preview has a map to act on", status: 64)
    }
    // An event after the end would silently not happen: say so and do nothing.
    if let end = s.duration, let late = s.steps.first(where: { $0.at > end }) {
      throw CommandFailure(
        "the event at \(FixRecord.fixed(late.at, 3)) s (\(late.event)) is after the end of the run "
          + "(--duration \(FixRecord.fixed(end, 3))): raise --duration or move the event", status: 64)
    }
    return s
  }

  /// What ``source(command:_:answered:)`` plays, in words ("trace PATH", "gpsd HOST:PORT", "fixed LAT,LON").
  var sourceName: String {
    if let trace { return "trace \(trace)" }
    if let gpsd { return "gpsd \(gpsd)" }
    return "fixed \(fixed ?? "52.2297,21.0122")"
  }

  /// - Parameter answered: set when a gpsd source first hears from gpsd (nil: not watched).
  func source(command: String, _ sources: Sources, answered: Locked<Bool>? = nil) throws -> PhoneSource {
    let truth = try truthSource(command: command, sources, answered: answered)
    guard let receiver = try sources.realism.receiver(command: command) else { return truth }
    return .realistic(truth, receiver: receiver)
  }

  /// The truth the options give: `--trace`, `--gpsd`, else `--fixed` (Warsaw when not given).
  private func truthSource(command: String, _ sources: Sources, answered: Locked<Bool>?) throws -> PhoneSource {
    if let trace {
      let t = try sources.trace.trace(trace, command: command)
      try t.check(command: command, wholeFile: false)
      // The trace's own times, as replay keeps them; points without one are stamped from the
      // run's start: the phone's start date on virtual time, now on the real clock.
      let runStart = virtualTime ? EmulatedPhone.Configuration.defaultStartDate : Date()
      return try Truth.trace(
        t, ReplayOptions(speed: speed ?? 1, loop: true, timeBase: sources.time.timeBase(), untimedStart: runStart)
      ).source()
    }
    if let gpsd {
      return try Truth.gpsd(
        .init(
          host: gpsd.host, port: gpsd.port, connectTimeout: .milliseconds(Int64(gpsdTimeout * 1000)),
          onEvent: gpsdEventReporter(command: command, answered: answered))
      ).source()
    }
    let point = fixed.flatMap(Self.point) ?? (Coordinate(latitude: 52.2297, longitude: 21.0122)!, nil)
    return try Truth.fixed(point.coordinate, altitude: point.altitude, horizontalAccuracy: fixedAccuracy ?? 5).source()
  }

  /// Builds the app a scenario drives, from the runner's phone and handler.
  protocol AppFactory {
    func make(runner: ScenarioRunner) throws -> (any ScenarioApp)?
  }

  /// Runs the scenario (with the app `factory` makes) and writes each transcript line through `write`:
  /// on the phone's virtual clock with `--virtual-time` (instant, the same every run), else on real time.
  /// - Parameter follow: a served phone the run's phone follows (its state and fixes) instead
  ///   of a source of its own; the run ends (exit 1) if it cannot be reached or goes away.
  func run(
    command: String, _ sources: Sources, reportFixes: Bool = true, factory: (any AppFactory)? = nil, follow: RemotePhone? = nil,
    write: @escaping @Sendable (TranscriptLine) -> Void
  ) async throws {
    let scenario = try makeScenario(command: command, mapEvents: factory != nil)
    let timeout = Duration.milliseconds(Int64(requestTimeout * 1000))
    let clock = virtualTime ? EmulatorClock() : EmulatorClock.realTime()
    // Whether the live source ever answered: a run that ends before it did is no success.
    let gpsdAnswered = Locked(false)
    let runner = ScenarioRunner(
      scenario: scenario, source: follow == nil ? try source(command: command, sources, answered: gpsdAnswered) : .none, clock: clock,
      requestTimeout: timeout, reportFixes: reportFixes,
      startDate: virtualTime ? EmulatedPhone.Configuration.defaultStartDate : Date(), emit: write)
    let app = try factory?.make(runner: runner)
    let control = self.control != nil ? Self.standardInputEvents(command: command, mapEvents: factory != nil) : nil
    // A source that fails — a gpsd that cannot be reached for --gpsd-timeout, a trace that
    // turns out corrupt — ends the run: the scenario stops early, its end line is written,
    // and the exit status is 1.
    let sourceFailure = Locked<(error: String?, scenario: Task<Void, any Error>?)>((nil, nil))
    let observation = runner.phone.observe(.sourceEnded) { event in
      guard case .sourceEnded(let error?) = event else { return }
      let task = sourceFailure.withLock { state -> Task<Void, any Error>? in
        state.error = state.error ?? error
        return state.scenario
      }
      task?.cancel()
    }
    defer { observation.cancel() }
    do {
      // The phone runs beside the scenario: a real-time clock fires its timers, a gpsd source is read.
      try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { await runner.phone.run() }
        if let follow {
          group.addTask {
            do {
              try await follow.mirror(into: runner.phone)
            } catch {
              let task = sourceFailure.withLock { state -> Task<Void, any Error>? in
                state.error = state.error ?? "\(error)"
                return state.scenario
              }
              task?.cancel()
            }
          }
        }
        let scenario = Task { try await runner.run(control: control, app: app) }
        let failedAlready = sourceFailure.withLock { state in
          state.scenario = scenario
          return state.error != nil
        }
        if failedAlready { scenario.cancel() }
        try await withTaskCancellationHandler {
          try await scenario.value
        } onCancel: {
          scenario.cancel()
        }
        group.cancelAll()
      }
    } catch let error as EmulatorClockError {
      throw CommandFailure("\(error)")
    }
    if let error = sourceFailure.withLock({ $0.error }) {
      throw CommandFailure("\(error)")
    }
    if let gpsd, follow == nil, trace == nil, !gpsdAnswered.withLock({ $0 }) {
      throw CommandFailure("gpsd at \(gpsd) never answered")
    }
  }

  /// Events from standard input, one per line (blank lines and # comments skipped; bad lines reported and skipped).
  static func standardInputEvents(command: String, mapEvents: Bool) -> AsyncStream<ScenarioEvent> {
    let (stream, continuation) = AsyncStream.makeStream(of: ScenarioEvent.self)
    let thread = Thread {
      while let line = readLine() {
        let text = line.trimmingCharacters(in: .whitespaces)
        if text.isEmpty || text.hasPrefix("#") { continue }
        do {
          let event = try ScenarioEvent(parsing: text)
          if event.isMapEvent && !mapEvents {
            printError("locemu \(command): stdin: '\(event)' is a map event: only locemu preview has a map to act on; skipped")
            continue
          }
          continuation.yield(event)
        } catch {
          printError("locemu \(command): stdin: \(error)")
        }
      }
      continuation.finish()
    }
    thread.start()
    return stream
  }
}

/// Reports a gpsd session's connections, losses and problems on standard error as
/// `locemu COMMAND: …` lines (fixes go elsewhere). Failed attempts before the first
/// connection are not reported one by one: if they last, the command ends with one line.
/// - Parameter answered: set when gpsd first answers (nil: not watched).
func gpsdEventReporter(command: String, answered: Locked<Bool>? = nil) -> @Sendable (GPSDSource.Event) -> Void {
  let everConnected = Locked(false)
  return { event in
    switch event {
    case .connected(let endpoint):
      everConnected.withLock { $0 = true }
      printError("locemu \(command): connected to gpsd at \(endpoint)")
    case .answered: answered?.withLock { $0 = true }
    case .disconnected(let error, let retry):
      guard everConnected.withLock({ $0 }) else { return }
      printError("locemu \(command): \(error); retrying in \(FixRecord.fixed(retry.seconds, 1)) s")
    case .problem(let error): printError("locemu \(command): \(error)")
    case .stopped: break
    }
  }
}

extension LocationPermissionStatus: @retroactive ExpressibleByArgument {}
extension LocationAccuracyAuthorization: @retroactive ExpressibleByArgument {}
extension PromptAnswer: @retroactive ExpressibleByArgument {}

/// `--realism PROFILE [--seed N]`: the positions are the truth and a seeded GNSS receiver
/// reports them (the scenario commands and `feed`).
struct RealismOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "The positions are the truth and a seeded GNSS receiver reports them: open-sky, suburban, urban-canyon, indoor, "
        + "tunnel, or a JSON profile (see locemu simulate).",
      valueName: "PROFILE"))
  var realism: String?

  @Option(help: ArgumentHelp("With --realism: the receiver's seed (the same seed, the same output).", valueName: "N"))
  var seed: UInt64?

  @Option(
    help: ArgumentHelp(
      "With --realism: the satellite systems the receiver tracks (default all four).", valueName: "gps,glonass,galileo,beidou"))
  var systems: String?

  func validate() throws {
    if seed != nil, realism == nil { throw ValidationError("--seed goes with --realism") }
    if systems != nil, realism == nil { throw ValidationError("--systems goes with --realism") }
    if let systems { _ = try Self.systems(systems) }
  }

  /// The systems of a `--systems` list (`gps,glonass,galileo,beidou`, any of them, any case).
  static func systems(_ list: String) throws -> [GNSSSystem] {
    let names = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    guard !names.isEmpty else { throw ValidationError("--systems wants a list such as gps,galileo") }
    return try names.map { name in
      guard let system = GNSSSystem(name: name) else {
        throw ValidationError("--systems: no system '\(name)' (gps, glonass, galileo, beidou)")
      }
      return system
    }
  }

  /// The receiver `--realism` and `--seed` ask for (nil without `--realism`), said on standard
  /// error as `locemu COMMAND: realism PROFILE, seed N`.
  func receiver(command: String) throws -> GNSSReceiver.Options? {
    guard let realism else { return nil }
    var profile = try Self.realismProfile(realism)
    if let systems { profile.systems = try Self.systems(systems) }
    let seed = self.seed ?? 1
    printError("locemu \(command): realism \(profile.name), seed \(seed)")
    return GNSSReceiver.Options(profile: profile, seed: seed)
  }

  /// The profile `--realism` names (built-in or a JSON file): a name that is neither is bad
  /// usage (64), a file that cannot be read or is not a profile a failure (1).
  static func realismProfile(_ nameOrPath: String) throws -> ReceiverProfile {
    do {
      return try ReceiverProfile.resolve(nameOrPath)
    } catch {
      throw CommandFailure("--realism: \(error.message)", status: error.message.hasPrefix("no profile") ? 64 : 1)
    }
  }
}
