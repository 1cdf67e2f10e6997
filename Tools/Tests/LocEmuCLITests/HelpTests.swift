import EmulatorTesting
import Foundation
import Geo
import ToolsTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// What `--help`, `help` and `--version` tell a user (issue 16 item 12).
struct HelpTests {
  static let subcommands = [
    "decode", "replay", "convert", "watch", "feed", "permissions", "preview", "serve-announcements", "serve", "ctl", "record", "basemap",
  ]

  /// Every subcommand's help shows at least one example command line and its exit status,
  /// including what an interrupt gives for the commands that run until interrupted.
  @Test(arguments: subcommands)
  func everySubcommandHasAnExampleAndItsExitStatus(name: String) async throws {
    let run = try await DecodeCommandTests.runInProcess([name, "--help"])
    #expect(run.status == 0)
    // The help is wrapped to the terminal's width: compare words, not lines.
    let help = run.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    #expect(help.contains("locemu \(name) "), "no example command line in \(name)'s help")
    #expect(help.contains("Exit status:"), "no exit status in \(name)'s help")
    #expect(help.contains("64"), "\(name)'s help does not say what bad options give")
    if ["watch", "feed", "serve-announcements", "serve", "record"].contains(name) {
      #expect(help.contains("interrupted"), "\(name)'s help does not say what an interrupt gives")
    }
  }

  /// `locemu help NAME` for a NAME that is no subcommand used to print the general help and
  /// exit 0; it is one line naming the subcommands, and exit 64.
  @Test func helpForAnUnknownSubcommandIsOneLineAndExit64() async throws {
    let run = try await DecodeCommandTests.runInProcess(["help", "bogus"])
    #expect(run.status == 64)
    #expect(run.stdout.isEmpty)
    let lines = run.stderr.split(separator: "\n")
    #expect(lines.count == 1)
    #expect(run.stderr.contains("'bogus'") && run.stderr.contains("permissions"))

    let known = try await DecodeCommandTests.runInProcess(["help", "replay"])
    #expect(known.status == 0)
    #expect(known.stdout.contains("locemu replay"))
  }

  /// The smallest in-process run: the machinery of running a command in process (its thread, its
  /// streams, the deadline), which the tools' ThreadSanitizer run checks for races.
  @Test func versionIsPrinted() async throws {
    let run = try await DecodeCommandTests.runInProcess(["--version"])
    #expect(run.status == 0)
    #expect(run.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ".").count == 3)
  }

  /// The version is written once (`LocationEmulator.version`): `--version` prints it, and the
  /// newest release of CHANGELOG.md and the API's description (openapi.yaml) say the same.
  @Test func theVersionIsTheChangelogsNewestRelease() async throws {
    let printed = try await DecodeCommandTests.runInProcess(["--version"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    let changelog = try String(contentsOfFile: repositoryFile("CHANGELOG.md"), encoding: .utf8)
    let released = changelog.split(separator: "\n").first { $0.hasPrefix("## [") && !$0.hasPrefix("## [Unreleased]") }
    #expect(released?.hasPrefix("## [\(printed)] - ") == true, "CHANGELOG.md's newest release: \(released ?? "none")")
    #expect(changelog.contains("## [Unreleased]"))
    let api = try String(contentsOfFile: repositoryFile("openapi.yaml"), encoding: .utf8)
    #expect(api.contains("\n  version: \(printed)\n"), "openapi.yaml's info.version is not \(printed)")
  }

  /// The commands that run until interrupted end cleanly on the signal, as the help says:
  /// the server stops and the process exits 0 (it used to die by the signal).
  @Test func anInterruptedServerEndsAsTheHelpSays() async throws {
    let server = try await PreviewCommandTests.startServer()
    defer { server.stop() }
    try #require(server.url.hasPrefix("http://"), "serve-announcements never said it was listening")
    let pid = server.process.processIdentifier
    // A hang guard: a server that ignores the interrupt is looked at and killed, and the test says so.
    let hangGuard = ProcessHangGuard(pid, bound: .seconds(600))
    kill(pid, SIGINT)
    // Disarmed off the pool too: a disarm during the guard's look waits for the look.
    let outcome = await offPool {
      server.process.waitUntilExit()
      return hangGuard.disarm()
    }
    #expect(!outcome.killed, "serve-announcements did not exit within 600 s of SIGINT, and was killed\n\(outcome.look ?? "")")
    #expect(server.process.terminationReason == .exit)
    #expect(server.process.terminationStatus == 0)
  }
}
