import Foundation
import Geo
import LocationModel

#if canImport(Glibc)
  import Glibc
#endif

/// The raw NMEA sentences gpsd relays from its receivers (`?WATCH={"enable":true,"nmea":true}`),
/// one line each, as they arrive: what `locemu record` writes. Read on a thread of its own
/// (blocking socket I/O stays off the cooperative pool); the connection closes when the
/// consumer stops or its task is cancelled.
public struct GPSDSentenceSource: AsyncSequence, Sendable {
  /// One NMEA sentence, without its line ending.
  public typealias Element = String

  /// The host gpsd runs on.
  public var host: String
  /// gpsd's TCP port.
  public var port: Int
  /// How long to try to connect.
  public var connectTimeout: Duration

  /// Creates a source for the gpsd at `host:port`; nothing connects until iteration starts.
  ///
  /// - Parameters:
  ///   - host: The host gpsd runs on.
  ///   - port: gpsd's TCP port.
  ///   - connectTimeout: How long to keep trying to connect.
  public init(host: String = "127.0.0.1", port: Int = 2947, connectTimeout: Duration = .seconds(10)) {
    self.host = host
    self.port = port
    self.connectTimeout = connectTimeout
  }

  /// Connects to gpsd on a new thread and returns an iterator over the sentences it relays.
  ///
  /// The iterator throws a `GPSDError` when it cannot connect or gpsd closes the connection.
  ///
  /// - Returns: An iterator over the sentences.
  public func makeAsyncIterator() -> AsyncThrowingStream<String, any Error>.AsyncIterator {
    let (stream, continuation) = AsyncThrowingStream.makeStream(of: String.self, bufferingPolicy: .bufferingNewest(65_536))
    let stopped = Locked(false)
    continuation.onTermination = { _ in stopped.withLock { $0 = true } }
    let (host, port, timeout) = (self.host, self.port, connectTimeout)
    Thread {
      do {
        try Self.read(host: host, port: port, timeout: timeout, stopped: stopped) { continuation.yield($0) }
        continuation.finish(
          throwing: stopped.withLock({ $0 })
            ? nil : GPSDError.protocolError(endpoint: "\(host):\(port)", message: "gpsd closed the connection"))
      } catch {
        continuation.finish(throwing: error)
      }
    }.start()
    return stream.makeAsyncIterator()
  }

  private static func read(host: String, port: Int, timeout: Duration, stopped: Locked<Bool>, _ yield: (String) -> Void) throws {
    let fd = try connect(host: host, port: port, timeout: timeout, stopped: stopped)
    defer { close(fd) }
    let watch = Array(#"?WATCH={"enable":true,"nmea":true};"#.utf8) + [10]
    guard watch.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == watch.count else {
      throw GPSDError.protocolError(endpoint: "\(host):\(port)", message: "cannot send the WATCH request")
    }
    var pending: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 16_384)
    while !stopped.withLock({ $0 }) {
      var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      let ready = poll(&pfd, 1, 100)
      if ready < 0 && errno == EINTR { continue }
      guard ready > 0 else { continue }
      let n = recv(fd, &buffer, buffer.count, 0)
      if n < 0 && (errno == EINTR || errno == EAGAIN) { continue }
      guard n > 0 else { return }
      pending.append(contentsOf: buffer[0..<n])
      var start = 0
      while let end = pending[start...].firstIndex(of: 10) {
        var line = pending[start..<end]
        if line.last == 13 { line = line.dropLast() }
        start = end + 1
        // gpsd's own JSON reports are not the receiver's.
        if let first = line.first, first == UInt8(ascii: "$") || first == UInt8(ascii: "!") {
          yield(String(decoding: line, as: UTF8.self))
        }
      }
      pending.removeSubrange(0..<start)
      if pending.count > 1 << 20 { pending.removeAll() }
    }
  }

  /// A connected TCP socket, retried until `timeout`.
  private static func connect(host: String, port: Int, timeout: Duration, stopped: Locked<Bool>) throws -> Int32 {
    let deadline = ContinuousClock.now + timeout
    var last = "no answer"
    while !stopped.withLock({ $0 }) {
      var hints = addrinfo()
      hints.ai_family = AF_UNSPEC
      hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
      var info: UnsafeMutablePointer<addrinfo>?
      let status = getaddrinfo(host, String(port), &hints, &info)
      guard status == 0, let first = info else {
        throw GPSDError.cannotConnect(endpoint: "\(host):\(port)", message: String(cString: gai_strerror(status)))
      }
      // Close-on-exec: a process the app starts must not keep gpsd's connection open.
      let fd = socket(first.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
      if fd >= 0, Glibc.connect(fd, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 {
        freeaddrinfo(info)
        return fd
      }
      last = String(cString: strerror(errno))
      if fd >= 0 { close(fd) }
      freeaddrinfo(info)
      guard ContinuousClock.now < deadline else { break }
      Thread.sleep(forTimeInterval: 0.2)
    }
    throw GPSDError.cannotConnect(endpoint: "\(host):\(port)", message: last)
  }
}
