import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A plain HTTP/1.1 connection to `locemu serve`: one request and its whole answer
/// (``exchange(url:method:target:headers:body:timeout:)``), or one `text/event-stream` response
/// read on a thread of its own that sleeps in `read(2)` between events (``open(url:target:headers:timeout:continuation:)``).
///
/// Not URLSession: swift-corelibs-foundation's URLSession spins two threads at full speed for
/// as long as a streaming response stays open (measured: 5.5 s of CPU in 6 s on one event
/// stream), which starves the program that follows a phone and delays its events by seconds;
/// and on Linux it brings libcurl, whose 35 libraries (TLS, Kerberos, LDAP, ...) are loaded and
/// bound before `main` in every program that links it: `locemu` started in 17–18 ms with it and
/// starts in 9–11 ms without. `locemu serve` speaks plain HTTP, so this reads `http://` URLs only.
final class HTTPSocket: @unchecked Sendable {
  /// Guards `descriptor` and `closed` (the reading thread and ``close()`` race for them).
  private let lock = NSLock()
  private var descriptor: Int32
  private var closed = false

  private init(descriptor: Int32) { self.descriptor = descriptor }

  /// Sends one request (`Connection: close`) and reads its answer whole: the status and the
  /// body (of its length, chunked, or up to the end). Blocks, at most `timeout` for the
  /// connection and for each read and write: call it off the cooperative pool.
  /// - Throws: `.unreachable` when nothing answers, the connection breaks or the answer is not
  ///   HTTP; `.badRequest` for a URL that is not `http://`.
  static func exchange(
    url: URL, method: String, target: String, headers: [(String, String)], body: [UInt8]?, timeout: TimeInterval
  ) throws(EmulatorClientError) -> (status: Int, body: [UInt8]) {
    let (host, port) = try endpoint(of: url)
    let server = url.absoluteString
    let socket: HTTPSocket
    do {
      socket = HTTPSocket(descriptor: try connect(host: host, port: port, timeout: timeout))
    } catch {
      throw .unreachable("cannot reach \(server): \(error)")
    }
    defer { socket.release() }
    var reader = HTTPStreamReader(events: false)
    do {
      var fields = [("Connection", "close")] + headers
      if body != nil || !["GET", "HEAD"].contains(method) { fields.append(("Content-Length", "\(body?.count ?? 0)")) }
      try socket.write(head(method, target, host, port, fields) + (body ?? []))
      while !reader.bodyComplete, let bytes = try socket.read() { try reader.feed(bytes) }
    } catch {
      throw .unreachable("cannot reach \(server): \(error)")
    }
    // Without a length or chunks the body ends with the connection; a head cut short is no answer.
    guard let head = reader.head, reader.bodyComplete || (!head.chunked && head.contentLength == nil) else {
      throw .unreachable("cannot reach \(server): the connection closed before the whole answer came")
    }
    return (head.status, reader.bufferedBody)
  }

  /// The host and port of an `http://` URL.
  private static func endpoint(of url: URL) throws(EmulatorClientError) -> (host: String, port: Int) {
    guard url.scheme?.lowercased() == "http", let host = url.host else {
      throw .badRequest("locemu serve is spoken to over plain http://, not \(url.absoluteString)")
    }
    return (host, url.port ?? 80)
  }

