package import ArgumentParser
import Emulator

#if canImport(Glibc)
  import Glibc
#endif

/// The `locemu` command: its subcommands parse and run here, so that tests parse them in
/// process; the executable's `main` only calls ``main(_:)``.
package struct LocEmu: AsyncParsableCommand {
  package init() {}

  package static let configuration = CommandConfiguration(
    commandName: "locemu",
    abstract: "A scriptable location \"device\" for tests on Linux (trace replay, gpsd, NMEA, permission scenarios).",
    discussion: """
      Fix records go to standard output as JSON lines with gpsd's TPV member \
      names (time, mode, lat, lon, altMSL, altHAE, speed, track); diagnostics \
      and summaries go to standard error.
      """,
    version: LocEmu.version,
    subcommands: [Decode.self, Replay.self, Convert.self, Watch.self] + servers.feed + [Permissions.self, Preview.self] + servers.http
      + [Ctl.self, Record.self, BasemapCommand.self, Sky.self, Simulate.self, Port.self]
  )

  /// The commands that are servers (`feed`; `serve-announcements` and `serve`), on SwiftNIO and
  /// Hummingbird: present with the package's `Servers` trait (the default), absent from the
  /// demo build of `scripts/run.sh`, which builds without them.
  #if Servers
    static let servers: (feed: [any ParsableCommand.Type], http: [any ParsableCommand.Type]) = (
      [Feed.self], [ServeAnnouncements.self, Serve.self]
    )
  #else
    static let servers: (feed: [any ParsableCommand.Type], http: [any ParsableCommand.Type]) = ([], [])
  #endif
  /// The names of ``servers``, for the message of a build without them.
  static let serverNames = ["feed", "serve-announcements", "serve"]

  /// The version `locemu --version` prints: the library's (``LocationEmulator/version``).
  static let version = LocationEmulator.version

  /// Parses `arguments` (the process's own by default), runs the command, and exits with its status.
  package static func main(_ arguments: [String] = Array(CommandLine.arguments.dropFirst())) async -> Never {
    Glibc.exit(await execute(arguments))
  }

  /// Parses `arguments`, runs the command and returns its exit status, writing on the streams of
  /// ``StandardStreams/current``: what the executable does, short of exiting, so that a test
  /// runs a command in process. The one place a failure becomes its line and status: a
  /// ``CommandFailure`` is `locemu COMMAND: message` on standard error; bad usage is
  /// ArgumentParser's message (64); `--help` and `--version` print on standard output (0).
  package static func execute(_ arguments: [String]) async -> Int32 {
    let names = configuration.subcommands.map { $0._commandName }
    // A server in a build without them: say how to get them, not only that the name is unknown.
    if let first = arguments.first, serverNames.contains(first), !names.contains(first) {
      printError(
        "locemu: '\(first)' is not in this build of locemu (built without the Servers trait, as scripts/run.sh's demo is); "
          + "build it with its servers: swift build --package-path Tools --product locemu")
      return 64
    }
    // `locemu help NAME` for a NAME that is no subcommand: ArgumentParser prints the general
    // help and exits 0; say what is wrong instead.
    if arguments.count >= 2, arguments[0] == "help", !arguments[1].hasPrefix("-") {
      if !names.contains(arguments[1]) {
        printError("locemu: no subcommand '\(arguments[1])'; the subcommands are \(names.joined(separator: ", "))")
        return 64
      }
    }
    do {
      var command = try parseAsRoot(arguments)
      if var asyncCommand = command as? any AsyncParsableCommand {
        try await asyncCommand.run()
      } else {
        try command.run()
      }
      return 0
    } catch let failure as CommandFailure {
      let names = configuration.subcommands.map { $0._commandName }
      let name = arguments.first { !$0.hasPrefix("-") }.flatMap { names.contains($0) ? $0 : nil }
      printError("locemu\(name.map { " " + $0 } ?? ""): \(failure.message)")
      return failure.status
    } catch {
      // What ArgumentParser's exit(withError:) prints, where it prints it.
      let status = exitCode(for: error)
      let message = fullMessage(for: error)
      if !message.isEmpty {
        if status == .success { writeOutput(message + "\n") } else { printError(message) }
      }
      return status.rawValue
    }
  }
}

/// Why a command failed: one line on standard error (`locemu COMMAND: message`, written by
/// ``LocEmu/main(_:)``) and the exit status. Bad usage is a `ValidationError` (64) instead.
struct CommandFailure: Error, CustomStringConvertible {
  var message: String
  /// 1 for a failure of the data or the peer; commands document any other.
  var status: Int32

  init(_ message: String, status: Int32 = 1) {
    self.message = message
    self.status = status
  }

  var description: String { message }
}
