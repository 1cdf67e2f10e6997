public import Foundation
import Geo
public import PetMap

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Announcements from the backend over URLSession, as the iOS app fetches them:
/// `GET {baseURL}/api/v1/announcements?lat=X&lng=Y&range=KM[&limit=N]`, http:// or https://.
///
/// The answer is read as `AnnouncementListQuery.announcements(status:body:)` reads it
/// (`AnnouncementMapper`: bad records dropped, `CLOSED` dropped; newest first, cut to the
/// query's limit, whatever order the server used).
///
/// A module of its own, apart from PetMap: on Linux URLSession is FoundationNetworking over
/// libcurl, whose 35 libraries are loaded before `main` in every program that links it, and a
/// program that shows pins from a file (or fetches them otherwise, as `locemu` does) need not.
public struct HTTPAnnouncementRepository: AnnouncementRepository {
  public var baseURL: URL
  /// Seconds a request may take before it fails.
  public var timeout: TimeInterval

  public init(baseURL: URL, timeout: TimeInterval = 10) {
    self.baseURL = baseURL
    self.timeout = timeout
  }

  /// The request URL for `query`.
  public func url(for query: AnnouncementListQuery) -> URL { query.url(base: baseURL) }

  public func announcements(for query: AnnouncementListQuery) async throws -> [Announcement] {
    var request = URLRequest(url: url(for: query), cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
    request.setValue("application/json", forHTTPHeaderField: "Accept")
    let (data, response) = try await Self.fetch(request)
    return try query.announcements(status: (response as? HTTPURLResponse)?.statusCode ?? 0, body: data)
  }

  /// URLSession's error, said as `AnnouncementError.transport(_:url:)` says it.
  static func failure(_ error: NSError) -> AnnouncementError.Failure {
    switch error.code {
    case NSURLErrorCancelled: .cancelled
    case NSURLErrorBadURL, NSURLErrorCannotConnectToHost: .cannotConnect
    case NSURLErrorTimedOut: .timedOut
    case NSURLErrorCannotFindHost, NSURLErrorDNSLookupFailed: .noSuchHost
    case NSURLErrorNetworkConnectionLost: .connectionLost
    case NSURLErrorBadServerResponse: .badResponse
    case NSURLErrorUnsupportedURL: .unsupportedURL
    default: .other(error.localizedDescription)
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
            let failure = (error as NSError?).map { AnnouncementError.transport(Self.failure($0), url: request.url) }
            continuation.resume(throwing: failure ?? AnnouncementError.transport("no response"))
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
