import ArgumentParser
import Foundation
import LocationEmulatorClient

/// `--server URL [--phone ID] [--token T]`: a phone of `locemu serve` as what a command works on
/// (preview follows it, record records it) instead of a source of its own.
struct ServedPhoneOptions: ParsableArguments {
  @Option(help: ArgumentHelp("Use a phone of 'locemu serve' (its URL) instead of a source of this command's own.", valueName: "URL"))
  var server: String?

  @Option(help: ArgumentHelp("With --server: the phone.", valueName: "ID"))
  var phone: String = "1"

  @Option(help: ArgumentHelp("With --server: its token (default $LOCEMU_TOKEN).", valueName: "TOKEN"))
  var token: String?

  func validate() throws {
    if let server, URL(string: server)?.host == nil { throw ValidationError("--server: '\(server)' is not a URL") }
  }

  /// The served phone, when --server is given.
  var remote: RemotePhone? { server.map { EmulatorServer(url: URL(string: $0), token: token).phone(phone) } }
}
