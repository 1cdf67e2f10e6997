public import Foundation

/// The error domain of the location push service.
public let CLLocationPushServiceErrorDomain = "kCLLocationPushServiceErrorDomain"

/// Why the location push service could not start, with Apple's codes.
public struct CLLocationPushServiceError: CustomNSError, Hashable, Sendable {
  public enum Code: Int, Sendable {
    case unknown = 0
    case missingPushExtension = 1
    case missingPushServerEnvironment = 2
    case missingEntitlement = 3
    case unsupportedPlatform = 4
  }

  public let code: Code

  public init(_ code: Code) { self.code = code }

  public static var errorDomain: String { CLLocationPushServiceErrorDomain }
  public var errorCode: Int { code.rawValue }

  public static var unknown: Code { .unknown }
  public static var missingPushExtension: Code { .missingPushExtension }
  public static var missingPushServerEnvironment: Code { .missingPushServerEnvironment }
  public static var missingEntitlement: Code { .missingEntitlement }
  public static var unsupportedPlatform: Code { .unsupportedPlatform }
}

/// `catch CLLocationPushServiceError.unsupportedPlatform`, as for Apple's bridged error codes.
public func ~= (code: CLLocationPushServiceError.Code, error: any Error) -> Bool {
  (error as? CLLocationPushServiceError)?.code == code
}

/// A location push service extension's entry points, with Apple's names: an app's extension
/// type conforms, and a test calls them as the system would.
public protocol CLLocationPushServiceExtension: NSObjectProtocol {
  func didReceiveLocationPushPayload(_ payload: [String: Any], completion: @escaping () -> Void)
  func serviceExtensionWillTerminate()
}

extension CLLocationPushServiceExtension {
  public func serviceExtensionWillTerminate() {}
}

extension CLLocationManager {
  /// Location pushes need Apple's push service and an extension: there is no such service here,
  /// so the completion gets no token and `CLLocationPushServiceError.unsupportedPlatform`.
  public func startMonitoringLocationPushes(completion: (@Sendable (Data?, (any Error)?) -> Void)?) {
    completion?(nil, CLLocationPushServiceError(.unsupportedPlatform))
  }

  /// The async form: throws `CLLocationPushServiceError.unsupportedPlatform` (see above).
  public func startMonitoringLocationPushes() async throws -> Data {
    throw CLLocationPushServiceError(.unsupportedPlatform)
  }

  public func stopMonitoringLocationPushes() {}
}
