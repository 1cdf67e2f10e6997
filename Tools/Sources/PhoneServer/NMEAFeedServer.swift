import Foundation
import Geo
public import Traces
import NMEA

#if canImport(Glibc)
  import Glibc
#endif

/// Serves a trace as paced NMEA over TCP: every client that connects gets the
/// whole trace from its start, on its own schedule, until it disconnects.
///
/// NMEA logs are sent as recorded (each epoch's own sentences, bad lines
/// included only when they were part of an accepted epoch's run); GPX traces,
/// and no-fix epochs filled into gaps, are sent as generated GGA + RMC. This is
/// what `gpsd -N -n -S PORT tcp://HOST:FEEDPORT` reads, so any gpsd client sees the trace.
public final class NMEAFeedServer: Sendable {
  public let trace: Trace
  public let options: ReplayOptions
  /// The port the server listens on (the kernel's choice when asked for port 0).
  public let port: Int
  public let host: String
  private let listener: Int32
  /// Called for connections, disconnections and errors (one line each, no newline).
  private let log: @Sendable (String) -> Void

  /// Binds and listens at once, so the port is known (and taken) on return.
  /// - Throws: ``FeedError`` when the address cannot be bound.
  public init(
    trace: Trace, options: ReplayOptions, host: String, port: Int, log: @escaping @Sendable (String) -> Void = { _ in }
  ) throws {
    var trace = trace
    trace.keepSentences = true
    self.trace = trace
    self.options = options
    self.host = host
    self.log = log
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
    var info: UnsafeMutablePointer<addrinfo>?
    let status = getaddrinfo(host, String(port), &hints, &info)
    guard status == 0, let first = info else {
      throw FeedError(description: "cannot resolve \(host): \(String(cString: gai_strerror(status)))")
    }
    defer { freeaddrinfo(info) }
    let fd = socket(first.pointee.ai_family, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw FeedError(description: "socket: \(String(cString: strerror(errno)))") }
    var yes: Int32 = 1
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    guard bind(fd, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0, listen(fd, 16) == 0 else {
      let message = String(cString: strerror(errno))
      close(fd)
      throw FeedError(description: "cannot listen on \(host):\(port): \(message)")
    }
    var address = sockaddr_storage()
    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    self.port = withUnsafeBytes(of: &address) { raw in
      // sin_port and sin6_port sit at the same offset, in network order.
      Int(UInt16(raw[2]) << 8 | UInt16(raw[3]))
    }
    listener = fd
  }

  deinit { close(listener) }

  /// Accepts clients until the task is cancelled; each one is served concurrently.
  public func run() async {
    await withTaskGroup(of: Void.self) { group in
      while !Task.isCancelled {
        guard let client = await accept() else { continue }
        group.addTask { await self.serve(client) }
      }
      group.cancelAll()
    }
  }

  /// Serves the first client to connect, then returns.
  public func serveFirstClient() async {
    while !Task.isCancelled {
      if let client = await accept() {
        await serve(client)
        return
      }
    }
  }

  /// Waits up to 100 ms for a connection without holding a cooperative thread for longer.
  private func accept() async -> Int32? {
    var pfd = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
    let ready = poll(&pfd, 1, 0)
    if ready <= 0 {
      try? await Task.sleep(for: .milliseconds(50))
      return nil
    }
    let client = Glibc.accept(listener, nil, nil)
    guard client >= 0 else { return nil }
    var yes: Int32 = 1
    setsockopt(client, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
    return client
  }

  /// Replays the trace to one client, until the trace ends or the client goes away.
  func serve(_ client: Int32) async {
    defer { close(client) }
    log("client \(client) connected")
    let replay = TraceReplay(trace: trace, options: options, clock: ContinuousClock())
    var epochs = 0
    do {
      for try await replayed in replay {
        var lines = replayed.epoch.sentences
        if lines.isEmpty { lines = NMEAWriter.sentences(for: replayed.fix, receiver: replayed.epoch.receiver) }
        var text = ""
        for line in lines { text += line + "\r\n" }
        guard send(client, text) else {
          log("client \(client) went away after \(epochs) epochs")
          return
        }
        epochs += 1
      }
      log("client \(client): trace ended after \(epochs) epochs")
    } catch is CancellationError {
      return
    } catch {
      log("client \(client): \(error)")
    }
  }

  private func send(_ fd: Int32, _ text: String) -> Bool {
    var text = text
    return text.withUTF8 { bytes in
      var offset = 0
      while offset < bytes.count {
        let n = Glibc.send(fd, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else { return false }
        offset += n
      }
      return true
    }
  }
}

/// The feed could not start.
public struct FeedError: Error, Hashable, Sendable, CustomStringConvertible {
  public var description: String
}
