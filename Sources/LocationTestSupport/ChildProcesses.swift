public import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The `locemu` binary next to the test bundle (`swift build` puts both in the same directory).
public let locemuBinary: URL = {
  let candidates = [Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()]
    .map { $0.appendingPathComponent("locemu") }
  return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
}()

/// A server started as a child process that announces itself with a first line ending in its
/// URL (`locemu serve-announcements` prints `listening on http://HOST:PORT`).
public final class ServerProcess: @unchecked Sendable {
  public let process: Process
  /// The last word of the first line; empty when the server printed nothing and ended.
  public let url: String

  private init(process: Process, url: String) {
    self.process = process
    self.url = url
  }

  /// Starts `executable` with `arguments` and reads its first line, on a thread of its own (a
  /// blocked cooperative thread would starve the other tests).
  public static func start(_ executable: URL = locemuBinary, _ arguments: [String]) async throws -> ServerProcess {
    try await withCheckedThrowingContinuation { continuation in
      Thread {
        continuation.resume(
          with: Result {
            let process = Process()
            process.executableURL = executable
            process.arguments = arguments
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            try process.run()
            var text = ""
            while !text.contains("\n") {
              let chunk = out.fileHandleForReading.availableData
              if chunk.isEmpty { break }
              text += String(decoding: chunk, as: UTF8.self)
            }
            let url = text.split(separator: " ").last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } ?? ""
            return ServerProcess(process: process, url: url)
          })
      }.start()
    }
  }

  /// SIGKILL: the test runner blocks SIGTERM and its children inherit the block.
  public func stop() {
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
  }
}

/// Why a loopback port could not be had.
public struct LoopbackError: Error, CustomStringConvertible {
  public var description: String
  public init(description: String) { self.description = description }
}

/// A TCP socket bound to a free loopback port (port 0, read back), listening when asked: a
/// peer that accepts and never answers, a port in use, or a server's own listener. Closed when
/// it goes away.
public final class LoopbackListener: @unchecked Sendable {
  public let fd: Int32
  public let port: Int

  /// - Parameter backlog: `listen(2)`'s backlog; nil binds without listening.
  public init(backlog: Int32? = 8) throws {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let ok = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, length) == 0 && (backlog.map { listen(fd, $0) == 0 } ?? true) && getsockname(fd, $0, &length) == 0
      }
    }
    guard ok else {
      let message = String(cString: strerror(errno))
      close(fd)
      throw LoopbackError(description: "no free port: \(message)")
    }
    self.fd = fd
    port = Int(UInt16(bigEndian: address.sin_port))
  }

  deinit { close(fd) }
}

/// A loopback TCP port nobody listens on right now (bound to port 0, read back, released).
public func freeLoopbackPort() throws -> Int { try LoopbackListener(backlog: nil).port }

/// A real gpsd (`gpsd -N -n`) on a free loopback port reading `device` (e.g.
/// `tcp://127.0.0.1:PORT`, an NMEA feed), with its control socket in a directory of its own.
/// Stopped by its PID (SIGKILL), never by name.
public final class GPSDProcess: @unchecked Sendable {
  public let port: Int
  public let device: String
  private var process: Process?
  private let directory: URL

  /// gpsd's executable, where Debian's package puts it; nil when it is not installed.
  public static var path: String? {
    ["/usr/sbin/gpsd", "/usr/local/sbin/gpsd", "/usr/bin/gpsd"].first { FileManager.default.isExecutableFile(atPath: $0) }
  }

  /// Starts gpsd reading `device` and waits (at most 10 s) until it accepts clients.
  public init(reading device: String) throws {
    self.device = device
    port = try freeLoopbackPort()
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("gpsd-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    try start()
  }

  /// Starts gpsd (again) on ``port`` and waits until it accepts clients.
  public func start() throws {
    guard let path = Self.path else { throw LoopbackError(description: "gpsd is not installed (apt-get install gpsd)") }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = ["-N", "-n", "-S", String(port), "-F", directory.appendingPathComponent("sock").path, device]
    process.standardError = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    self.process = process
    let deadline = ContinuousClock.now + .seconds(10)
    while !loopbackAccepts(port) {
      guard ContinuousClock.now < deadline, process.isRunning else {
        kill()
        throw LoopbackError(description: "gpsd did not start on port \(port) within 10 s")
      }
      Thread.sleep(forTimeInterval: 0.02)
    }
  }

  /// Kills gpsd (SIGKILL: no goodbye to clients) and waits for it.
  public func kill() {
    guard let process, process.isRunning else { return }
    Glibc.kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    self.process = nil
  }

  public func stop() {
    kill()
    try? FileManager.default.removeItem(at: directory)
  }

  deinit { stop() }
}

/// Whether something accepts TCP connections on loopback `port` now.
public func loopbackAccepts(_ port: Int) -> Bool {
  let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  defer { close(fd) }
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_addr.s_addr = inet_addr("127.0.0.1")
  address.sin_port = in_port_t(UInt16(port).bigEndian)
  return withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
  }
}
