public import Foundation

/// A running `locemu serve`, spoken to over its HTTP JSON API (the routes of `openapi.yaml`),
/// over plain `http://` as the server speaks it, a connection per request.
///
/// ```swift
/// let server = EmulatorServer(url: URL(string: "http://127.0.0.1:8947")!)
/// let phone = server.phone("1")
/// try await phone.revoke()
/// ```
public struct EmulatorServer: Sendable {
  /// The server's base URL; each request's path is added to it.
  public var url: URL
  /// The server's token, when it was started with one (`--token`, or beyond loopback).
  public var token: String?
  /// How long one request may take.
  public var timeout: TimeInterval

  /// - Parameters:
  ///   - url: the server's base URL (`listening on …`); default `$LOCEMU_SERVER`, else
  ///     `http://127.0.0.1:8947`.
  ///   - token: the server's token (``token``); default `$LOCEMU_TOKEN`.
  ///   - timeout: how long one request may take, in seconds.
  public init(url: URL? = nil, token: String? = nil, timeout: TimeInterval = 30) {
    let environment = ProcessInfo.processInfo.environment
    self.url = url ?? URL(string: environment["LOCEMU_SERVER"] ?? "http://127.0.0.1:8947") ?? URL(string: "http://127.0.0.1:8947")!
    self.token = token ?? environment["LOCEMU_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
    self.timeout = timeout
  }

  /// A phone of the server (it is not asked whether it exists until it is used).
  public func phone(_ id: String = "1") -> RemotePhone { RemotePhone(server: self, id: id) }

  // MARK: The server's phones, clock and traces

  /// Every phone's state (`GET /phones`).
  /// - Throws: ``EmulatorClientError``.
  public func phones() async throws(EmulatorClientError) -> RemotePhoneList {
    let (list, json) = try await answer("GET", "phones", as: Wire.PhoneList.self)
    return RemotePhoneList(list, json: json)
  }

  /// Makes a phone (`POST /phones`), its settings checked before it is made: a refused request
  /// makes nothing.
  /// - Parameter settings: the phone's permission, settings, location or trace, realism and map
  ///   features; every member is optional (by default, a new iPhone's defaults).
  /// - Returns: the new phone's state; ``phone(_:)`` with its ``RemotePhoneState/id`` drives it.
  /// - Throws: ``EmulatorClientError``: `.refused` with 400 (a bad setting), 429 (the server holds
  ///   its `--max-phones`).
  @discardableResult
  public func createPhone(_ settings: Wire.NewPhone = Wire.NewPhone()) async throws(EmulatorClientError) -> RemotePhoneState {
    try RemotePhoneState(json: try await send("POST", "phones", settings))
  }

  /// Stops a phone and forgets it (`DELETE /phones/{id}`): its event streams end.
  /// - Parameter id: the phone to delete.
  /// - Throws: ``EmulatorClientError``: `.refused` with 404 when there is no such phone.
  public func deletePhone(_ id: String) async throws(EmulatorClientError) {
    try await send("DELETE", "phones/\(id)")
  }

  /// The server's clock (`GET /clock`): virtual or real, and the time since the server started.
  /// - Throws: ``EmulatorClientError``.
  public func clock() async throws(EmulatorClientError) -> RemoteClock {
    let (clock, json) = try await answer("GET", "clock", as: Wire.Clock.self)
    return RemoteClock(clock, json: json)
  }

  /// Moves a virtual clock on (`POST /clock/advance`, a server started with `--virtual-time`);
  /// answers once everything due by then has happened.
  /// - Parameter seconds: how far, 0 to 864000.
  /// - Returns: the clock after the advance.
  /// - Throws: ``EmulatorClientError``: `.refused` with 400 (out of range), 409 (a real clock).
  @discardableResult
  public func advanceClock(seconds: Double) async throws(EmulatorClientError) -> RemoteClock {
    let (clock, json) = try await answer("POST", "clock/advance", Wire.ClockAdvance(seconds: seconds), as: Wire.Clock.self)
    return RemoteClock(clock, json: json)
  }

  /// The traces a phone may play by name (`GET /traces`): those of the server's `--traces`
  /// directory, and the largest trace it takes.
  /// - Throws: ``EmulatorClientError``.
  public func traces() async throws(EmulatorClientError) -> RemoteTraceList {
    let (list, json) = try await answer("GET", "traces", as: Wire.TraceList.self)
    return RemoteTraceList(list, json: json)
  }

  /// One request without a body whose answer is a ``Wire`` value: the value, and the answer's
  /// text as the server sent it (without the line's end).
  private func answer<Answer: Decodable>(
    _ method: String, _ path: String, as type: Answer.Type
  ) async throws(EmulatorClientError) -> (Answer, String) {
    try Self.decode(type, try await send(method, path), path: path)
  }

  /// One request with `body` as JSON whose answer is a ``Wire`` value: the value, and its text.
  private func answer<Answer: Decodable>(
    _ method: String, _ path: String, _ body: some Encodable & Sendable, as type: Answer.Type
  ) async throws(EmulatorClientError) -> (Answer, String) {
    try Self.decode(type, try await send(method, path, body), path: path)
  }

  /// `data` decoded as a `type`, and its text without the surrounding whitespace.
  private static func decode<Answer: Decodable>(
    _ type: Answer.Type, _ data: Data, path: String
  ) throws(EmulatorClientError) -> (Answer, String) {
    let value: Answer
    do {
      value = try Wire.decode(type, from: data)
    } catch {
      throw .badRequest("the server's answer to \(path) is not what the API says: \(error)")
    }
    return (value, String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
  }

  /// The request target (path and query, percent-encoded) of `path` under ``url``'s path.
  func target(_ path: String) throws(EmulatorClientError) -> String {
    let base = url.absoluteString.hasSuffix("/") ? String(url.absoluteString.dropLast()) : url.absoluteString
    guard let target = URL(string: base + "/" + path).flatMap({ URLComponents(url: $0, resolvingAgainstBaseURL: false) }) else {
      throw .badRequest("not a URL: \(url.absoluteString) and \(path)")
    }
    return (target.percentEncodedPath.isEmpty ? "/" : target.percentEncodedPath) + (target.percentEncodedQuery.map { "?" + $0 } ?? "")
  }

  /// The `Authorization` header when there is a token.
  private var authorization: [(String, String)] { token.map { [("Authorization", "Bearer \($0)")] } ?? [] }

  /// One request without a body; the answer's body when its status is 2xx.
  /// - Throws: ``EmulatorClientError``: `.refused` with the server's message, `.unreachable`.
  @discardableResult
  public func send(_ method: String, _ path: String) async throws(EmulatorClientError) -> Data {
    try await exchange(method, path, body: nil, contentType: nil)
  }

  /// One request with `body` as JSON (a ``Wire`` value); the answer's body when its status is 2xx.
  /// - Throws: ``EmulatorClientError``: `.refused` with the server's message, `.unreachable`.
  @discardableResult
  public func send(_ method: String, _ path: String, _ body: some Encodable & Sendable) async throws(EmulatorClientError) -> Data {
    try await exchange(method, path, body: Wire.encode(body), contentType: "application/json")
  }

  /// One request whose answer is a ``Wire`` value.
  public func get<Answer: Decodable>(_ path: String, as type: Answer.Type) async throws(EmulatorClientError) -> Answer {
    try Self.decode(type, try await send("GET", path), path: path).0
  }

  /// One request with `body` as it is (a trace uploaded, say); the answer's body when its status is 2xx.
  /// - Throws: ``EmulatorClientError``: `.refused` with the server's message, `.unreachable`.
  @discardableResult
  public func send(_ method: String, _ path: String, body: Data, contentType: String) async throws(EmulatorClientError) -> Data {
    try await exchange(method, path, body: body, contentType: contentType)
  }

  /// One request over a connection of its own (``HTTPSocket``), made on a thread of its own (it
  /// blocks, at most ``timeout`` per step): the answer's body when its status is 2xx. A request
  /// ends by its answer or its timeout.
  private func exchange(_ method: String, _ path: String, body: Data?, contentType: String?) async throws(EmulatorClientError) -> Data {
    let target = try target(path)
    let headers = [("Accept", "application/json")] + authorization + (body == nil ? [] : contentType.map { [("Content-Type", $0)] } ?? [])
    let (url, timeout, bytes) = (self.url, self.timeout, body.map { [UInt8]($0) })
    let (status, received) = try await Self.offPool {
      () throws(EmulatorClientError) in
      try HTTPSocket.exchange(url: url, method: method, target: target, headers: headers, body: bytes, timeout: timeout)
    }
    let data = Data(received)
    guard (200..<300).contains(status) else { throw .refused(status: status, message: Self.message(data, status: status)) }
    return data
  }

  /// `work` on a thread of its own: it blocks (a connection, a read), which on the cooperative
  /// pool would hold one of its few threads. Not `DispatchQueue.global()`: on Linux Swift's
  /// tasks run on the same threads as its work, so work blocked there holds them all the same.
  private static func offPool<T: Sendable>(
    _ work: @escaping @Sendable () throws(EmulatorClientError) -> T
  ) async throws(EmulatorClientError) -> T {
    let result = await withCheckedContinuation { (done: CheckedContinuation<Result<T, EmulatorClientError>, Never>) in
      Thread { done.resume(returning: Result(catching: work)) }.start()
    }
    return try result.get()
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
    let requestTarget = try target(path)
    let headers = authorization
    let (lines, continuation) = AsyncThrowingStream.makeStream(of: String.self)
    let (url, timeout) = (self.url, self.timeout)
    // Connecting blocks (at most the timeout): on a thread of its own, not the cooperative pool.
    let socket = try await Self.offPool { () throws(EmulatorClientError) in
      try HTTPSocket.open(url: url, target: requestTarget, headers: headers, timeout: timeout, continuation: continuation)
    }
    let connection = EventConnection(socket: socket, lines: lines)
    return AsyncThrowingStream(unfolding: { try await connection.next(transform) })
  }
}

/// One event-stream connection, owned by the stream its consumer holds: when that goes, this
/// goes, and the connection closes.
final class EventConnection: @unchecked Sendable {
  private let socket: HTTPSocket
  // Read by one consumer at a time (an unfolding stream calls next() serially).
  private var iterator: AsyncThrowingStream<String, any Error>.AsyncIterator

  init(socket: HTTPSocket, lines: AsyncThrowingStream<String, any Error>) {
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

/// The server's phones, as `GET /phones` lists them.
public struct RemotePhoneList: Sendable, Hashable {
  /// Every phone's state, in the server's order; each one's ``RemotePhoneState/json`` is its
  /// object as the wire model writes it.
  public var phones: [RemotePhoneState]
  /// The list as the server sent it, one JSON object (`{"phones": […]}`).
  public var json: String

  /// The members of a decoded list.
  /// - Parameters:
  ///   - list: the list, decoded.
  ///   - json: the list as the server sent it.
  public init(_ list: Wire.PhoneList, json: String) {
    phones = list.phones.map { RemotePhoneState($0, json: String(decoding: Wire.encode($0), as: UTF8.self)) }
    self.json = json
  }
}

/// The server's clock, as `GET /clock` and `POST /clock/advance` answer it.
public struct RemoteClock: Sendable, Hashable {
  /// Whether the clock is virtual (`locemu serve --virtual-time`): it moves only when advanced.
  public var isVirtual: Bool
  /// Time on the clock since the server started.
  public var elapsed: Duration
  /// The clock as the server sent it, one JSON object.
  public var json: String

  /// The members of a decoded clock.
  /// - Parameters:
  ///   - clock: the clock, decoded.
  ///   - json: the clock as the server sent it.
  public init(_ clock: Wire.Clock, json: String) {
    isVirtual = clock.virtual
    elapsed = Wire.duration(seconds: clock.elapsed)
    self.json = json
  }
}

/// The traces a phone may play by name, as `GET /traces` lists them.
public struct RemoteTraceList: Sendable, Hashable {
  /// Whether the server has a trace directory (`locemu serve --traces DIR`).
  public var hasDirectory: Bool
  /// The largest trace the server takes, uploaded or named, in bytes.
  public var maxBytes: Int
  /// The traces of the directory, by the names a request gives.
  public var names: [String]
  /// The list as the server sent it, one JSON object.
  public var json: String

  /// The members of a decoded list.
  /// - Parameters:
  ///   - list: the list, decoded.
  ///   - json: the list as the server sent it.
  public init(_ list: Wire.TraceList, json: String) {
    hasDirectory = list.directory
    maxBytes = list.maxBytes
    names = list.names
    self.json = json
  }
}

/// Why a request to the server did not do what it asked.
public enum EmulatorClientError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The server answered with an error status (400, 401, 404, 409, 413) and its message.
  case refused(status: Int, message: String)
  /// No answer: nothing listens there, or the connection broke.
  case unreachable(String)
  /// What was asked cannot be sent, or the answer is not what the API says.
  case badRequest(String)

  /// The error's message alone: the server's, or what went wrong on this side.
  public var description: String {
    switch self {
    case .refused(_, let message): message
    case .unreachable(let message): message
    case .badRequest(let message): message
    }
  }
}
