public import Foundation

/// The domain of CoreLocation's errors.
public let kCLErrorDomain = "kCLErrorDomain"
/// In a `regionMonitoringResponseDelayed` error's user info: a region that can be monitored better.
public let kCLErrorUserInfoAlternateRegionKey = "kCLErrorUserInfoAlternateRegionKey"

/// A CoreLocation error, bridged to `NSError` in ``kCLErrorDomain`` as on Apple platforms (as
/// swift-corelibs-foundation bridges `URLError`): `catch CLError.denied`, `error as? CLError`,
/// `(error as NSError).code` all work.
public struct CLError: _BridgedStoredNSError {
  public let _nsError: NSError

  public init(_nsError error: NSError) {
    precondition(error.domain == kCLErrorDomain, "a CLError's domain is kCLErrorDomain")
    _nsError = error
  }

  public static var errorDomain: String { kCLErrorDomain }
  public static var _nsErrorDomain: String { kCLErrorDomain }

  /// The error codes, with Apple's raw values.
  public enum Code: Int, _ErrorCodeProtocol, Sendable {
    public typealias _ErrorType = CLError

    case locationUnknown = 0
    case denied = 1
    case network = 2
    case headingFailure = 3
    case regionMonitoringDenied = 4
    case regionMonitoringFailure = 5
    case regionMonitoringSetupDelayed = 6
    case regionMonitoringResponseDelayed = 7
    case geocodeFoundNoResult = 8
    case geocodeFoundPartialResult = 9
    case geocodeCanceled = 10
    case deferredFailed = 11
    case deferredNotUpdatingLocation = 12
    case deferredAccuracyTooLow = 13
    case deferredDistanceFiltered = 14
    case deferredCanceled = 15
    case rangingUnavailable = 16
    case rangingFailure = 17
    case promptDeclined = 18
    case historicalLocationError = 19
  }

  public static var locationUnknown: Code { .locationUnknown }
  public static var denied: Code { .denied }
  public static var network: Code { .network }
  public static var headingFailure: Code { .headingFailure }
  public static var regionMonitoringDenied: Code { .regionMonitoringDenied }
  public static var regionMonitoringFailure: Code { .regionMonitoringFailure }
  public static var regionMonitoringSetupDelayed: Code { .regionMonitoringSetupDelayed }
  public static var regionMonitoringResponseDelayed: Code { .regionMonitoringResponseDelayed }
  public static var geocodeFoundNoResult: Code { .geocodeFoundNoResult }
  public static var geocodeFoundPartialResult: Code { .geocodeFoundPartialResult }
  public static var geocodeCanceled: Code { .geocodeCanceled }
  public static var deferredFailed: Code { .deferredFailed }
  public static var deferredNotUpdatingLocation: Code { .deferredNotUpdatingLocation }
  public static var deferredAccuracyTooLow: Code { .deferredAccuracyTooLow }
  public static var deferredDistanceFiltered: Code { .deferredDistanceFiltered }
  public static var deferredCanceled: Code { .deferredCanceled }
  public static var rangingUnavailable: Code { .rangingUnavailable }
  public static var rangingFailure: Code { .rangingFailure }
  public static var promptDeclined: Code { .promptDeclined }
  public static var historicalLocationError: Code { .historicalLocationError }
}

extension CLError {
  /// In a `regionMonitoringResponseDelayed` error, a region that location services can monitor
  /// more effectively.
  public var alternateRegion: CLRegion? { userInfo[kCLErrorUserInfoAlternateRegionKey] as? CLRegion }
}
