import ArgumentParser

#if canImport(Glibc)
  import Glibc
#endif

@main
struct LocEmu: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "locemu",
    abstract: "A scriptable location \"device\" for tests on Linux (trace replay, gpsd, NMEA, permission scenarios).",
    discussion: """
      Fix records go to standard output as JSON lines with gpsd's TPV member \
      names (time, mode, lat, lon, altMSL, altHAE, speed, track); diagnostics \
      and summaries go to standard error.
      """,
    version: LocEmu.version,
    subcommands: [
      Decode.self, Replay.self, Convert.self, Watch.self, Feed.self, Permissions.self, Preview.self, ServeAnnouncements.self, Serve.self, Ctl.self, Record.self, BasemapCommand.self,
    ]
  )

  /// The version `locemu --version` prints.
  static let version = "0.1.0"

  static func main() async {
    // `locemu help NAME` for a NAME that is no subcommand: ArgumentParser prints the general
    // help and exits 0; say what is wrong instead.
    let arguments = Array(CommandLine.arguments.dropFirst())
    if arguments.count >= 2, arguments[0] == "help", !arguments[1].hasPrefix("-") {
      let names = configuration.subcommands.map { $0._commandName }
      if !names.contains(arguments[1]) {
        printError("locemu: no subcommand '\(arguments[1])'; the subcommands are \(names.joined(separator: ", "))")
        Glibc.exit(64)
      }
    }
    do {
      var command = try parseAsRoot()
      if var asyncCommand = command as? any AsyncParsableCommand {
        try await asyncCommand.run()
      } else {
        try command.run()
      }
    } catch {
      exit(withError: error)
    }
  }
}
