import Foundation
import Testing

@testable import LocationEmulatorClient

#if canImport(Glibc)
  import Glibc
#endif

/// Requests to `locemu serve` over a plain HTTP/1.1 connection (``HTTPSocket``, no URLSession
/// and so no libcurl), against a real loopback server that records what it was sent.
@Suite("Requests: one HTTP/1.1 exchange a connection")
struct RequestTests {
  /// A one-connection server on loopback: reads a request (its head and a body of the length it
  /// states), keeps it, sends `answer`, and closes the connection.
  final class AnsweringServer: @unchecked Sendable {
    let port: Int
    private let listener: Int32
    /// The request as received, set once the server has answered and closed the connection.
    private let answered = OneShot<String>()

    init(answer: String) throws {
      let (listener, port) = try EventStreamTests.loopbackSocket(listening: true)
      (self.listener, self.port) = (listener, port)
      let answered = self.answered
      Thread {
        let connection = accept(listener, nil, nil)
        var request: [UInt8] = []
        var block = [UInt8](repeating: 0, count: 4096)
        while !Self.complete(request) {
          let n = recv(connection, &block, block.count, 0)
          if n <= 0 { break }
          request += block[0..<n]
        }
        _ = Array(answer.utf8).withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        close(connection)
        answered.set(String(decoding: request, as: UTF8.self))
      }.start()
    }

    deinit { close(listener) }

    /// The request as received, once the server has answered. Awaited, not waited for on a
    /// thread of the cooperative pool; a hang guard of 600 s, recorded as an issue.
    var request: String {
      get async {
        guard let request = await answered.wait(within: .seconds(600)) else {
          Issue.record("the loopback server did not answer within 600 s")
          return ""
        }
        return request
      }
    }

    /// Whether `bytes` hold a whole head and the body of its `Content-Length`.
    static func complete(_ bytes: [UInt8]) -> Bool {
      let text = String(decoding: bytes, as: UTF8.self)
      guard let end = text.range(of: "\r\n\r\n") else { return false }
      let length =
        text[..<end.lowerBound].split(separator: "\r\n")
        .first { $0.lowercased().hasPrefix("content-length:") }
        .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
      return text[end.upperBound...].utf8.count >= length
    }
  }

  static let body = #"{"phones":["1","2"]}"#

  @Test(
    "an answer is read whole: of a stated length, chunked, or up to the close",
    arguments: [
      "HTTP/1.1 200 OK\r\nContent-Length: \(body.utf8.count)\r\nContent-Type: application/json\r\n\r\n\(body)",
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + EventStreamTests.chunk("{\"phones\":")
        + EventStreamTests.chunk("[\"1\",\"2\"]}")
        + "0\r\n\r\n",
      "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n\(body)",
    ])
  func answerRead(answer: String) async throws {
    let server = try AnsweringServer(answer: answer)
    // The client's timeouts here only bound a hang (a loopback exchange takes milliseconds).
    let client = EmulatorServer(url: URL(string: "http://127.0.0.1:\(server.port)/base/")!, token: "s3cret", timeout: 600)
    let data = try await client.send("POST", "phones/1/trace?loop=true", body: Data("a,b\n".utf8), contentType: "text/csv")
    #expect(String(decoding: data, as: UTF8.self) == Self.body)
    let lines = await server.request.components(separatedBy: "\r\n")
    #expect(lines.first == "POST /base/phones/1/trace?loop=true HTTP/1.1")
    #expect(lines.contains("Host: 127.0.0.1:\(server.port)"))
    #expect(lines.contains("Authorization: Bearer s3cret"))
    #expect(lines.contains("Content-Type: text/csv"))
    #expect(lines.contains("Content-Length: 4"))
    #expect(lines.contains("Connection: close"))
    #expect(lines.last == "a,b\n")
  }

  @Test("a POST without a body says its length is 0; a GET says nothing of one")
  func emptyBodies() async throws {
    let post = try AnsweringServer(answer: "HTTP/1.1 204 No Content\r\n\r\n")
    let empty = try await EmulatorServer(url: URL(string: "http://127.0.0.1:\(post.port)")!, timeout: 600).send("POST", "phones/1/revoke")
    #expect(empty.isEmpty)
    let posted = await post.request
    #expect(posted.contains("\r\nContent-Length: 0\r\n"))
    let get = try AnsweringServer(answer: "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n[]")
    _ = try await EmulatorServer(url: URL(string: "http://127.0.0.1:\(get.port)")!, timeout: 600).send("GET", "phones")
    let got = await get.request
    #expect(!got.lowercased().contains("content-length"))
  }

  @Test("a refusal is .refused with the server's message and status")
  func refusal() async throws {
    let message = #"{"error":"no phone 7"}"#
    let server = try AnsweringServer(answer: "HTTP/1.1 404 Not Found\r\nContent-Length: \(message.utf8.count)\r\n\r\n\(message)")
    await #expect(throws: EmulatorClientError.refused(status: 404, message: "no phone 7")) {
      try await EmulatorServer(url: URL(string: "http://127.0.0.1:\(server.port)")!, timeout: 600).send("GET", "phones/7")
    }
  }

  @Test("an answer cut short, or not HTTP, is .unreachable in one line")
  func brokenAnswers() async throws {
    for answer in ["HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{\"a\"", "HTTP/1.1 200 OK\r\nContent-Le", "SSH-2.0-OpenSSH\r\n\r\n"] {
      let server = try AnsweringServer(answer: answer)
      do {
        try await EmulatorServer(url: URL(string: "http://127.0.0.1:\(server.port)")!, timeout: 600).send("GET", "phones")
        Issue.record("\(answer.debugDescription) was taken as an answer")
      } catch {
        guard case .unreachable(let text) = error else { return #expect(Bool(false), "\(error)") }
        #expect(text.hasPrefix("cannot reach http://127.0.0.1:\(server.port): ") && !text.contains("\n"), "\(text)")
      }
    }
  }

  @Test("nothing listening is .unreachable naming the server; https:// is refused before connecting")
  func nothingThereOrTLS() async throws {
    let (probe, port) = try EventStreamTests.loopbackSocket(listening: false)
    defer { close(probe) }
    await #expect(throws: EmulatorClientError.unreachable("cannot reach http://127.0.0.1:\(port): Connection refused")) {
      try await EmulatorServer(url: URL(string: "http://127.0.0.1:\(port)")!, timeout: 5).send("GET", "phones")
    }
    await #expect(throws: EmulatorClientError.badRequest("locemu serve is spoken to over plain http://, not https://127.0.0.1:1")) {
      try await EmulatorServer(url: URL(string: "https://127.0.0.1:1")!, timeout: 5).send("GET", "phones")
    }
  }
}
