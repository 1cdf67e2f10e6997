public import Foundation

/// The domain of MapKit's errors.
public let MKErrorDomain = "MKErrorDomain"

/// A MapKit error, bridged to `NSError` in ``MKErrorDomain`` as on Apple platforms:
/// `catch MKError.serverFailure`, `error as? MKError` work.
public struct MKError: _BridgedStoredNSError {
  public let _nsError: NSError

  public init(_nsError error: NSError) {
    precondition(error.domain == MKErrorDomain, "an MKError's domain is MKErrorDomain")
    _nsError = error
  }

  public static var errorDomain: String { MKErrorDomain }
  public static var _nsErrorDomain: String { MKErrorDomain }

  /// The error codes, with Apple's raw values.
  public enum Code: UInt, _ErrorCodeProtocol, Sendable {
    public typealias _ErrorType = MKError
    case unknown = 1
    case serverFailure = 2
    case loadingThrottled = 3
    case placemarkNotFound = 4
    case directionsNotFound = 5
    case decodingFailed = 6
  }

  public static var unknown: Code { .unknown }
  public static var serverFailure: Code { .serverFailure }
  public static var loadingThrottled: Code { .loadingThrottled }
  public static var placemarkNotFound: Code { .placemarkNotFound }
  public static var directionsNotFound: Code { .directionsNotFound }
  public static var decodingFailed: Code { .decodingFailed }
}
