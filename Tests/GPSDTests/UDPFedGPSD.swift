import Foundation
import TestSupport
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// A real gpsd (Debian's package) for the GPSD module's tests: it serves clients on a loopback
/// TCP port of its own and reads NMEA from a UDP port (its source is `udp://127.0.0.1:PORT`),
/// to which ``send(_:)`` writes one datagram per sentence. No device and no feed server: the
/// library's tests need nothing from the tools package. Stopped by its PID.
final class UDPFedGPSD: Sendable {
  /// gpsd's executable, where Debian's package puts it; nil when it is not installed.
  static let path: String? = ["/usr/sbin/gpsd", "/usr/local/sbin/gpsd", "/usr/bin/gpsd"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }

  /// Where clients connect (`GPSDSource(port:)`).
  let port: Int
  /// Where gpsd reads sentences from.
  let feedPort: Int
  private let pid: Int32
  private let sender: Int32
  private let directory: URL
  private let stopped = Mutex(false)

  private init(port: Int, feedPort: Int, pid: Int32, sender: Int32, directory: URL) {
    self.port = port
    self.feedPort = feedPort
    self.pid = pid
    self.sender = sender
    self.directory = directory
  }

  /// Starts gpsd and waits until it listens on its TCP port and holds its UDP port; a pair
  /// another process holds is given up and the next one tried. The wait is under
  /// `hangGuarded` (600 s per pair of ports), never a speed: gpsd listened 5–8 ms after its
  /// start, measured five times on core 0 while a fresh clone's test command kept both cores busy.
  /// - Throws: ``UDPFedGPSDError`` when gpsd is not installed or did not start on 5 pairs.
  static func start() async throws -> UDPFedGPSD {
    guard let path else { throw UDPFedGPSDError("gpsd is not installed (apt-get install gpsd)") }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gpsd-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    var problems: [String] = []
    for _ in 0..<5 {
      let (port, feedPort) = nextPorts()
      let process = Process()
      process.executableURL = URL(fileURLWithPath: path)
      process.arguments = [
        "-N", "-n", "-S", String(port), "-F", directory.appendingPathComponent("sock").path, "udp://127.0.0.1:\(feedPort)",
      ]
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      let pid = process.processIdentifier
      if await hangGuarded(within: .seconds(600), { await holdsItsPorts(pid, port: port, feedPort: feedPort) }) == true {
        let sender = socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        return UDPFedGPSD(port: port, feedPort: feedPort, pid: process.processIdentifier, sender: sender, directory: directory)
      }
      problems.append("\(port)/\(feedPort): \(process.isRunning ? "not its ports within 600 s" : "it exited")")
      kill(process.processIdentifier, SIGKILL)
    }
    try? FileManager.default.removeItem(at: directory)
    throw UDPFedGPSDError("gpsd did not start: \(problems.joined(separator: "; "))")
  }

  /// Sends each sentence (without its line ending) as one datagram.
  func send(_ sentences: some Sequence<String>) {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = in_port_t(UInt16(feedPort).bigEndian)
    for sentence in sentences {
      let datagram = Array((sentence + "\r\n").utf8)
      _ = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          sendto(sender, datagram, datagram.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
    }
  }

  /// Plays `epochs` into gpsd, one every `interval` of real time, until the last or until the
  /// calling task is cancelled.
  func play(_ epochs: [[String]], every interval: Duration = .milliseconds(50)) async {
    for epoch in epochs {
      send(epoch)
      do { try await Task.sleep(for: interval) } catch { return }
    }
  }

  /// Kills gpsd (once; later calls do nothing) and removes its folder.
  func stop() {
    let wasStopped = stopped.withLock { stopped in
      defer { stopped = true }
      return stopped
    }
    guard !wasStopped else { return }
    kill(pid, SIGKILL)
    close(sender)
    try? FileManager.default.removeItem(at: directory)
  }

  deinit { stop() }

  /// Ports gpsd cannot be given as 0: a pair outside the kernel's ephemeral range and outside
  /// the tools' tests' (20,000 and up), from this process's ID, the next pair at each call.
  private static let ports = Mutex(10_000 + Int(getpid() % 2_000) * 4)
  private static func nextPorts() -> (Int, Int) {
    ports.withLock { next in
      defer { next += 2 }
      return (next, next + 1)
    }
  }

  /// Whether process `pid` came to listen on TCP `port` and hold UDP `feedPort` itself (sockets
  /// among its descriptors, not another process's) before it exited or the task was cancelled.
  /// Looks every 20 ms, asleep between looks: no thread is held.
  private static func holdsItsPorts(_ pid: Int32, port: Int, feedPort: Int) async -> Bool {
    // Foundation reaps its child when it exits: then there is no process `pid` to signal.
    while kill(pid, 0) == 0 {
      let own = socketInodes(of: pid)
      if !inodes(["tcp", "tcp6"], port: port, state: "0A").isDisjoint(with: own)
        && !inodes(["udp", "udp6"], port: feedPort, state: nil).isDisjoint(with: own)
      {
        return true
      }
      guard (try? await Task.sleep(for: .milliseconds(20))) != nil else { return false }
    }
    return false
  }

  /// The inodes of the sockets in `/proc/net/TABLE` bound to `port` (in `state`, when given:
  /// `0A` is listening).
  private static func inodes(_ tables: [String], port: Int, state: String?) -> Set<String> {
    Set(tables.flatMap(ProcNetSocket.table).filter { $0.localPort == port && (state == nil || $0.state == state!) }.map(\.inode))
  }
}

struct UDPFedGPSDError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// Runs `body` with a TCP port on 127.0.0.1 where nothing listens and nothing else can come to
/// listen while it runs: a socket bound there that never listens, so connections are refused.
func withUnreachablePort<T>(_ body: (Int) async throws -> T) async throws -> T {
  let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
  guard fd >= 0 else { throw UDPFedGPSDError("no socket: \(String(cString: strerror(errno)))") }
  defer { close(fd) }
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_addr.s_addr = inet_addr("127.0.0.1")
  var length = socklen_t(MemoryLayout<sockaddr_in>.size)
  let bound = withUnsafeMutablePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
  }
  guard bound else { throw UDPFedGPSDError("no free port: \(String(cString: strerror(errno)))") }
  return try await body(Int(UInt16(bigEndian: address.sin_port)))
}
