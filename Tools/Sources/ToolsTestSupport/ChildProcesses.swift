public import Foundation
import EmulatorTesting
import Geo
import Testing

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
  private let ended: Watched<Bool>

  private init(process: Process, url: String, ended: Watched<Bool>) {
    self.process = process
    self.url = url
    self.ended = ended
  }

  /// Starts `executable` with `arguments` and reads its first line, on a thread of its own (a
  /// blocked cooperative thread would starve the other tests).
  ///
  /// - Parameter limit: a hang guard: a server that neither prints its first line nor ends
  ///   within it is killed.
  /// - Throws: ``LoopbackError`` naming the executable when it printed no first line within
  ///   `limit`.
  public static func start(
    _ executable: URL = locemuBinary, _ arguments: [String], firstLineWithin limit: Duration = .seconds(600)
  ) async throws -> ServerProcess {
    try await offPool {
      let process = Process()
      process.executableURL = executable
      process.arguments = arguments
      let out = Pipe()
      process.standardOutput = out
      process.standardError = FileHandle.nullDevice
      // Before run(): Foundation calls it once the child has ended (and reaps it).
      let ended = Watched(false)
      process.terminationHandler = { _ in ended.update { $0 = true } }
      try process.run()
      let hangGuard = ProcessHangGuard(process.processIdentifier, bound: limit)
      var text = ""
      while !text.contains("\n") {
        let chunk = out.fileHandleForReading.availableData
        if chunk.isEmpty { break }
        text += String(decoding: chunk, as: UTF8.self)
      }
      let command = "\(executable.lastPathComponent) \(arguments.joined(separator: " "))"
      try hangGuard.disarm(waitingOn: command, bound: limit, failure: "printed no first line")
      let url = text.split(separator: " ").last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } ?? ""
      return ServerProcess(process: process, url: url, ended: ended)
    }
  }

  /// SIGKILL (the test runner blocks SIGTERM and its children inherit the block), and nothing
  /// more: Foundation reaps the child. ``exited(within:)`` awaits its end where a test must know.
  public func stop() {
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
  }

  /// Waits, without blocking a thread, until the server has ended (its
  /// `terminationStatus` is then read), at most `limit` (a hang guard).
  /// - Throws: ``LoopbackError`` naming the executable when it is still running after `limit`.
  public func exited(within limit: Duration = .seconds(600)) async throws {
    try await ended.wait(for: "\(process.executableURL?.lastPathComponent ?? "the server") to exit", within: limit) { $0 }
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
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
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

/// Runs `body` with a TCP port that nothing listens on and nothing else can take while `body`
/// runs: a socket bound to it on every address of both families (`[::]`, port 0, read back)
/// that never listens, so connections to 127.0.0.1 or [::1] there are refused. A port that was
/// released and handed on could be taken by another test's server before it is used (issue 33).
@discardableResult
public func withUnreachablePort<T>(_ body: (Int) async throws -> T) async throws -> T {
  let fd = socket(AF_INET6, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
  guard fd >= 0 else { throw LoopbackError(description: "no socket: \(String(cString: strerror(errno)))") }
  defer { close(fd) }
  var dualStack: Int32 = 0
  setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &dualStack, socklen_t(MemoryLayout<Int32>.size))
  var address = sockaddr_in6()
  address.sin6_family = sa_family_t(AF_INET6)
  address.sin6_addr = in6addr_any
  var length = socklen_t(MemoryLayout<sockaddr_in6>.size)
  let bound = withUnsafeMutablePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
  }
  guard bound else { throw LoopbackError(description: "no free port: \(String(cString: strerror(errno)))") }
  return try await body(Int(UInt16(bigEndian: address.sin6_port)))
}

/// Ports for children that choose no port of their own (gpsd cannot bind port 0): outside the
/// kernel's ephemeral range, which every bind to port 0 and every outgoing connection draws from,
/// so no other socket is given one by chance; each call in this process takes the next one.
/// Another process that picks the same number is found by ``startListeningChild(limit:attempts:_:)``,
/// which checks the listener is the child's own and tries the next port.
public enum ChildPort {
  private static let next = Locked(20_000 + Int(getpid() % 4_000) * 3)

  /// The next candidate port, in 20000…31999.
  public static func take() -> Int {
    next.withLock { (port: inout Int) -> Int in
      defer { port = port >= 31_999 ? 20_000 : port + 1 }
      return port
    }
  }
}

/// Starts a child that listens on a port it is told (`make(port)` builds the process; it is run
/// here), and waits until the listener on that port is the child's own: on a port another process
/// holds the child fails or never owns the listener, and the next port is tried. Blocking (it
/// polls `/proc` every 20 ms): call it through `offPool`.
///
/// - Parameter limit: per attempt, a hang guard (an attempt also ends when the child exits).
/// - Returns: the running process and its port.
/// - Throws: ``LoopbackError`` when no attempt got a listener within `limit`.
public func startListeningChild(
  limit: Duration, attempts: Int = 5, _ make: (Int) throws -> Process
) throws -> (process: Process, port: Int) {
  expectOffPool("startListeningChild")
  return try startListening(limit: limit, attempts: attempts, make)
}

