import Dispatch
public import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A running `locemu serve`, spoken to over its HTTP JSON API (the routes of `openapi.yaml`).
///
/// ```swift
/// let server = EmulatorServer(url: URL(string: "http://127.0.0.1:8947")!)
/// let phone = server.phone("1")
/// try await phone.revoke()
/// ```
public struct EmulatorServer: Sendable {
  public var url: URL
  /// The server's token, when it was started with one (`--token`, or beyond loopback).
  public var token: String?
  /// How long one request may take.
  public var timeout: TimeInterval

  /// - Parameter url: the server's base URL (`listening on …`); default `$LOCEMU_SERVER`, else
  ///   `http://127.0.0.1:8947`. The token defaults to `$LOCEMU_TOKEN`.
  public init(url: URL? = nil, token: String? = nil, timeout: TimeInterval = 30) {
    let environment = ProcessInfo.processInfo.environment
    self.url = url ?? URL(string: environment["LOCEMU_SERVER"] ?? "http://127.0.0.1:8947") ?? URL(string: "http://127.0.0.1:8947")!
    self.token = token ?? environment["LOCEMU_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
    self.timeout = timeout
  }

  /// A phone of the server (it is not asked whether it exists until it is used).
  public func phone(_ id: String = "1") -> RemotePhone { RemotePhone(server: self, id: id) }

  func urlRequest(_ method: String, _ path: String, body: Data? = nil, contentType: String = "application/json") -> URLRequest {
    let base = url.absoluteString.hasSuffix("/") ? String(url.absoluteString.dropLast()) : url.absoluteString
    var request = URLRequest(url: URL(string: base + "/" + path)!)
    request.httpMethod = method
    request.timeoutInterval = timeout
    if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
    if let body {
      request.httpBody = body
      request.setValue(contentType, forHTTPHeaderField: "Content-Type")
    }
    return request
  }

  /// One request without a body; the answer's body when its status is 2xx.
  /// - Throws: ``EmulatorClientError``: `.refused` with the server's message, `.unreachable`.
  @discardableResult
  public func send(_ method: String, _ path: String) async throws(EmulatorClientError) -> Data {
    try await send(urlRequest(method, path))
  }

  /// One request with `body` as JSON (a ``Wire`` value); the answer's body when its status is 2xx.
  /// - Throws: ``EmulatorClientError``: `.refused` with the server's message, `.unreachable`.
  @discardableResult
  public func send(_ method: String, _ path: String, _ body: some Encodable & Sendable) async throws(EmulatorClientError) -> Data {
    try await send(urlRequest(method, path, body: Wire.encode(body)))
  }

  /// One request whose answer is a ``Wire`` value.
  public func get<Answer: Decodable>(_ path: String, as type: Answer.Type) async throws(EmulatorClientError) -> Answer {
    let data = try await send("GET", path)
    do {
      return try Wire.decode(type, from: data)
    } catch {
      throw .badRequest("the server's answer to \(path) is not what the API says: \(error)")
    }
  }

  /// One request with `body` as it is (a trace uploaded, say); the answer's body when its status is 2xx.
  /// - Throws: ``EmulatorClientError``: `.refused` with the server's message, `.unreachable`.
  @discardableResult
  public func send(_ method: String, _ path: String, body: Data, contentType: String) async throws(EmulatorClientError) -> Data {
    try await send(urlRequest(method, path, body: body, contentType: contentType))
  }

  private func send(_ request: URLRequest) async throws(EmulatorClientError) -> Data {
    // The completion-handler API, not `data(for:)`: cancelling a task awaiting that one makes
    // swift-corelibs-foundation cancel the URLSession task from inside the task's cancellation
    // handler, which can deadlock with the session's queue resuming the same task. A request
    // here ends by its answer or its timeout.
    let answer = await withCheckedContinuation { (done: CheckedContinuation<(Data?, URLResponse?, (any Error)?), Never>) in
      URLSession.shared.dataTask(with: request) { data, response, error in done.resume(returning: (data, response, error)) }.resume()
    }
    guard let response = answer.1 as? HTTPURLResponse else {
      throw .unreachable("cannot reach \(url.absoluteString): \((answer.2 as NSError?)?.localizedDescription ?? "no answer")")
    }
    let body = answer.0 ?? Data()
    guard (200..<300).contains(response.statusCode) else {
      throw .refused(status: response.statusCode, message: Self.message(body, status: response.statusCode))
    }
    return body
  }

  /// The server's `{"error": …}`, or the status.
  static func message(_ data: Data, status: Int) -> String {
    (try? Wire.decode(Wire.Failure.self, from: data))?.error ?? "HTTP \(status)"
  }

  /// The server-sent events at `path`: each event's data, as it arrives. Returns once the
  /// server has answered (so nothing sent after the return is missed); the stream ends when
  /// the server ends it. The connection closes when the consumer lets go of the stream (or its
  /// task is cancelled): nothing is left open behind a `first(where:)`.
  public func events(_ path: String) async throws(EmulatorClientError) -> AsyncThrowingStream<String, any Error> {
    try await events(path) { $0 }
  }

  /// The server-sent events at `path`, each made into a `T` by `transform` (nil: skipped).
  public func events<T: Sendable>(
    _ path: String, _ transform: @escaping @Sendable (String) -> T?
  ) async throws(EmulatorClientError)
    -> AsyncThrowingStream<T, any Error>
  {
    var request = urlRequest("GET", path)
    request.timeoutInterval = 86_400
    let (lines, continuation) = AsyncThrowingStream.makeStream(of: String.self)
    let reader = EventStreamReader(continuation: continuation)
    let session = URLSession(configuration: .default, delegate: reader, delegateQueue: nil)
    let task = session.dataTask(with: request)
    let connection = EventConnection(task: task, session: session, lines: lines)
    do {
      try await withCheckedThrowingContinuation { (connected: CheckedContinuation<Void, any Error>) in
        reader.onConnect(connected)
        task.resume()
      }
    } catch let error as EmulatorClientError {
      connection.close()
      throw error
    } catch {
      connection.close()
      throw .unreachable("cannot reach \(url.absoluteString): \((error as NSError).localizedDescription)")
    }
    return AsyncThrowingStream(unfolding: { try await connection.next(transform) })
  }
}

/// One event-stream connection, owned by the stream its consumer holds: when that goes, this
/// goes, and the connection closes.
final class EventConnection: @unchecked Sendable {
  private let task: URLSessionDataTask
  private let session: URLSession
  // Read by one consumer at a time (an unfolding stream calls next() serially).
  private var iterator: AsyncThrowingStream<String, any Error>.AsyncIterator

