public import Foundation

/// The error domain of the location push service.
public let CLLocationPushServiceErrorDomain = "kCLLocationPushServiceErrorDomain"

/// Why the location push service could not start, with Apple's codes.
public struct CLLocationPushServiceError: CustomNSError, Hashable, Sendable {
  /// The error codes, with Apple's raw values.
  public enum Code: Int, Sendable {
    /// An unknown error.
    case unknown = 0
    /// The app has no location push service extension.
    case missingPushExtension = 1
    /// The app has no push server environment in its entitlements.
    case missingPushServerEnvironment = 2
    /// The app lacks the location push entitlement.
    case missingEntitlement = 3
    /// The platform does not support location pushes: always the error here.
    case unsupportedPlatform = 4
  }

  /// The error's code.
  public let code: Code

  /// Creates an error with `code`.
  ///
  /// - Parameter code: The error's code.
  public init(_ code: Code) { self.code = code }

  /// The domain of these errors: ``CLLocationPushServiceErrorDomain``.
  public static var errorDomain: String { CLLocationPushServiceErrorDomain }
  /// The code's raw value, as `NSError`'s code.
  public var errorCode: Int { code.rawValue }

  /// The code `Code.unknown`, for `catch CLLocationPushServiceError.unknown`.
  public static var unknown: Code { .unknown }
  /// The code `Code.missingPushExtension`, for `catch CLLocationPushServiceError.missingPushExtension`.
  public static var missingPushExtension: Code { .missingPushExtension }
  /// The code `Code.missingPushServerEnvironment`, for `catch CLLocationPushServiceError.missingPushServerEnvironment`.
  public static var missingPushServerEnvironment: Code { .missingPushServerEnvironment }
  /// The code `Code.missingEntitlement`, for `catch CLLocationPushServiceError.missingEntitlement`.
  public static var missingEntitlement: Code { .missingEntitlement }
  /// The code `Code.unsupportedPlatform`, for `catch CLLocationPushServiceError.unsupportedPlatform`.
  public static var unsupportedPlatform: Code { .unsupportedPlatform }
}

/// `catch CLLocationPushServiceError.unsupportedPlatform`, as for Apple's bridged error codes.
public func ~= (code: CLLocationPushServiceError.Code, error: any Error) -> Bool {
  (error as? CLLocationPushServiceError)?.code == code
}

/// A location push service extension's entry points, with Apple's names: an app's extension
/// type conforms, and a test calls them as the system would.
public protocol CLLocationPushServiceExtension: NSObjectProtocol {
  /// Called with a location push's payload; the extension calls `completion` when it is done.
  ///
  /// - Parameters:
  ///   - payload: The push's payload.
  ///   - completion: The handler to call once the push is handled.
  func didReceiveLocationPushPayload(_ payload: [String: Any], completion: @escaping () -> Void)
  /// Called when the system is about to end the extension.
  func serviceExtensionWillTerminate()
}

extension CLLocationPushServiceExtension {
  /// By default, nothing.
  public func serviceExtensionWillTerminate() {}
}

extension CLLocationManager {
  /// Location pushes need Apple's push service and an extension: there is no such service here,
  /// so the completion gets no token and `CLLocationPushServiceError.unsupportedPlatform`.
  @preconcurrency
  public func startMonitoringLocationPushes(completion: (@Sendable (Data?, (any Error)?) -> Void)?) {
    completion?(nil, CLLocationPushServiceError(.unsupportedPlatform))
  }

  /// The async form: throws `CLLocationPushServiceError.unsupportedPlatform` (see above).
  public func startMonitoringLocationPushes() async throws -> Data {
    throw CLLocationPushServiceError(.unsupportedPlatform)
  }

  /// Nothing: location pushes never start here.
  public func stopMonitoringLocationPushes() {}
}
