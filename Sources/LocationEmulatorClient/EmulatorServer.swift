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
    let request = urlRequest("GET", path)
    guard let target = request.url.flatMap({ URLComponents(url: $0, resolvingAgainstBaseURL: false) }) else {
      throw .badRequest("not a URL: \(url.absoluteString) and \(path)")
    }
    let requestTarget =
      (target.percentEncodedPath.isEmpty ? "/" : target.percentEncodedPath)
      + (target.percentEncodedQuery.map { "?" + $0 } ?? "")
    let headers = token.map { [("Authorization", "Bearer \($0)")] } ?? []
    let (lines, continuation) = AsyncThrowingStream.makeStream(of: String.self)
    let (url, timeout) = (self.url, self.timeout)
    // Connecting blocks (at most the timeout): on a dispatch thread, not the cooperative pool.
    let opened = await withCheckedContinuation { (done: CheckedContinuation<Result<EventStreamSocket, EmulatorClientError>, Never>) in
      DispatchQueue.global().async {
        done.resume(
          returning: Result { () throws(EmulatorClientError) in
            try EventStreamSocket.open(
              url: url, target: requestTarget, headers: headers, timeout: timeout, continuation: continuation)
          })
      }
    }
    let connection = EventConnection(socket: try opened.get(), lines: lines)
    return AsyncThrowingStream(unfolding: { try await connection.next(transform) })
  }
}

/// One event-stream connection, owned by the stream its consumer holds: when that goes, this
/// goes, and the connection closes.
final class EventConnection: @unchecked Sendable {
  private let socket: EventStreamSocket
  // Read by one consumer at a time (an unfolding stream calls next() serially).
  private var iterator: AsyncThrowingStream<String, any Error>.AsyncIterator

  init(socket: EventStreamSocket, lines: AsyncThrowingStream<String, any Error>) {
    self.socket = socket
    iterator = lines.makeAsyncIterator()
  }

  func next<T>(_ transform: (String) -> T?) async throws -> T? {
    while let line = try await iterator.next() {
      if let value = transform(line) { return value }
    }
    return nil
  }

  deinit { socket.close() }
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
