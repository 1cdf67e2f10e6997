import CLibcurl
package import Foundation
package import PetMap

/// Announcements from a backend, asked and read as the app's `HTTPAnnouncementRepository`
/// (PetMapNetworking) asks and reads them — `GET {baseURL}/api/v1/announcements?lat=…&lng=…&
/// range=KM[&limit=N]`, http:// or https://, redirects followed — but fetched with libcurl
/// loaded when the first request is made (`CLibcurl`), not with URLSession: on Linux
/// URLSession is FoundationNetworking over libcurl, linked into the program, and its 35
/// libraries would load before `main` in every `locemu` command (about 8 ms of a 17 ms start).
package struct LibcurlAnnouncementRepository: AnnouncementRepository {
  package var baseURL: URL
  /// Seconds a request may take before it fails.
  package var timeout: TimeInterval

  package init(baseURL: URL, timeout: TimeInterval = 10) {
    self.baseURL = baseURL
    self.timeout = timeout
  }

  /// - Throws: `AnnouncementError`: `.transport` when the request fails (with libcurl's reason,
  ///   or that libcurl is not installed), `.httpStatus`, `.malformed`.
  package func announcements(for query: AnnouncementListQuery) async throws -> [Announcement] {
    let (status, body) = try await Self.get(query.url(base: baseURL), timeout: timeout)
    return try query.announcements(status: status, body: body)
  }

  /// One GET, on a thread of its own (libcurl blocks it, at most `timeout`; not a dispatch
  /// worker, which Swift's tasks may run on, nor a thread of Swift's cooperative pool); cancelling
  /// the calling task stops the request at libcurl's next progress call.
  static func get(_ url: URL, timeout: TimeInterval) async throws(AnnouncementError) -> (status: Int, body: Data) {
    let request = Request()
    let result = await withTaskCancellationHandler {
      await withCheckedContinuation { (done: CheckedContinuation<Result<(status: Int, body: Data), AnnouncementError>, Never>) in
        let thread = Thread { done.resume(returning: request.get(url, timeout: timeout)) }
        thread.name = "locemu.libcurl"
        thread.start()
      }
    } onCancel: {
      request.cancel()
    }
    return try result.get()
  }
}

/// One request's cancellation flag, which libcurl's progress callback reads (atomically, in C).
private final class Request: @unchecked Sendable {
  private let cancelled = UnsafeMutablePointer<Int32>.allocate(capacity: 1)

  init() { cancelled.initialize(to: 0) }
  deinit { cancelled.deallocate() }

  func cancel() { locemu_libcurl_cancel(cancelled) }

  /// libcurl's code, said as `AnnouncementError.transport(_:url:)` says it (and URLSession's).
  static func failure(_ code: Int32, _ reason: String) -> AnnouncementError.Failure {
    switch Int(code) {
    case locemu_libcurl_aborted_by_callback: .cancelled
    case locemu_libcurl_could_not_connect: .cannotConnect
    case locemu_libcurl_timed_out: .timedOut
    case locemu_libcurl_could_not_resolve_host: .noSuchHost
    case locemu_libcurl_got_nothing, locemu_libcurl_send_error, locemu_libcurl_receive_error: .connectionLost
    case locemu_libcurl_weird_server_reply: .badResponse
    case locemu_libcurl_unsupported_protocol, locemu_libcurl_url_malformed: .unsupportedURL
    default: .other(reason)
    }
  }

  func get(_ url: URL, timeout: TimeInterval) -> Result<(status: Int, body: Data), AnnouncementError> {
    var status = 0
    var body = locemu_libcurl_body()
    var code: Int32 = 0
    var message = [CChar](repeating: 0, count: 512)
    let outcome = "Accept: application/json".withCString { accept in
      let headers: [UnsafePointer<CChar>?] = [accept]
      return headers.withUnsafeBufferPointer { headers in
        locemu_libcurl_get(
          url.absoluteString, headers.baseAddress, headers.count, Int(max(1, (timeout * 1000).rounded())), cancelled,
          &status, &body, &code, &message, message.count)
      }
    }
    defer { locemu_libcurl_free_body(&body) }
    guard outcome == 0 else {
      let reason = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
      return .failure(.transport(Self.failure(code, reason), url: url))
    }
    return .success((status, body.bytes.map { Data(bytes: $0, count: body.count) } ?? Data()))
  }
}
