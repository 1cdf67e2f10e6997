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

  /// The error domain: ``MKErrorDomain``.
  public static var errorDomain: String { MKErrorDomain }
  public static var _nsErrorDomain: String { MKErrorDomain }

  /// The error codes, with Apple's raw values.
  public enum Code: UInt, _ErrorCodeProtocol, Sendable {
    public typealias _ErrorType = MKError
    /// An error of no particular kind, such as a snapshot that cannot be drawn.
    case unknown = 1
    /// The map server failed. Never raised here: nothing goes to a server.
    case serverFailure = 2
    /// Too many requests in a short time. Never raised here.
    case loadingThrottled = 3
    /// A search found no place.
    case placemarkNotFound = 4
    /// No route joins the source and the destination.
    case directionsNotFound = 5
    /// Map data could not be decoded. Never raised here.
    case decodingFailed = 6
  }

  /// The code ``Code/unknown``, for `catch MKError.unknown`.
  public static var unknown: Code { .unknown }
  /// The code ``Code/serverFailure``, for `catch MKError.serverFailure`.
  public static var serverFailure: Code { .serverFailure }
  /// The code ``Code/loadingThrottled``, for `catch MKError.loadingThrottled`.
  public static var loadingThrottled: Code { .loadingThrottled }
  /// The code ``Code/placemarkNotFound``, for `catch MKError.placemarkNotFound`.
  public static var placemarkNotFound: Code { .placemarkNotFound }
  /// The code ``Code/directionsNotFound``, for `catch MKError.directionsNotFound`.
  public static var directionsNotFound: Code { .directionsNotFound }
  /// The code ``Code/decodingFailed``, for `catch MKError.decodingFailed`.
  public static var decodingFailed: Code { .decodingFailed }
}