/// ``startListeningChild(limit:attempts:_:)`` for callers that checked the thread already.
private func startListening(
  limit: Duration, attempts: Int, _ make: (Int) throws -> Process
) throws -> (
  process: Process, port: Int
) {
  var reasons: [String] = []
  var name = "child"
  for _ in 0..<attempts {
    let port = ChildPort.take()
    let process = try make(port)
    name = process.executableURL?.lastPathComponent ?? name
    try process.run()
    if ownListenerAppears(process, port: port, limit: limit) { return (process, port) }
    reasons.append("port \(port): \(process.isRunning ? "no listener of its own within \(limit)" : "it exited")")
    // SIGKILL and on: Foundation reaps it, and the next attempt takes another port.
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
  }
  throw LoopbackError(description: "\(name) did not listen: \(reasons.joined(separator: "; "))")
}

/// Waits (blocking, at most `limit`: a hang guard) until `process` itself listens on loopback
/// TCP `port` (a listening socket of that port among its descriptors); false when it ended or
/// the limit passed. Call it through `offPool`.
public func waitForOwnListener(_ process: Process, port: Int, limit: Duration) -> Bool {
  expectOffPool("waitForOwnListener")
  return ownListenerAppears(process, port: port, limit: limit)
}

/// ``waitForOwnListener(_:port:limit:)`` for callers that checked the thread already.
private func ownListenerAppears(_ process: Process, port: Int, limit: Duration) -> Bool {
  let deadline = ContinuousClock.now + limit
  while listeningInodes(port: port).isDisjoint(with: socketInodes(of: process.processIdentifier)) {
    guard ContinuousClock.now < deadline, process.isRunning else { return false }
    Thread.sleep(forTimeInterval: 0.02)
  }
  return true
}

/// The inodes of the TCP sockets (IPv4 and IPv6) listening on `port`, from `/proc/net/tcp*`.
private func listeningInodes(port: Int) -> Set<String> {
  var inodes: Set<String> = []
  for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
    // To its end: String(contentsOfFile:) reads one page of a /proc file (its size is 0), 27
    // lines of /proc/net/tcp, and a listener further down was never found.
    guard let handle = FileHandle(forReadingAtPath: table), let data = try? handle.readToEnd() else { continue }
    let text = String(decoding: data, as: UTF8.self)
    for line in text.split(separator: "\n").dropFirst() {
      let fields = line.split(separator: " ")
      // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
      guard fields.count > 9, fields[3] == "0A", let local = fields[1].split(separator: ":").last,
        Int(local, radix: 16) == port
      else { continue }
      inodes.insert(String(fields[9]))
    }
  }
  return inodes
}

/// The inodes of the sockets among `pid`'s open descriptors (`socket:[INODE]` links).
private func socketInodes(of pid: Int32) -> Set<String> {
  let directory = "/proc/\(pid)/fd"
  guard let entries = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
  var inodes: Set<String> = []
  for entry in entries {
    guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: directory + "/" + entry),
      target.hasPrefix("socket:[")
    else { continue }
    inodes.insert(String(target.dropFirst(8).dropLast()))
  }
  return inodes
}

/// A real gpsd (`gpsd -N -n`) on a loopback port of its own reading `device` (e.g.
/// `tcp://127.0.0.1:PORT`, an NMEA feed), with its control socket in a directory of its own.
/// gpsd refuses port 0, so the port is a ``ChildPort`` and gpsd is known to be up when the
/// listener on it is gpsd's own. Stopped by its PID (SIGKILL), never by name.
public final class GPSDProcess: @unchecked Sendable {
  public private(set) var port: Int
  public let device: String
  private var process: Process?
  /// Whether the gpsd started last has ended (set by its `terminationHandler`).
  private var ended = Watched(true)
  private let directory: URL

  /// gpsd's executable, where Debian's package puts it; nil when it is not installed.
  public static var path: String? {
    ["/usr/sbin/gpsd", "/usr/local/sbin/gpsd", "/usr/bin/gpsd"].first { FileManager.default.isExecutableFile(atPath: $0) }
  }

