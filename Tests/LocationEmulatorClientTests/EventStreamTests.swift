import Foundation
import TestSupport
import Testing

@testable import LocationEmulatorClient

#if canImport(Glibc)
  import Glibc
#endif

/// A value a server's thread sets once and a test awaits without blocking a thread of Swift's
/// cooperative pool (as a semaphore's wait would). The wait is a hang guard: it ends after a
/// bound of real time, with nil, so that the test can say what never came.
final class OneShot<Value: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value?
  private var waiters: [Int: CheckedContinuation<Value?, Never>] = [:]
  private var expired: Set<Int> = []
  private var nextWaiter = 0

  /// Sets the value (the first time only) and wakes the waiters.
  func set(_ newValue: Value) {
    lock.lock()
    guard value == nil else {
      lock.unlock()
      return
    }
    value = newValue
    let waiting = waiters.values
    waiters = [:]
    lock.unlock()
    for waiter in waiting { waiter.resume(returning: newValue) }
  }

  /// The value, once set; nil when `limit` of real time passes first.
  func wait(within limit: Duration) async -> Value? {
    let id = lock.withLock {
      nextWaiter += 1
      return nextWaiter
    }
    let timer = Task { [self] in
      guard (try? await Task.sleep(for: limit)) != nil else { return }
      expire(id)
    }
    defer { timer.cancel() }
    return await withCheckedContinuation { continuation in
      lock.lock()
      if let value {
        lock.unlock()
        continuation.resume(returning: value)
      } else if expired.contains(id) {
        lock.unlock()
        continuation.resume(returning: nil)
      } else {
        waiters[id] = continuation
        lock.unlock()
      }
    }
  }

  private func expire(_ id: Int) {
    let waiter = lock.withLock { () -> CheckedContinuation<Value?, Never>? in
      guard let waiter = waiters.removeValue(forKey: id) else {
        expired.insert(id)
        return nil
      }
      return waiter
    }
    waiter?.resume(returning: nil)
  }
}

/// The event stream's HTTP reading, byte by byte and over a real loopback socket: the reader
/// that replaced URLSession (which spun two threads at full speed while a stream stayed open).
@Suite("Event streams: HTTP/1.1 read as it arrives")
struct EventStreamTests {
  /// `text` as one chunk of a chunked body.
  static func chunk(_ text: String) -> String { String(text.utf8.count, radix: 16) + "\r\n" + text + "\r\n" }

  static let chunkedResponse = Array(
    ("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
      + chunk(": keep-alive\n\n") + chunk("data: {\"event\":\"a\"}\n\n") + chunk("data: {\"event\":\"b\"}\r\n\r\ndata:")
      + chunk(" c\n\n") + "0\r\n\r\n").utf8)

  @Test("a chunked stream cut at every byte gives the same data lines, comments skipped, and ends at the last chunk")
  func chunkedAtEveryCut() throws {
    for cut in 1...Self.chunkedResponse.count {
      var reader = HTTPStreamReader()
      var lines: [String] = []
      var start = 0
      while start < Self.chunkedResponse.count {
        let end = min(start + cut, Self.chunkedResponse.count)
        try reader.feed(Array(Self.chunkedResponse[start..<end]))
        lines += reader.takeLines()
        start = end
      }
      #expect(reader.head?.status == 200)
      #expect(lines == [#"{"event":"a"}"#, #"{"event":"b"}"#, "c"], "pieces of \(cut) bytes")
      #expect(reader.bodyComplete, "pieces of \(cut) bytes")
    }
  }

  @Test("a refusal's body of a stated length is read whole")
  func refusalBody() throws {
    var reader = HTTPStreamReader()
    let body = #"{"error":"no phone 7"}"#
    try reader.feed(Array("HTTP/1.1 404 Not Found\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8))
    #expect(reader.head?.status == 404)
    #expect(reader.bodyComplete)
    #expect(EmulatorServer.message(Data(reader.bufferedBody), status: 404) == "no phone 7")
  }

  @Test("garbage instead of HTTP, or a line without end, is an error, not a hang or a heap")
  func malformed() {
    var notHTTP = HTTPStreamReader()
    #expect(throws: HTTPStreamReader.Failure.self) { try notHTTP.feed(Array("SSH-2.0-OpenSSH\r\n\r\n".utf8)) }
    var badChunk = HTTPStreamReader()
    #expect(throws: HTTPStreamReader.Failure.self) {
      try badChunk.feed(Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n".utf8))
    }
    var endless = HTTPStreamReader()
    #expect(throws: HTTPStreamReader.Failure.self) {
      try endless.feed(Array("HTTP/1.1 200 OK\r\n\r\n".utf8))
      let block = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 16)
      for _ in 0...(HTTPStreamReader.lineLimit >> 16) { try endless.feed(block) }
    }
  }

