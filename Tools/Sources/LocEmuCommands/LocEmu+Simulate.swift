import ArgumentParser
import Foundation
import GNSS
import GNSSReceiver
import Geo
import LocationModel
import Emulator
import Traces

extension LocEmu {
  struct Simulate: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "simulate",
      abstract: "Print what a realistic GNSS receiver reports over a truth, on virtual time.",
      discussion: """
        The truth is a fixed point (--fixed), a route walked at --mps (--route), \
        or a trace (TRACE: its fixes are the truth and realism goes on top). A \
        seeded receiver (--seed, --phone) in an environment (--realism: \
        open-sky, suburban, urban-canyon, indoor, tunnel, or a JSON file with a \
        "base" profile and the members it changes) sees the satellites of GPS, \
        GLONASS, Galileo and BeiDou (--systems to choose; each system's nominal \
        constellation, or for GPS --almanac FILE, YUMA or SEM) from the \
        truth, picks the ones it can use, and reports a position with errors \
        that drift as a receiver's do (DOP times a Gauss-Markov bias and white \
        noise, multipath, outages), after its time to first fix (--start cold, \
        warm or hot; a phone's assisted GNSS unless --standalone).

        Output (OUT, or standard output): NMEA (GGA, GSA, GSV, GST, RMC, VTG, \
        GBS per epoch, what gpsd reads; talker GN with one GSA per system and \
        GSV per system with its signal ID, as multi-GNSS receivers write them, \
        or GP for GPS alone) or --to jsonl (a fix record per epoch, \
        with the receiver's state, satellites used and HDOP). As fast as it \
        can: the same seed and truth give the same bytes every run.

        Standard error says the seed and profile first and, at the end, the \
        time to first fix, the share of epochs with a fix, the 50/80/95 % \
        horizontal error and how often the reported accuracy (68 %) held it.

        Example: locemu simulate --fixed 60.17,24.94 --realism urban-canyon --seed 7 --duration 600 out.nmea
        (a place with a minus sign: --fixed=-33.87,151.21)

        On a terminal, standard error shows the seconds simulated as they go (--quiet: not).

        Exit status: 0, 1 when a file cannot be read or written, 64 for bad options.
        """
    )

    @Argument(help: ArgumentHelp("A trace (NMEA, GPX, fix records) whose fixes are the truth.", valueName: "TRACE"))
    var trace: String?

    @Argument(help: ArgumentHelp("Where to write; standard output when missing.", valueName: "OUT"))
    var out: String?

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp("The truth: a point, with its altitude above sea level in metres.", valueName: "LAT,LON[,ALT]"))
    var fixed: String?

    @Option(
      parsing: .upToNextOption,
      help: ArgumentHelp("The truth: a route of waypoints walked at --mps.", valueName: "LAT,LON"))
    var route: [String] = []

    @Option(help: ArgumentHelp("The route's speed, metres per second.", valueName: "N"))
    var mps = 1.4

    @Option(help: ArgumentHelp("The environment: a built-in profile or a JSON file.", valueName: "PROFILE"))
    var realism = "open-sky"

    @Option(
      help: ArgumentHelp(
        "The satellite systems the receiver tracks (default the profile's: all four).", valueName: "gps,glonass,galileo,beidou"))
    var systems: String?

    @Option(help: "The seed: the same seed and truth give the same output.")
    var seed: UInt64 = 1

    @Option(help: "Which phone of the seed (phones of one seed err independently).")
    var phone: UInt64 = 0

    @Option(help: ArgumentHelp("How the receiver starts: cold, warm or hot.", valueName: "KIND"))
    var start = "cold"

    @Flag(help: "A standalone receiver (cold start 30-60 s), not a phone with assisted GNSS.")
    var standalone = false

    @Option(help: ArgumentHelp("A YUMA or SEM almanac instead of the nominal constellation.", valueName: "FILE"))
    var almanac: String?

    @Option(help: ArgumentHelp("The first time, UTC (ISO 8601), for a point, a route or an undated trace.", valueName: "TIME"))
    var startTime = "2026-01-01T00:00:00Z"

    @Option(help: ArgumentHelp("Seconds to simulate (a trace: at most this much of it).", valueName: "S"))
    var duration: Double?

    @Flag(help: "No progress line on standard error (one is shown only when it is a terminal).")
    var quiet = false

    @Option(help: ArgumentHelp("Epochs per second for a point or a route.", valueName: "HZ"))
    var rate = 1.0

    @Option(help: ArgumentHelp("nmea or jsonl.", valueName: "FORMAT"))
    var to = "nmea"

    /// The trace that is the truth: the first argument, unless --fixed or --route is.
    var truthTrace: String? { fixed == nil && route.isEmpty ? trace : nil }
    /// Where to write: the argument after the trace, or the only one with --fixed or --route.
    var outputPath: String? { truthTrace != nil ? out : trace }

    func validate() throws {
      if let systems { _ = try RealismOptions.systems(systems) }
      let sources = [truthTrace != nil, fixed != nil, !route.isEmpty].filter { $0 }.count
      if truthTrace == nil, let out {
        throw ValidationError("unexpected argument '\(out)': with --fixed or --route the one argument is OUT")
      }
      guard sources == 1 else { throw ValidationError("give one truth: --fixed LAT,LON, --route LAT,LON LAT,LON…, or a TRACE") }
      if let fixed, ScenarioOptions.point(fixed) == nil { throw ValidationError("--fixed must be LAT,LON[,ALT], got '\(fixed)'") }
      if !route.isEmpty {
        guard route.count >= 2 else { throw ValidationError("--route wants at least two waypoints") }
        if let bad = route.first(where: { ScenarioOptions.point($0) == nil }) { throw ValidationError("--route: '\(bad)' is not LAT,LON") }
        guard mps > 0, mps <= 1000 else { throw ValidationError("--mps must be above 0 and at most 1000") }
      }
      if truthTrace == nil { guard duration != nil else { throw ValidationError("--duration goes with --fixed and --route") } }
      if let duration {
        guard duration > 0, duration <= 10_000_000 else { throw ValidationError("--duration must be above 0 and at most 10000000 seconds") }
      }
      guard rate > 0, rate <= 100 else { throw ValidationError("--rate must be above 0 and at most 100 Hz") }
      guard GNSSReceiver.Start(rawValue: start) != nil else { throw ValidationError("--start: cold, warm or hot") }
      guard ["nmea", "jsonl"].contains(to) else { throw ValidationError("--to: nmea or jsonl") }
      guard ISO8601Time.parse(startTime) != nil else {
        throw ValidationError("--start-time wants an ISO 8601 time, e.g. 2026-01-01T00:00:00Z")
      }
    }

    func run() throws {
      var profile = try RealismOptions.realismProfile(realism)
      if let systems { profile.systems = try RealismOptions.systems(systems) }
      let first = ISO8601Time.parse(startTime)!
      let options = GNSSReceiver.Options(
        profile: profile, seed: seed, phone: phone, start: GNSSReceiver.Start(rawValue: start)!, assisted: !standalone,
        almanac: try Sky.almanac(almanac, near: first))
      let truth = try truths(from: first)
      printError(
        "locemu simulate: seed \(seed), phone \(phone), profile \(profile.name), \(start) start\(standalone ? ", standalone" : ", assisted")"
      )
      let sink: FileSink
      do { sink = try FileSink(path: outputPath ?? "-") } catch { throw CommandFailure("\(error)") }
      var receiver = GNSSReceiver(options: options)
      var summary = Summary()
      // Seconds of the truth simulated, of --duration when given.
      let progress = ProgressLine("simulate", unit: .seconds, quiet: quiet)
      let total = duration.map { Int64($0.rounded(.up)) }
      defer { progress.finish() }
      do {
        try truth { fix in
          if let time = fix.timestamp { progress.update(Int64(time.timeIntervalSince(first)), of: total) }
          let epoch = receiver.measure(fix)
          summary.add(epoch, truth: fix)
          if to == "nmea" {
            for sentence in epoch.nmeaSentences { try sink.write(sentence + "\r\n") }
          } else {
            var extra: [(String, String)] = [
              ("state", JSONText.quoted(epoch.state.rawValue)), ("used", String(epoch.used.count)),
              ("visible", String(epoch.satellites.count)),
            ]
            if let dop = epoch.dop { extra.append(("hdop", FixRecord.fixed(dop.horizontal, 2))) }
            try sink.write(FixRecord.json(epoch.fix, extra: extra) + "\n")
          }
        }
        try sink.close()
      } catch let error as CommandFailure {
        throw error
      } catch {
        throw CommandFailure("\(error)")
      }
      progress.finish()
      printError("locemu simulate: " + summary.description(timeToFirstFix: summary.firstFix))
    }

    /// Calls `body` with each truth fix, stamped: the timeline of the ``Truth`` the options
    /// give (the builder the scenario commands use), stepped as fast as the receiver measures.
    private func truths(from first: Date) throws -> ((LocationFix) throws -> Void) throws -> Void {
      let step = 1 / rate
      guard let path = truthTrace else {
        // A point or a route: epoch i at i / rate, from its index (a step such as a third of a
        // second, added up, would drift), the route's last fix held until --duration.
        let truth: Truth
        if let fixed {
          let (coordinate, altitude) = ScenarioOptions.point(fixed)!
          truth = .fixed(coordinate, altitude: altitude, horizontalAccuracy: nil)
        } else {
          truth = .route(route.map { ScenarioOptions.point($0)!.coordinate }, speed: mps)
        }
        let source = try truth.source(interval: .milliseconds(Int64(1000 * step)))
        let count = Int((duration! * rate).rounded(.down)) + 1
        return { body in
          guard let timeline = try source.makeTimeline(startDate: first) else { return }
          defer { timeline.close() }
          var last: LocationFix?
          for i in 0..<count {
            if let (_, next) = try timeline.next() { last = next }
            guard var fix = last else { return }
            fix.timestamp = first + Double(i) * step
            fix.mode = .threeD
            fix.altitudeMSL = fix.altitudeMSL ?? 0
            try body(fix)
          }
        }
      }
      let trace: Trace
      do {
        trace = try Trace(path: path)
      } catch {
        throw CommandFailure("\(error)")
      }
      // The trace once, at its own pace and times, without gap fills (a gap is the receiver's
      // to have); epochs with only a time of day dated from --start-time, epochs without any
      // time 1 / rate apart.
      let source = try Truth.trace(trace, ReplayOptions(speed: 1, gapThreshold: nil, untimedStart: first, untimedInterval: step))
        .source()
      let limit = duration.map { Duration.seconds($0) }
      return { body in
        guard let timeline = try source.makeTimeline(startDate: first) else { return }
        defer { timeline.close() }
        var read = 0
        while let (at, fix) = try timeline.next() {
          read += 1
          if let limit, at > limit { break }
          try body(fix)
        }
        if read == 0 { throw CommandFailure("\(trace.path): no epochs read (--format is not an option here; check the file)") }
      }
    }

    /// What the run came to, for standard error.
    struct Summary {
      var epochs = 0, fixes = 0, covered = 0
      var firstFix: Double?
      var start: Date?
      var horizontal: [Double] = []

      mutating func add(_ epoch: ReceiverEpoch, truth: LocationFix) {
        epochs += 1
        if start == nil { start = truth.timestamp }
        guard epoch.fix.hasFix, let error = epoch.error else { return }
        fixes += 1
        if firstFix == nil, let t = truth.timestamp, let start { firstFix = t.timeIntervalSince(start) }
        horizontal.append(error.horizontal)
        if error.horizontal <= epoch.fix.horizontalAccuracy ?? 0 { covered += 1 }
      }

      func description(timeToFirstFix: Double?) -> String {
        var parts = ["\(epochs) epochs, \(fixes) with a fix"]
        parts.append("first fix after " + (timeToFirstFix.map { FixRecord.fixed($0, 1) + " s" } ?? "none"))
        if !horizontal.isEmpty {
          let sorted = horizontal.sorted()
          func percentile(_ p: Double) -> String { FixRecord.fixed(sorted[min(sorted.count - 1, Int(p * Double(sorted.count)))], 1) }
          parts.append("horizontal error 50/80/95 % \(percentile(0.5))/\(percentile(0.8))/\(percentile(0.95)) m")
          parts.append("accuracy held the error in \(FixRecord.fixed(100 * Double(covered) / Double(fixes), 1)) % (68 % promised)")
        }
        return parts.joined(separator: "; ")
      }
    }
  }
}