  init(task: URLSessionDataTask, session: URLSession, lines: AsyncThrowingStream<String, any Error>) {
    self.task = task
    self.session = session
    iterator = lines.makeAsyncIterator()
  }

  func next<T>(_ transform: (String) -> T?) async throws -> T? {
    while let line = try await iterator.next() {
      if let value = transform(line) { return value }
    }
    return nil
  }

  /// Off the caller's thread: URLSession's cancel waits on the session's queue, which a
  /// cooperative thread must not do.
  func close() {
    let (task, session) = (self.task, self.session)
    DispatchQueue.global().async {
      task.cancel()
      session.invalidateAndCancel()
    }
  }

  deinit { close() }
}

/// Why a request to the server did not do what it asked.
public enum EmulatorClientError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The server answered with an error status (400, 401, 404, 409, 413) and its message.
  case refused(status: Int, message: String)
  /// No answer: nothing listens there, or the connection broke.
  case unreachable(String)
  /// What was asked cannot be sent, or the answer is not what the API says.
  case badRequest(String)

  public var description: String {
    switch self {
    case .refused(_, let message): message
    case .unreachable(let message): message
    case .badRequest(let message): message
    }
  }
}

/// Reads a `text/event-stream` response as it arrives and yields each `data:` line.
final class EventStreamReader: NSObject, URLSessionDataDelegate, @unchecked Sendable {
  private let lock = NSLock()
  private let continuation: AsyncThrowingStream<String, any Error>.Continuation
  private var connected: CheckedContinuation<Void, any Error>?
  private var buffer = Data()

  init(continuation: AsyncThrowingStream<String, any Error>.Continuation) { self.continuation = continuation }

  func onConnect(_ connected: CheckedContinuation<Void, any Error>) { lock.withLock { self.connected = connected } }

  private func resumeConnected(_ result: Result<Void, any Error>) {
    let waiting = lock.withLock { () -> CheckedContinuation<Void, any Error>? in
      defer { connected = nil }
      return connected
    }
    waiting?.resume(with: result)
  }

  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
  ) {
    let status = (response as? HTTPURLResponse)?.statusCode ?? 0
    guard (200..<300).contains(status) else {
      let message = status == 401 ? "the server needs its token (HTTP 401)" : status == 404 ? "no such phone (HTTP 404)" : "HTTP \(status)"
      resumeConnected(.failure(EmulatorClientError.refused(status: status, message: message)))
      completionHandler(.cancel)
      return
    }
    resumeConnected(.success(()))
    completionHandler(.allow)
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    let lines = lock.withLock { () -> [String] in
      buffer.append(data)
      var lines: [String] = []
      while let end = buffer.firstIndex(of: UInt8(ascii: "\n")) {
        var line = buffer[buffer.startIndex..<end]
        if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
        buffer.removeSubrange(buffer.startIndex...end)
        if line.starts(with: Data("data:".utf8)) {
          var text = String(decoding: line.dropFirst(5), as: UTF8.self)
          if text.hasPrefix(" ") { text.removeFirst() }
          lines.append(text)
        }
      }
      return lines
    }
    for line in lines { continuation.yield(line) }
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
    let stillConnecting = lock.withLock { connected != nil }
    let server =
      task.originalRequest?.url.map { "\($0.scheme ?? "http")://\($0.host ?? "")\($0.port.map { ":\($0)" } ?? "")" } ?? "the server"
    let failure: (any Error)? = error.map {
      let reason = ($0 as NSError).localizedDescription
      return (stillConnecting ? .unreachable("cannot reach \(server): \(reason)") : .unreachable("the event stream broke: \(reason)"))
        as EmulatorClientError
    }
    resumeConnected(.failure(failure ?? EmulatorClientError.unreachable("\(server) closed the event stream")))
    if let failure, (error as NSError?)?.code != NSURLErrorCancelled {
      continuation.finish(throwing: failure)
    } else {
      continuation.finish()
    }
    session.finishTasksAndInvalidate()
  }
}
