import ArgumentParser
import Dispatch
import Foundation
import LocationEmulatorClient
import Traces

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension LocEmu {
  struct Ctl: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Drive a phone of 'locemu serve' from a shell, as 'xcrun simctl location/privacy' drive a simulator.",
      discussion: """
        Verbs:
          status                                  the phone's state, one JSON object
          location set LAT,LON [--altitude M] [--accuracy M] [--speed MPS] [--course DEG]
          location start [--speed MPS] [--interval S] LAT,LON LAT,LON …
                                                  walk a route (default 1.4 m/s, a fix a second)
          location run TRACE [--speed X] [--loop] [--offset S] [--format nmea|gpx|jsonl]
                                                  play a trace file of this machine (uploaded to
                                                  the server), stamped with the phone's time
          location run --named NAME [options]     play a trace of the server's --traces directory
          traces                                  the server's traces and its size limit
          location clear                          no more fixes (the receiver lost the sky)
          privacy grant [--always] | revoke | reset | restrict
          services on|off
          accuracy full|reduced
          app background|foreground
          prompt ANSWER [--delay S]               how the user will answer the next prompt
          call authorize|request|locate           the app's own calls (results on 'events')
          event EVENT                             any scenario event, e.g. fix=lost
          events [--count N] [--history N]        the transcript, JSON lines, as it happens
          phones | phones create | phones delete ID
          clock | clock advance S                 (advance: a --virtual-time server only)

        The server is --server or $LOCEMU_SERVER (default http://127.0.0.1:8947); the phone \
        is --phone (default 1).

        Example: locemu ctl privacy revoke && locemu ctl status

        Exit status: 0 done; 1 the server refused (its one-line message on standard error); \
        2 the server could not be reached; 64 bad usage.
        """
    )

    @Option(help: ArgumentHelp("The server (default: $LOCEMU_SERVER, else http://127.0.0.1:8947).", valueName: "URL"))
    var server: String?

    @Option(help: ArgumentHelp("The server's token (default: $LOCEMU_TOKEN), for a server beyond loopback.", valueName: "TOKEN"))
    var token: String?

    @Option(help: ArgumentHelp("The phone.", valueName: "ID"))
    var phone: String = "1"

    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("The verb and its arguments.", valueName: "VERB"))
    var words: [String] = []

    var baseURL: String {
      (server ?? ProcessInfo.processInfo.environment["LOCEMU_SERVER"] ?? "http://127.0.0.1:8947")
        .trimmingCharacters(in: CharacterSet(charactersIn: "/"))
    }

    func run() async throws {
      guard let base = URL(string: baseURL), base.host != nil else { usage("--server: '\(baseURL)' is not a URL") }
      let p = "phones/\(phone)"
      var words = self.words
      let verb = words.isEmpty ? "" : words.removeFirst()
      switch (verb, words.first) {
      case ("status", nil): await request("GET", p)
      case ("location", "set"):
        let flags = Flags(Array(words.dropFirst()), numbers: ["--altitude", "--accuracy", "--speed", "--course"])
        guard let point = flags.positional.first, flags.positional.count == 1 else { usage("location set LAT,LON [options]") }
        let parts = point.split(separator: ",").map { Double($0) }
        guard parts.count == 2, let lat = parts[0], let lon = parts[1] else { usage("location set: LAT,LON, e.g. 52.2297,21.0122") }
        var body: [String: any Sendable] = ["lat": lat, "lon": lon]
        for (flag, key) in [("--altitude", "altitude"), ("--accuracy", "horizontalAccuracy"), ("--speed", "speed"), ("--course", "course")] {
          if let v = flags.numbers[flag] { body[key] = v }
        }
        flags.noneLeft()
        await request("POST", "\(p)/location", body)
      case ("location", "start"):
        let flags = Flags(Array(words.dropFirst()), numbers: ["--speed", "--interval"])
        flags.noneLeft()
        guard !flags.positional.isEmpty else { usage("location start [--speed MPS] [--interval S] LAT,LON LAT,LON …") }
        let waypoints = flags.positional.map { point -> [String: any Sendable] in
          let parts = point.split(separator: ",").map { Double($0) }
          guard parts.count == 2, let lat = parts[0], let lon = parts[1] else { usage("location start: '\(point)' is not LAT,LON") }
          return ["lat": lat, "lon": lon]
        }
        var body: [String: any Sendable] = ["waypoints": waypoints]
        if let v = flags.numbers["--speed"] { body["speed"] = v }
        if let v = flags.numbers["--interval"] { body["interval"] = v }
        await request("POST", "\(p)/route", body)
      case ("location", "run"):
        let flags = Flags(
          Array(words.dropFirst()), numbers: ["--speed", "--offset"], switches: ["--loop"], strings: ["--format", "--named"])
        flags.noneLeft()
        let named = flags.strings["--named"]
        guard (named == nil) == (flags.positional.count == 1), flags.positional.count <= 1 else {
          usage("location run TRACE | --named NAME [--speed X] [--loop] [--offset S] [--format nmea|gpx|jsonl]")
        }
        var format: Trace.Format?
        if let text = flags.strings["--format"] {
          guard let f = Trace.Format(rawValue: text) else { usage("--format: nmea, gpx or jsonl") }
          format = f
        }
        let phone = client.phone(self.phone)
        let (speed, loop, offset) = (flags.numbers["--speed"] ?? 1, flags.switches.contains("--loop"), flags.numbers["--offset"] ?? 0)
        if let named {
          await printState { () throws(EmulatorClientError) in try await phone.playTrace(named: named, format: format, speed: speed, loop: loop, offset: offset) }
        }
        // The file is read here and sent in the request: the server reads no file of its machine.
        let path = flags.positional[0]
        let contents: Data
        do {
          // At most 1 GB here; the server states its own, smaller, limit (413 beyond it).
          contents = Data(try TraceBytes.read(path: path, maxBytes: 1 << 30).bytes)
        } catch {
          printError("locemu ctl: \(error)")
          Glibc.exit(1)
        }
        let name = (path as NSString).lastPathComponent
        await printState { () throws(EmulatorClientError) in try await phone.playTrace(contents, name: name, format: format, speed: speed, loop: loop, offset: offset) }
      case ("traces", nil): await request("GET", "traces")
      case ("location", "clear") where words.count == 1: await request("DELETE", "\(p)/location")
      case ("privacy", let action?) where ["grant", "revoke", "reset", "restrict"].contains(action):
        let always = words.dropFirst().contains("--always")
        guard words.count == 1 || (action == "grant" && words.count == 2 && always) else { usage("privacy grant [--always] | revoke | reset | restrict") }
        await request("POST", "\(p)/privacy", ["action": action, "always": always])
      case ("services", let v?) where ["on", "off"].contains(v) && words.count == 1: await request("POST", "\(p)/services", ["enabled": v == "on"])
      case ("accuracy", let v?) where ["full", "reduced"].contains(v) && words.count == 1: await request("POST", "\(p)/accuracy", ["accuracy": v])
      case ("app", let v?) where ["background", "foreground"].contains(v) && words.count == 1: await request("POST", "\(p)/app", ["state": v])
      case ("prompt", let answer?):
        let flags = Flags(Array(words.dropFirst()), numbers: ["--delay"])
        flags.noneLeft()
        var body: [String: any Sendable] = ["answer": answer]
        if let delay = flags.numbers["--delay"] { body["delay"] = delay }
        await request("POST", "\(p)/prompt", body)
      case ("call", let call?) where ["authorize", "request", "locate"].contains(call) && words.count == 1:
        await request("POST", "\(p)/calls/\(call)")
      case ("event", let event?) where words.count == 1: await request("POST", "\(p)/events", ["event": event])
      case ("events", _):
        let flags = Flags(words, numbers: ["--count", "--history"])
        flags.noneLeft()
        let count = flags.numbers["--count"].map { Int($0) }
        if let count, count < 1 { usage("--count must be at least 1") }
        await stream("\(p)/events?history=\(Int(flags.numbers["--history"] ?? 0))", count: count)
      case ("phones", nil): await request("GET", "phones")
      case ("phones", "create") where words.count == 1: await request("POST", "phones", [:])
      case ("phones", "delete") where words.count == 2: await request("DELETE", "phones/\(words[1])")
      case ("clock", nil): await request("GET", "clock")
      case ("clock", "advance") where words.count == 2:
        guard let seconds = Double(words[1]), seconds >= 0 else { usage("clock advance SECONDS") }
        await request("POST", "clock/advance", ["seconds": seconds])
      default:
        usage(verb.isEmpty ? "give a verb (locemu ctl --help lists them)" : "unknown or incomplete verb: \(self.words.joined(separator: " "))")
      }
    }

    /// `--name NUMBER`, `--name WORD`, `--switch` and positional words.
    struct Flags {
      var numbers: [String: Double] = [:]
      var strings: [String: String] = [:]
      var switches: Set<String> = []
      var positional: [String] = []
      var unknown: [String] = []

      init(_ words: [String], numbers names: Set<String>, switches switchNames: Set<String> = [], strings stringNames: Set<String> = []) {
        var i = 0
        while i < words.count {
          let w = words[i]
          if names.contains(w) {
            guard i + 1 < words.count, let v = Double(words[i + 1]), v.isFinite else { usage("\(w) needs a number") }
            numbers[w] = v
            i += 2
          } else if stringNames.contains(w) {
            guard i + 1 < words.count else { usage("\(w) needs a value") }
            strings[w] = words[i + 1]
            i += 2
          } else if switchNames.contains(w) {
            switches.insert(w)
            i += 1
          } else if w.hasPrefix("--") {
            unknown.append(w)
            i += 1
          } else {
            positional.append(w)
            i += 1
          }
        }
      }

      func noneLeft() {
        if let w = unknown.first { usage("unknown option \(w)") }
      }
    }

    var client: EmulatorServer { EmulatorServer(url: URL(string: baseURL), token: token, timeout: 30) }

    /// One request; prints the answer's body on standard output, or its error on standard error.
    func request(_ method: String, _ path: String, _ body: [String: any Sendable]? = nil) async -> Never {
      do {
        let data = try await client.send(method, path, json: body)
        let text = String(decoding: data, as: UTF8.self)
        if !text.isEmpty { FileHandle.standardOutput.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8)) }
        Glibc.exit(0)
      } catch {
        fail(error)
      }
    }

    /// Runs a client call that answers the phone's state, and prints it as the server sent it.
    func printState(_ call: () async throws(EmulatorClientError) -> RemotePhoneState) async -> Never {
      do {
        let state = try await call()
        FileHandle.standardOutput.write(Data((state.json + "\n").utf8))
        Glibc.exit(0)
      } catch {
        fail(error)
      }
    }

    /// The phone's event stream: each event's JSON on a line, until `count` or the stream ends.
    func stream(_ path: String, count: Int?) async -> Never {
      do {
        var printed = 0
        for try await line in try await client.events(path) {
          FileHandle.standardOutput.write(Data((line + "\n").utf8))
          printed += 1
          if let count, printed >= count { break }
        }
        Glibc.exit(0)
      } catch let error as EmulatorClientError {
        fail(error)
      } catch {
        fail(.unreachable("\(error)"))
      }
    }

    /// The server refused (1, its message) or could not be reached (2).
    func fail(_ error: EmulatorClientError) -> Never {
      printError("locemu ctl: \(error)")
      switch error {
      case .unreachable: Glibc.exit(2)
      case .refused, .badRequest: Glibc.exit(1)
      }
    }
  }
}

/// Bad usage: one line and exit 64.
private func usage(_ message: String) -> Never {
  printError("locemu ctl: \(message)")
  Glibc.exit(64)
}
