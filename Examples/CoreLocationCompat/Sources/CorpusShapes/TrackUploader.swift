// Shape of calm-geo's network layer: a file that imports Combine and Foundation (nothing else)
// and builds URLRequests for an upload, as Foundation lets it on Apple platforms.
import Combine
import Foundation

public enum UploadMethod: String, Codable, CaseIterable {
  case POST
  case PUT
}

public struct TrackUploader {
  public let endpoint: String

  public init(endpoint: String) { self.endpoint = endpoint }

  /// The request for an upload, or nil for an endpoint that is not a URL.
  public func request(method: UploadMethod, headers: [String: String]?) -> URLRequest? {
    guard let url = URL(string: endpoint), url.scheme != nil else { return nil }
    var request = URLRequest(url: url)
    request.httpMethod = method.rawValue
    headers?.forEach { request.setValue($1, forHTTPHeaderField: $0) }
    return request
  }

  /// A publisher of the upload's progress in words, as the tracker shows it.
  public func statusPublisher(of request: URLRequest) -> AnyPublisher<String, Never> {
    Just("\(request.httpMethod ?? "GET") \(request.url?.host ?? "?")").eraseToAnyPublisher()
  }
}
