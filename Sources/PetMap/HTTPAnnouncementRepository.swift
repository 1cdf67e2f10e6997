public import Foundation
import Geo
import LocationServices

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Announcements from the backend: `GET {baseURL}/api/v1/announcements?lat=X&lng=Y&range=KM[&limit=N]`.
///
/// The answer is read with ``AnnouncementMapper`` (bad records dropped, `CLOSED` dropped), then
/// sorted newest first and cut to the query's limit, whatever order the server used.
public struct HTTPAnnouncementRepository: AnnouncementRepository {
  public var baseURL: URL
  /// Seconds a request may take before it fails.
  public var timeout: TimeInterval

  public init(baseURL: URL, timeout: TimeInterval = 10) {
    self.baseURL = baseURL
    self.timeout = timeout
  }

  /// The request URL for `query`.
  public func url(for query: AnnouncementListQuery) -> URL {
    var components = URLComponents(url: baseURL.appendingPathComponent("api/v1/announcements"), resolvingAgainstBaseURL: false)!
    var items: [URLQueryItem] = []
    if let location = query.location {
      items.append(URLQueryItem(name: "lat", value: String(location.latitude)))
      items.append(URLQueryItem(name: "lng", value: String(location.longitude)))
    }
    items.append(URLQueryItem(name: "range", value: String(query.range)))
    if let limit = query.limit { items.append(URLQueryItem(name: "limit", value: String(limit))) }
    components.queryItems = items
    return components.url!
  }

  public func announcements(for query: AnnouncementListQuery) async throws -> [Announcement] {
    var request = URLRequest(url: url(for: query), cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
    request.setValue("application/json", forHTTPHeaderField: "Accept")
    let (data, response) = try await Self.fetch(request)
    let status = (response as? HTTPURLResponse)?.statusCode ?? 0
    guard status == 200 else { throw AnnouncementError.httpStatus(status) }
    return query.ordered(try AnnouncementMapper.decode(data).announcements)
  }

  /// URLSession's error in words, with where it went (its own text on Linux is "NSURLErrorDomain error -1000").
  static func explain(_ error: NSError, _ url: URL?) -> String {
    let place = url.map { "\($0.host ?? "?")\($0.port.map { ":\($0)" } ?? "")" } ?? "the server"
    switch error.code {
    case NSURLErrorCancelled: return "cancelled"
    case NSURLErrorBadURL, NSURLErrorCannotConnectToHost: return "cannot connect to \(place) (is the server running?)"
    case NSURLErrorTimedOut: return "\(place) did not answer in time"
    case NSURLErrorCannotFindHost, NSURLErrorDNSLookupFailed: return "no such host: \(url?.host ?? "?")"
    case NSURLErrorNetworkConnectionLost: return "the connection to \(place) was lost"
    case NSURLErrorBadServerResponse: return "\(place) sent a bad HTTP response"
    case NSURLErrorUnsupportedURL: return "unsupported URL: \(url?.absoluteString ?? "?")"
    default: return "\(place): \(error.localizedDescription)"
    }
  }

  /// One request on the shared session; cancelling the calling task cancels it.
  private static func fetch(_ request: URLRequest) async throws -> (Data, URLResponse) {
    let box = TaskBox()
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<(Data, URLResponse), any Error>) in
        let task = URLSession.shared.dataTask(with: request) { data, response, error in
          if let data, let response {
            continuation.resume(returning: (data, response))
          } else {
            let reason = (error as NSError?).map { Self.explain($0, request.url) }
            continuation.resume(throwing: AnnouncementError.transport(reason ?? "no response"))
          }
        }
        box.start(task)
      }
    } onCancel: {
      box.cancel()
    }
  }
}

/// The data task of one request, cancellable from another thread before or after it starts.
private final class TaskBox: Sendable {
  private let state = Locked<(task: URLSessionDataTask?, cancelled: Bool)>((nil, false))

  func start(_ task: URLSessionDataTask) {
    let cancelled = state.withLock { s in
      s.task = task
      return s.cancelled
    }
    task.resume()
    if cancelled { task.cancel() }
  }

  func cancel() {
    let task = state.withLock { s in
      s.cancelled = true
      return s.task
    }
    task?.cancel()
  }
}