  /// Starts gpsd reading `device` and waits until it accepts clients (at most 10 minutes per
  /// port tried: a hang guard). Blocking: call it through `offPool`.
  public init(reading device: String) throws {
    expectOffPool("GPSDProcess.init")
    self.device = device
    port = 0
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("gpsd-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    (process, port) = try startListening(limit: .seconds(600), attempts: 5) { try makeProcess(port: $0) }
  }

  /// Starts gpsd again on ``port`` (after ``kill()`` and ``exited(within:)``: the port is free
  /// once the killed gpsd has ended) and waits until it accepts clients there (at most 10
  /// minutes: a hang guard). Blocking: call it through `offPool`.
  public func start() throws {
    expectOffPool("GPSDProcess.start")
    let process = try makeProcess(port: port)
    try process.run()
    self.process = process
    let limit = Duration.seconds(600)
    guard ownListenerAppears(process, port: port, limit: limit) else {
      let gone = !process.isRunning
      kill()
      throw LoopbackError(
        description: "gpsd did not start again on port \(port): \(gone ? "it exited" : "no listener of its own within \(limit)")")
    }
  }

  /// A gpsd for `port`, with its `terminationHandler` (set before it runs) marking ``ended``.
  private func makeProcess(port: Int) throws -> Process {
    guard let path = Self.path else { throw LoopbackError(description: "gpsd is not installed (apt-get install gpsd)") }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = ["-N", "-n", "-S", String(port), "-F", directory.appendingPathComponent("sock").path, device]
    process.standardError = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    let ended = Watched(false)
    process.terminationHandler = { _ in ended.update { $0 = true } }
    self.ended = ended
    return process
  }

  /// Kills gpsd (SIGKILL: no goodbye to clients), without waiting: Foundation reaps it, and
  /// ``exited(within:)`` awaits its end.
  public func kill() {
    guard let process, process.isRunning else { return }
    Glibc.kill(process.processIdentifier, SIGKILL)
    self.process = nil
  }

  /// Waits, without blocking a thread, until the gpsd started last has ended (after ``kill()``:
  /// its port is then free), at most `limit` (a hang guard).
  /// - Throws: ``LoopbackError`` when it is still running after `limit`.
  public func exited(within limit: Duration = .seconds(600)) async throws {
    try await ended.wait(for: "gpsd on port \(port) to exit", within: limit) { $0 }
  }

  public func stop() {
    kill()
    try? FileManager.default.removeItem(at: directory)
  }

  deinit { stop() }
}

/// A TCP socket connected to 127.0.0.1:`port` (the caller closes it), or nil when nothing
/// accepts there.
public func connectLoopback(_ port: Int) -> Int32? {
  let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
  guard fd >= 0 else { return nil }
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_addr.s_addr = inet_addr("127.0.0.1")
  address.sin_port = in_port_t(UInt16(port).bigEndian)
  let connected = withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
  }
  guard connected else {
    close(fd)
    return nil
  }
  return fd
}

/// A keep-alive HTTP/1.1 connection to a server on loopback over a plain socket, for clients
/// that must not go through URLSession: a benchmark measuring the server itself, chromedriver
/// (whose header lines, without a space after the colon, FoundationNetworking refuses).
/// Responses are read by their `Content-Length`. Blocking, every read bounded: call it through
/// `offPool`.
public final class LoopbackHTTPConnection {
  public let fd: Int32
  private var buffer: [UInt8] = []
  private let receiveTimeout: Int
  /// The request last written (`METHOD /path`), for the error that says which got no answer.
  private var lastRequest = "a request"

  /// - Parameter receiveTimeout: seconds a read may wait before the request fails: a hang guard.
  public init(port: Int, receiveTimeout: Int = 600) throws {
    guard let fd = connectLoopback(port) else { throw LoopbackError(description: "cannot connect to 127.0.0.1:\(port)") }
    self.fd = fd
    self.receiveTimeout = receiveTimeout
    var yes: Int32 = 1
    setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
    var timeout = timeval(tv_sec: receiveTimeout, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
  }

  deinit { close(fd) }

  /// Sends a request; a body goes as JSON.
  public func write(_ method: String, _ path: String, body: Data? = nil) throws {
    lastRequest = "\(method) \(path)"
    var request = Data("\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n".utf8)
    if let body {
      request += Data("Content-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body
    } else {
      request += Data("Content-Length: 0\r\n\r\n".utf8)
    }
    let sent = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    guard sent == request.count else { throw LoopbackError(description: "cannot send a request") }
  }

  /// Reads one response: its status and body.
  public func readResponse() throws -> (status: Int, body: Data) {
    expectOffPool("LoopbackHTTPConnection.readResponse")
    return try receive()
  }

  /// ``readResponse()`` for callers that checked the thread already.
  private func receive() throws -> (status: Int, body: Data) {
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while true {
      if let end = buffer.firstRange(of: [13, 10, 13, 10]) {
        let head = String(decoding: buffer[..<end.lowerBound], as: UTF8.self).lowercased()
        var length = 0
        for line in head.split(separator: "\r\n") where line.hasPrefix("content-length:") {
          length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) ?? 0
        }
        if buffer.count >= end.upperBound + length {
          let status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
          let body = Data(buffer[end.upperBound..<(end.upperBound + length)])
          buffer.removeFirst(end.upperBound + length)
          return (status, body)
        }
      }
      let n = recv(fd, &chunk, chunk.count, 0)
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else {
        throw LoopbackError(
          description: n < 0
            ? "no answer to \(lastRequest) within \(receiveTimeout) s (the receive timeout)"
            : "the server closed the connection before it answered \(lastRequest)")
      }
      buffer.append(contentsOf: chunk[0..<n])
    }
  }

  /// One request and its response.
  public func request(_ method: String, _ path: String, body: Data? = nil) throws -> (status: Int, body: Data) {
    expectOffPool("LoopbackHTTPConnection.request")
    try write(method, path, body: body)
    return try receive()
  }
}