  /// A request's head: its line, `Host`, `fields` in order, and the empty line.
  private static func head(_ method: String, _ target: String, _ host: String, _ port: Int, _ fields: [(String, String)]) -> [UInt8] {
    var text = "\(method) \(target) HTTP/1.1\r\nHost: \(host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)")\r\n"
    for (name, value) in fields { text += "\(name): \(value)\r\n" }
    return Array((text + "\r\n").utf8)
  }

  /// Connects, sends `GET target`, and reads the response's head; then a thread of its own
  /// yields each event's `data:` line to `continuation` until the server ends the stream or
  /// ``close()`` is called. Blocks (at most `timeout` for the connection and the head): call
  /// it off the cooperative pool.
  static func open(
    url: URL, target: String, headers: [(String, String)], timeout: TimeInterval,
    continuation: AsyncThrowingStream<String, any Error>.Continuation
  ) throws(EmulatorClientError) -> HTTPSocket {
    let (host, port) = try endpoint(of: url)
    let descriptor: Int32
    do {
      descriptor = try connect(host: host, port: port, timeout: timeout)
    } catch {
      throw .unreachable("cannot reach \(host):\(port): \(error)")
    }
    let socket = HTTPSocket(descriptor: descriptor)
    var reader = HTTPStreamReader()
    do {
      let fields = [("Accept", "text/event-stream"), ("Cache-Control", "no-cache")] + headers
      try socket.write(head("GET", target, host, port, fields))
      // The head: the status and whether the body comes chunked.
      while reader.head == nil {
        guard let bytes = try socket.read() else { throw EmulatorClientError.unreachable("\(host):\(port) closed the connection") }
        try reader.feed(bytes)
      }
      if let head = reader.head, !(200..<300).contains(head.status) {
        // The server's JSON message, when its body comes whole and short.
        while !reader.bodyComplete, reader.bufferedBody.count < 65_536, let bytes = try socket.read() { try reader.feed(bytes) }
        let message = EmulatorServer.message(Data(reader.bufferedBody), status: head.status)
        throw EmulatorClientError.refused(
          status: head.status, message: message.hasSuffix("HTTP \(head.status)") ? message : "\(message) (HTTP \(head.status))")
      }
    } catch {
      socket.close()
      socket.release()
      throw (error as? EmulatorClientError) ?? .unreachable("cannot reach \(host):\(port): \(error)")
    }
    // The head is in: from now on a read waits as long as the stream stays quiet.
    var forever = timeval(tv_sec: 0, tv_usec: 0)
    _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &forever, socklen_t(MemoryLayout<timeval>.size))
    continuation.onTermination = { _ in socket.close() }
    let started = reader
    let thread = Thread { socket.pump(started, into: continuation, server: "\(host):\(port)") }
    thread.name = "locemu event stream"
    thread.start()
    return socket
  }

  /// Reads until the end of the stream, then lets the descriptor go.
  private func pump(_ start: HTTPStreamReader, into continuation: AsyncThrowingStream<String, any Error>.Continuation, server: String) {
    var reader = start
    defer { release() }
    do {
      for line in reader.takeLines() { continuation.yield(line) }
      while !reader.bodyComplete, let bytes = try read() {
        try reader.feed(bytes)
        for line in reader.takeLines() { continuation.yield(line) }
      }
      continuation.finish()
    } catch {
      if lock.withLock({ closed }) { return continuation.finish() }
      continuation.finish(throwing: EmulatorClientError.unreachable("the event stream from \(server) broke: \(error)"))
    }
  }

  /// Ends the stream: the reading thread wakes from its read and closes the descriptor.
  func close() {
    lock.withLock {
      guard !closed else { return }
      closed = true
      if descriptor >= 0 { _ = shutdown(descriptor, Int32(SHUT_RDWR)) }
    }
  }

  /// Closes the descriptor (only the thread that reads it, or `open` on failure, does).
  private func release() {
    lock.withLock {
      if descriptor >= 0 { _ = systemClose(descriptor) }
      descriptor = -1
    }
  }

  private var fd: Int32 { lock.withLock { descriptor } }

  /// Up to 16 KiB as they come; nil at the end of the stream.
  private func read() throws(SocketError) -> [UInt8]? {
    var buffer = [UInt8](repeating: 0, count: 16_384)
    while true {
      let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      if count > 0 { return Array(buffer[0..<count]) }
      if count == 0 { return nil }
      if errno == EINTR { continue }
      let code = errno
      if lock.withLock({ closed }) { return nil }
      throw SocketError(operation: "read", code: code)
    }
  }

  private func write(_ bytes: [UInt8]) throws(SocketError) {
    var sent = 0
    while sent < bytes.count {
      let count = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      if count < 0 {
        if errno == EINTR { continue }
        throw SocketError(operation: "write", code: errno)
      }
      sent += count
    }
  }

  /// A connected TCP socket to `host:port` (each address `getaddrinfo` gives, in turn), with
  /// `timeout` on the connection and on each read and write.
  /// - Throws: why not, in a few words (`Connection refused`, the resolver's message).
  private static func connect(host: String, port: Int, timeout: TimeInterval) throws(ConnectError) -> Int32 {
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    #if canImport(Glibc)
      hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    #else
      hints.ai_socktype = SOCK_STREAM
    #endif
    var list: UnsafeMutablePointer<addrinfo>?
    let resolved = getaddrinfo(host, String(port), &hints, &list)
    guard resolved == 0, let first = list else { throw ConnectError(description: String(cString: gai_strerror(resolved))) }
    defer { freeaddrinfo(list) }
    var lastError = ECONNREFUSED
    var next: UnsafeMutablePointer<addrinfo>? = first
    while let address = next {
      next = address.pointee.ai_next
      // Close-on-exec: a process the app starts (posix_spawn, fork and exec) must not hold the
      // connection, or an event stream the app let go of would stay open on the server.
      #if canImport(Glibc)
        let descriptor = socket(
          address.pointee.ai_family, address.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), address.pointee.ai_protocol)
      #else
        let descriptor = socket(address.pointee.ai_family, address.pointee.ai_socktype, address.pointee.ai_protocol)
        if descriptor >= 0 { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
      #endif
      guard descriptor >= 0 else {
        lastError = errno
        continue
      }
      var wait = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1_000_000))
      _ = setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
      _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
      if systemConnect(descriptor, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 { return descriptor }
      lastError = errno
      _ = systemClose(descriptor)
    }
    let timedOut = lastError == EINPROGRESS || lastError == EAGAIN
    throw ConnectError(description: timedOut ? "no answer in time" : String(cString: strerror(lastError)))
  }

  struct ConnectError: Error, CustomStringConvertible {
    var description: String
  }
}

