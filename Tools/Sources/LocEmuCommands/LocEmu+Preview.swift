public import ArgumentParser
import Emulator
import Basemap
import Foundation
import LostPetsApp
import LocationEmulatorClient
import Geo
import LocationModel
import PermissionHandling
import Scenarios
import PetMap
import MapRendering

extension LocEmu {
  struct Preview: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "preview",
      abstract: "Run the lost-pets map features on the emulator: the landing-page map preview, navigation, the fullscreen map.",
      discussion: """
        The landing page's map preview reads and observes permission through the \
        LocationPermissionHandler (never asking for it), captures the location \
        once, frames 10 km around it at 16:9, and shows the 5 newest ACTIVE/FOUND \
        announcements within 10 km as pins. A tap on the loaded map pushes the \
        fullscreen map (once, however many taps come during the push); back and \
        swipeBack pop it.

        Everything of `locemu permissions` applies (source, start state, --at \
        TIME=EVENT, --scenario, --control stdin, --virtual-time); the map events \
        are tap, back, swipeBack and retry.

        Output: a readable transcript, or with --json one JSON line per change: \
        t, event, and for `preview` lines preview (loading, map, \
        permissionRequired, error) with, in the map state, center [lat, lon], \
        radiusMeters, latitudeDelta, longitudeDelta, pins and pinIds; \
        `navigation` lines carry screen (landing, fullscreenMap), action, trigger \
        and stack; `fullscreenMap` lines the map's centre, zoom, title and legend; \
        `tapIgnored`, `backIgnored`, `retryIgnored` say why an input did nothing; \
        `log` lines are the app's debugging output.

        Announcements come from a file (the backend's JSON) or a server URL \
        (GET URL/api/v1/announcements?lat=…&lng=…&range=10&limit=5); a server runs \
        on the real clock, so it cannot be combined with --virtual-time.

        With --server URL [--phone ID], the app runs on a phone of 'locemu serve': the \
        phone here follows the served one (permission, Location Services, accuracy, app \
        state and the fixes it delivers) as a test script changes it with 'locemu ctl'.

        Example: locemu preview --virtual-time --trace traces/city-walk.nmea \
        --announcements traces/announcements.json --snapshot preview.svg \
        --at 1=authorize --at 4=tap --duration 8

        Land and sea anywhere, the streets of a city over them (scripts/run.sh): \
        --basemap data/shoreline/gulf-of-finland.basemap --basemap helsinki.basemap \
        --snapshot preview.svg --snapshot-fullscreen fullscreen.svg \
        --snapshot-fullscreen-zoom 16 --at 1=authorize --at 4=tap

        Exit status: 0 done; 1 a file cannot be read, or the --server phone cannot be \
        reached or goes away; 64 bad options.
        """
    )

    @Option(help: ArgumentHelp("Where pins come from: an announcements file or a server's base URL.", valueName: "FILE|URL"))
    var announcements: String?

    @Option(help: ArgumentHelp("Write the preview as an SVG image when the map loads.", valueName: "FILE.svg"))
    var snapshot: String?

    @Option(
      help: ArgumentHelp(
        "Write the fullscreen map as an SVG image each time it is shown (its viewport's zoom, the legend; over --basemap or --tiles).",
        valueName: "FILE.svg"))
    var snapshotFullscreen: String?

    @Option(
      help: ArgumentHelp(
        "Draw the --snapshot-fullscreen image at this zoom around the map's centre (16: streets; the map's own is about 10.5 for 10 km).",
        valueName: "ZOOM"))
    var snapshotFullscreenZoom: Double?

    @Option(
      help: ArgumentHelp("Draw the snapshot over raster tiles from this z/x/y.png directory or .mbtiles file.", valueName: "DIR|FILE"))
    var tiles: String?

    @Option(
      help: ArgumentHelp(
        "Draw streets, water, parks and labels from this basemap under the snapshot ('locemu basemap build'); repeat to stack "
          + "them, a shoreline first (land and sea: data/shoreline/gulf-of-finland.basemap, or any region's or the world's "
          + "from scripts/make-shoreline.sh), then a city's streets.",
        valueName: "FILE"))
    var basemap: [String] = []

    @Option(help: ArgumentHelp("The language of messages and the legend.", valueName: "en|pl"))
    var language: MapLanguage = .english

    @Flag(help: "Print JSON lines instead of the readable transcript.")
    var json = false

    @Flag(help: "Also print every fix the app's location stream delivers.")
    var showFixes = false

    @OptionGroup(title: "A served phone") var served: ServedPhoneOptions

    @OptionGroup var options: ScenarioOptions
    @OptionGroup var realismOptions: RealismOptions
    @OptionGroup var traceOptions: TraceOptions
    @OptionGroup var timeOptions: TimeBaseOptions
    var sources: ScenarioOptions.Sources { .init(realism: realismOptions, trace: traceOptions, time: timeOptions) }

    func validate() throws {
      try options.validate(sources)
      try AnnouncementSource.validate(announcements, virtualTime: options.virtualTime)
      if served.server != nil {
        if options.virtualTime { throw ValidationError("--server follows a phone on the real clock; drop --virtual-time") }
        if options.fixed != nil || options.trace != nil || options.gpsd != nil {
          throw ValidationError("--server is the source: drop --fixed, --trace and --gpsd")
        }
      }
      if let snapshot, !snapshot.hasSuffix(".svg") { throw ValidationError("--snapshot must name an .svg file") }
      if let snapshotFullscreen, !snapshotFullscreen.hasSuffix(".svg") {
        throw ValidationError("--snapshot-fullscreen must name an .svg file")
      }
      if tiles != nil && snapshot == nil && snapshotFullscreen == nil {
        throw ValidationError("--tiles needs --snapshot or --snapshot-fullscreen")
      }
      if let zoom = snapshotFullscreenZoom {
        guard snapshotFullscreen != nil else { throw ValidationError("--snapshot-fullscreen-zoom needs --snapshot-fullscreen") }
        guard MapViewport.zoomRange.contains(zoom) else {
          throw ValidationError("--snapshot-fullscreen-zoom must be within \(MapViewport.zoomRange)")
        }
      }
      if !basemap.isEmpty && snapshot == nil && snapshotFullscreen == nil {
        throw ValidationError("--basemap needs --snapshot or --snapshot-fullscreen")
      }
    }

    /// A repository that tells `onFirstFailure` of its first failure (and passes every answer on).
    struct ReportingRepository: AnnouncementRepository {
      let inner: any AnnouncementRepository
      let reported = Locked(false)
      let onFirstFailure: @Sendable (any Error) -> Void

      init(_ inner: any AnnouncementRepository, onFirstFailure: @escaping @Sendable (any Error) -> Void) {
        self.inner = inner
        self.onFirstFailure = onFirstFailure
      }

      func announcements(for query: AnnouncementListQuery) async throws -> [Announcement] {
        do {
          return try await inner.announcements(for: query)
        } catch {
          if !reported.withLock({ reported in
            defer { reported = true }
            return reported
          }) {
            onFirstFailure(error)
          }
          throw error
        }
      }
    }

    struct Factory: ScenarioOptions.AppFactory {
      var repository: (any AnnouncementRepository)?
      var snapshotter: (any MapSnapshotting)?
      var fullscreenSnapshotter: SVGMapSnapshotter?
      var fullscreenSnapshotZoom: Double?
      var strings: MapStrings

      func make(runner: ScenarioRunner) throws -> (any ScenarioApp)? {
        // The app's own handler on the same phone: the runner's keeps reporting statusChange lines.
        MapFeaturesApp(
          phone: runner.phone, repository: repository, snapshotter: snapshotter, strings: strings,
          fullscreenSnapshotter: fullscreenSnapshotter, fullscreenSnapshotZoom: fullscreenSnapshotZoom)
      }
    }

    func run() async throws {
      let repository = try AnnouncementSource.open(announcements, command: "preview")
      // Under the map: raster tiles (a z/x/y directory or an .mbtiles file), then the basemaps.
      var layers: [any MapSnapshotLayer] = []
      if let tiles {
        if tiles.hasSuffix(".mbtiles") {
          do {
            layers.append(try MBTiles(path: tiles))
          } catch {
            throw CommandFailure("--tiles: \(error)")
          }
        } else {
          layers.append(TileDirectoryLayer(path: tiles))
        }
      }
      for basemap in basemap {
        do {
          layers.append(try Basemap(path: basemap))
        } catch {
          throw CommandFailure("--basemap: \(error)")
        }
      }
      let snapshotter = snapshot.map {
        SVGMapSnapshotter(layers: layers, outputPath: $0, warn: { printError("locemu preview: \($0)") })
      }
      let fullscreen = snapshotFullscreen.map {
        SVGMapSnapshotter(layers: layers, outputPath: $0, warn: { printError("locemu preview: \($0)") })
      }
      // The spec carries on without pins when the backend fails; say so once where a user looks.
      let source = announcements ?? ""
      let factory = Factory(
        repository: repository.map {
          ReportingRepository($0) { error in
            printError("locemu preview: announcements unavailable from \(source): \(error); the map shows no pins")
          }
        }, snapshotter: snapshotter, fullscreenSnapshotter: fullscreen, fullscreenSnapshotZoom: snapshotFullscreenZoom,
        strings: MapStrings(language))
      let output = Locked(OutputBuffer())
      let json = self.json, live = !options.virtualTime
      try await options.run(command: "preview", sources, reportFixes: showFixes, factory: factory, follow: served.remote) { line in
        output.withLock {
          $0.writeLine(json ? line.json : TranscriptText.line(line))
          if live { $0.flush() }
        }
      }
      output.withLock { $0.flush() }
    }
  }
}

extension MapLanguage: @retroactive ExpressibleByArgument {}

/// The readable form of transcript lines: time, event, then the members as name=value.
enum TranscriptText {
  static func line(_ line: TranscriptLine) -> String {
    var out = FixRecord.fixed(line.t.seconds, 3)
    out = String(repeating: " ", count: max(0, 9 - out.count)) + out + "  "
    out += line.event.padding(toLength: max(line.event.count, 14), withPad: " ", startingAt: 0)
    for member in line.members {
      let value =
        member.json.hasPrefix("\"") && member.json.hasSuffix("\"") && member.json.count >= 2
        ? String(member.json.dropFirst().dropLast()) : member.json
      // The main value of a line (preview's state, navigation's screen) needs no name.
      if (line.event == "preview" && member.name == "preview") || (line.event == "navigation" && member.name == "screen") {
        out += " " + value
      } else {
        out += " \(member.name)=\(value)"
      }
    }
    return out
  }
}