  /// A TCP socket bound to a free loopback port (port 0, read back), listening when asked.
  static func loopbackSocket(listening: Bool) throws -> (descriptor: Int32, port: Int) {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let ok = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, length) == 0 && (!listening || listen(descriptor, 1) == 0) && getsockname(descriptor, $0, &length) == 0
      }
    }
    guard ok else {
      close(descriptor)
      throw POSIXError(.EADDRINUSE)
    }
    return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
  }

  /// A one-connection HTTP server on loopback that answers with `batches` of pieces, each
  /// piece in a `send` of its own, and a batch after the first only once the test says so
  /// (``proceed``), then holds the connection open until the client closes it.
  final class OneShotServer: @unchecked Sendable {
    let port: Int
    private let listener: Int32
    /// Set when the client has closed the connection.
    let clientClosed = OneShot<Void>()
    /// Signalled by the test when the server may send its next batch (the server's thread waits
    /// for it, not the test's).
    let proceed = DispatchSemaphore(value: 0)

    init(batches: [[String]]) throws {
      let (listener, port) = try EventStreamTests.loopbackSocket(listening: true)
      (self.listener, self.port) = (listener, port)
      let (closed, proceed) = (clientClosed, self.proceed)
      Thread {
        let connection = accept(listener, nil, nil)
        var request = [UInt8](repeating: 0, count: 4096)
        _ = recv(connection, &request, request.count, 0)
        for (index, batch) in batches.enumerated() {
          // A test that never says so (600 s, a hang guard) does not get the batch: the
          // connection ends instead, and the test finds its next event missing. (Sent anyway, it
          // would pass a client that waited for more before yielding.)
          if index > 0, proceed.wait(timeout: .now() + 600) == .timedOut {
            close(connection)
            closed.set(())
            return
          }
          for piece in batch {
            _ = Array(piece.utf8).withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
          }
        }
        // Held open: the client's close is what ends it.
        var byte: UInt8 = 0
        while recv(connection, &byte, 1, 0) > 0 {}
        close(connection)
        closed.set(())
      }.start()
    }

    deinit { close(listener) }
  }

  @Test("events come as the server sends them, and letting go of the stream closes the connection")
  func realSocket() async throws {
    // Event b is sent only after the client has event a: a stream that waited for more (or for
    // the end) before yielding would not get past the first.
    let server = try OneShotServer(batches: [
      ["HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n", Self.chunk("data: {\"event\":\"a\"}\n\n")],
      [Self.chunk("data: {\"event\":\"b\"}\n\n")],
    ])
    // The client's timeout only bounds a hang (a step of a loopback exchange takes milliseconds).
    let client = EmulatorServer(url: URL(string: "http://127.0.0.1:\(server.port)")!, timeout: 600)
    var stream: AsyncThrowingStream<String, any Error>? = try await client.events("phones/1/events")
    var iterator = stream?.makeAsyncIterator()
    #expect(try await iterator?.next() == #"{"event":"a"}"#)
    server.proceed.signal()
    #expect(try await iterator?.next() == #"{"event":"b"}"#, "event b, which the server sends once the test let it")
    (stream, iterator) = (nil, nil)
    let closed: Void? = await server.clientClosed.wait(within: .seconds(600))
    #expect(closed != nil, "the server did not see the connection close within 600 s of the stream being let go")
  }

  @Test("a process the app starts holds no descriptor of the stream's connection, and letting go still closes it")
  func aChildProcessHoldsNoConnection() async throws {
    let server = try OneShotServer(batches: [
      ["HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n", Self.chunk("data: {\"event\":\"a\"}\n\n")]
    ])
    let client = EmulatorServer(url: URL(string: "http://127.0.0.1:\(server.port)")!, timeout: 600)
    var stream: AsyncThrowingStream<String, any Error>? = try await client.events("phones/1/events")
    var iterator = stream?.makeAsyncIterator()
    #expect(try await iterator?.next() == #"{"event":"a"}"#)
    // A child that outlives the stream, started as a C library or the app's own code might
    // (posix_spawn, no file actions): it gets every descriptor not marked close-on-exec.
    let child = try InheritedDescriptors.startChild()
    defer { InheritedDescriptors.end(child) }
    let connection = InheritedDescriptors.connections(toLoopbackPort: server.port)
    #expect(connection.count == 1, "the client's end of the stream in /proc/net/tcp")
    #expect(socketInodes(of: child).isDisjoint(with: connection), "the child holds the stream's connection")
    (stream, iterator) = (nil, nil)
    let closed: Void? = await server.clientClosed.wait(within: .seconds(600))
    #expect(closed != nil, "the server did not see the connection close within 600 s of the stream being let go")
  }

  @Test("nothing listening is a one-line unreachable error")
  func nothingListening() async throws {
    // A port this test keeps bound, without listening, while the client tries it: nobody else
    // can take it meanwhile, and a connection to it is refused.
    let (probe, port) = try Self.loopbackSocket(listening: false)
    defer { close(probe) }
    let client = EmulatorServer(url: URL(string: "http://127.0.0.1:\(port)")!, timeout: 5)
    do {
      _ = try await client.events("phones/1/events")
      Issue.record("nothing listens there")
    } catch {
      guard case .unreachable(let message) = error else { return #expect(Bool(false), "\(error)") }
      #expect(message.contains("cannot reach 127.0.0.1:") && !message.contains("\n"))
    }
  }
}