#if canImport(Glibc)
  private let systemClose = Glibc.close
  private let systemConnect = Glibc.connect
#elseif canImport(Musl)
  private let systemClose = Musl.close
  private let systemConnect = Musl.connect
#else
  private let systemClose = Darwin.close
  private let systemConnect = Darwin.connect
#endif

/// A failed system call on an HTTP socket.
struct SocketError: Error, CustomStringConvertible {
  var operation: String
  var code: Int32
  var description: String {
    code == EAGAIN || code == EWOULDBLOCK ? "no answer in time" : "\(operation): \(String(cString: strerror(code)))"
  }
}

/// An HTTP/1.1 response read incrementally: its head, then its body (chunked, of a length, or
/// to the end), cut into server-sent events' `data:` lines, or (`events` false) kept whole.
struct HTTPStreamReader {
  /// Whether the body is an event stream, read line by line (a line has a length limit), or
  /// an answer read whole (the body has one, ``bodyLimit``).
  let events: Bool
  struct Head {
    var status: Int
    var chunked: Bool
    var contentLength: Int?
  }

  /// Set once the whole head has arrived.
  private(set) var head: Head?
  /// The body received so far and not yet cut into lines.
  private(set) var bufferedBody: [UInt8] = []
  /// The body's end was reached (a last chunk, or its length).
  private(set) var bodyComplete = false

  private var pending: [UInt8] = []
  /// Bytes left of the chunk being read (nil: a chunk-size line comes next).
  private var chunkLeft: Int?
  private var bodyReceived = 0

  /// The longest head, chunk-size line or event line taken (a server sending more is broken).
  static let lineLimit = 1 << 20
  /// The largest whole answer taken.
  static let bodyLimit = 1 << 30

