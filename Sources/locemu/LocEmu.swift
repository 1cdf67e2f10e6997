import ArgumentParser

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
    subcommands: [
      Decode.self, Replay.self, Convert.self, Watch.self, Feed.self, Permissions.self, Preview.self, ServeAnnouncements.self,
    ]
  )
}
