import ArgumentParser
import Testing

@testable import LocEmuCommands

/// The commands as the library they are (issue 33): parsed and validated in this process, as
/// the binary parses its arguments, with no process started. What a command then does is
/// tested end to end in the other suites.
@Suite("locemu's arguments, parsed in process")
struct CommandParsingTests {
  /// The exit status and message the binary would give for `arguments`, without running the
  /// command: (0, "") parsed, (0, "help") a request for help, else the error's status and message.
  static func parse(_ arguments: [String]) -> (status: Int32, message: String) {
    do {
      // A request for help parses as ArgumentParser's help command, which prints it.
      let command = try LocEmu.parseAsRoot(arguments)
      return (0, String(describing: type(of: command)).contains("HelpCommand") ? "help" : "")
    } catch {
      let status = LocEmu.exitCode(for: error).rawValue
      return (status, status == 0 ? "help" : LocEmu.fullMessage(for: error))
    }
  }

  /// Every command names itself. Without a name, ArgumentParser derives one from the type's
  /// name (`String(describing:)`, a dynamic cast that scans every protocol conformance of the
  /// process once per type), for every command in the tree at each start: a quarter of
  /// `locemu --version`'s time before the names were given.
  @Test func everyCommandHasItsNameGiven() {
    var unnamed: [String] = []
    func visit(_ command: any ParsableCommand.Type, path: String) {
      let name = command.configuration.commandName
      if name == nil { unnamed.append("\(path) \(command)") }
      for sub in command.configuration.subcommands { visit(sub, path: "\(path) \(name ?? "?")") }
    }
    visit(LocEmu.self, path: "")
    #expect(unnamed.isEmpty, "commands without commandName: \(unnamed)")
  }

  /// A coordinate's arguments are taken as they come (a southern or western one is not an
  /// option), and --help among them still asks for help.
  @Test(arguments: [["location", "set"], ["location", "start"]])
  func aCoordinateArgumentTakesNegativesAndStillGivesHelp(verb: [String]) {
    #expect(Self.parse(["ctl"] + verb + ["--help"]) == (0, "help"))
    #expect(Self.parse(["ctl"] + verb + ["52.2,21.0", "-h"]) == (0, "help"))
    #expect(Self.parse(["ctl"] + verb + ["-33.8688,151.2093"]).status == 0)
    let bad = Self.parse(["ctl"] + verb + ["Sydney"])
    #expect(bad.status == 64 && bad.message.contains("'Sydney' is not LAT,LON"), "\(bad.message)")
  }

  /// `--` ends the options, as in every Unix tool: scripts written `location set -- LAT,LON`
  /// (as the help once advised) keep working, and the point is the one after it.
  @Test func aDoubleDashEndsTheOptionsBeforeACoordinate() throws {
    #expect(Self.parse(["ctl", "location", "set", "--", "60.15,24.95"]).status == 0)
    #expect(Self.parse(["ctl", "location", "set", "--", "-33.8688,151.2093"]).status == 0)
    #expect(Self.parse(["ctl", "location", "start", "--", "60.15,24.95", "-33.8,151.2"]).status == 0)
    #expect(Self.parse(["ctl", "location", "set", "--"]).status == 64)
    let set = try #require(try LocEmu.parseAsRoot(["ctl", "location", "set", "--", "-33.8688,151.2093"]) as? LocEmu.Ctl.Location.Set)
    #expect(set.point.latitude == -33.8688 && set.point.longitude == 151.2093)
    let start = try #require(try LocEmu.parseAsRoot(["ctl", "location", "start", "--", "1,2", "3,4"]) as? LocEmu.Ctl.Location.Start)
    #expect(start.waypoints.map(\.latitude) == [1, 3])
  }

  /// `serve --tiles` takes an http(s) URL template with {z}, {x} and {y}, and says which is missing.
  @Test func serveTilesIsATileURLTemplate() {
    #expect(Self.parse(["serve", "--tiles", "https://tile.example.org/{z}/{x}/{y}.png"]).status == 0)
    let missing = Self.parse(["serve", "--tiles", "https://tile.example.org/{z}/{x}.png"])
    #expect(missing.status == 64 && missing.message.contains("{y}"), "\(missing.message)")
    let file = Self.parse(["serve", "--tiles", "file:///tiles/{z}/{x}/{y}.png"])
    #expect(file.status == 64 && file.message.contains("not an http(s) URL"), "\(file.message)")
  }

  @Test func seekTakesAFixOrATime() {
    #expect(Self.parse(["ctl", "location", "seek", "--fix", "3"]).status == 0)
    #expect(Self.parse(["ctl", "location", "seek", "--seconds", "2.5"]).status == 0)
    let neither = Self.parse(["ctl", "location", "seek"])
    #expect(neither.status == 64 && neither.message.contains("give --fix N or --seconds S"))
    #expect(Self.parse(["ctl", "location", "seek", "--fix", "1", "--seconds", "2"]).status == 64)
    #expect(Self.parse(["ctl", "location", "seek", "--fix", "-1"]).status == 64)
  }

  /// The client's timeout is any time up to a day: a long `clock advance` on a busy machine may
  /// take more than its default 30 s.
  @Test func ctlTakesATimeout() {
    #expect(Self.parse(["ctl", "--timeout", "600", "clock", "advance", "120"]).status == 0)
    let zero = Self.parse(["ctl", "--timeout", "0", "status"])
    #expect(zero.status == 64 && zero.message.contains("--timeout"), "\(zero.message)")
    #expect(Self.parse(["ctl", "--timeout", "86401", "status"]).status == 64)
  }

  @Test func serveChecksItsTokenAndLimitsBeforeListening() {
    let short = Self.parse(["serve", "--token", "short"])
    #expect(short.status == 64 && short.message.contains("at least 16 characters"))
    #expect(Self.parse(["serve", "--token", "0123456789abcdef"]).status == 0)
    #expect(Self.parse(["serve", "--no-bundled-basemaps", "--basemap", "x.basemap"]).status == 0)
    #expect(Self.parse(["serve", "--max-phones", "0"]).status == 64)
  }

  @Test func traceFormatsIncludeKMLAndGeoJSON() {
    #expect(Self.parse(["replay", "walk.trace", "--format", "kml"]).status == 0)
    #expect(Self.parse(["replay", "walk.trace", "--format", "geojson"]).status == 0)
    #expect(Self.parse(["replay", "walk.trace", "--format", "shapefile"]).status == 64)
  }
}