  init(events: Bool = true) { self.events = events }

  enum Failure: Error, CustomStringConvertible {
    case malformed(String)
    var description: String {
      switch self {
      case .malformed(let what): "malformed HTTP response: \(what)"
      }
    }
  }

  mutating func feed(_ bytes: [UInt8]) throws(Failure) {
    pending += bytes
    if head == nil {
      guard let end = Self.find([13, 10, 13, 10], in: pending) else {
        if pending.count > Self.lineLimit { throw .malformed("a head longer than \(Self.lineLimit) bytes") }
        return
      }
      head = try Self.parseHead(String(decoding: pending[0..<end], as: UTF8.self))
      pending.removeSubrange(0..<(end + 4))
    }
    guard let head else { return }
    if head.chunked {
      try dechunk()
    } else {
      bufferedBody += pending
      bodyReceived += pending.count
      pending.removeAll()
      if let length = head.contentLength, bodyReceived >= length { bodyComplete = true }
    }
    if events, bufferedBody.count > Self.lineLimit, !bufferedBody.contains(10) {
      throw .malformed("an event line longer than \(Self.lineLimit) bytes")
    }
    if !events, bufferedBody.count > Self.bodyLimit { throw .malformed("a body longer than \(Self.bodyLimit) bytes") }
  }

  private mutating func dechunk() throws(Failure) {
    while !bodyComplete {
      if let left = chunkLeft {
        if left == 0 {
          // The CRLF after a chunk's data.
          guard pending.count >= 2 else { return }
          pending.removeFirst(2)
          chunkLeft = nil
          continue
        }
        let take = min(left, pending.count)
        guard take > 0 else { return }
        bufferedBody += pending[0..<take]
        pending.removeFirst(take)
        chunkLeft = left - take
      } else {
        guard let end = Self.find([13, 10], in: pending) else {
          if pending.count > Self.lineLimit { throw .malformed("a chunk-size line longer than \(Self.lineLimit) bytes") }
          return
        }
        let line = String(decoding: pending[0..<end], as: UTF8.self)
        let sizeText = line.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
        guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16), size >= 0 else {
          throw .malformed("a chunk size \"\(line)\"")
        }
        pending.removeSubrange(0..<(end + 2))
        if size == 0 {
          bodyComplete = true
        } else {
          chunkLeft = size
        }
      }
    }
  }

  /// The `data:` lines of the complete lines received so far (comments and other fields skipped).
  mutating func takeLines() -> [String] {
    var lines: [String] = []
    var start = 0
    while let newline = bufferedBody[start...].firstIndex(of: 10) {
      var line = bufferedBody[start..<newline]
      if line.last == 13 { line = line.dropLast() }
      start = newline + 1
      if line.starts(with: Array("data:".utf8)) {
        var text = String(decoding: line.dropFirst(5), as: UTF8.self)
        if text.hasPrefix(" ") { text.removeFirst() }
        lines.append(text)
      }
    }
    bufferedBody.removeSubrange(0..<start)
    return lines
  }

  private static func parseHead(_ text: String) throws(Failure) -> Head {
    let lines = text.components(separatedBy: "\r\n")
    let statusParts = lines.first?.split(separator: " ") ?? []
    guard statusParts.count >= 2, statusParts[0].hasPrefix("HTTP/1."), let status = Int(statusParts[1]) else {
      throw .malformed("a status line \"\(lines.first ?? "")\"")
    }
    var head = Head(status: status, chunked: false, contentLength: nil)
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
      let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      if name == "transfer-encoding", value.lowercased().contains("chunked") { head.chunked = true }
      if name == "content-length" { head.contentLength = Int(value) }
    }
    return head
  }

  private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
    guard haystack.count >= needle.count else { return nil }
    for index in 0...(haystack.count - needle.count) where haystack[index] == needle[0] {
      if Array(haystack[index..<(index + needle.count)]) == needle { return index }
    }
    return nil
  }
}
