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

  /// The domain of these errors: ``kCLErrorDomain``.
  public static var errorDomain: String { kCLErrorDomain }
  public static var _nsErrorDomain: String { kCLErrorDomain }

  /// The error codes, with Apple's raw values.
  public enum Code: Int, _ErrorCodeProtocol, Sendable {
    public typealias _ErrorType = CLError

    /// The location is not known yet; location services keep trying.
    case locationUnknown = 0
    /// The app is not authorized to use location services.
    case denied = 1
    /// The network was unavailable or a network error occurred.
    case network = 2
    /// The heading could not be determined.
    case headingFailure = 3
    /// The app is not authorized to monitor regions.
    case regionMonitoringDenied = 4
    /// A region could not be monitored.
    case regionMonitoringFailure = 5
    /// Region monitoring could not be set up at once.
    case regionMonitoringSetupDelayed = 6
    /// Region events may be delivered late; see `alternateRegion`.
    case regionMonitoringResponseDelayed = 7
    /// A geocoding request found no result.
    case geocodeFoundNoResult = 8
    /// A geocoding request found only part of a result.
    case geocodeFoundPartialResult = 9
    /// A geocoding request was cancelled.
    case geocodeCanceled = 10
    /// Deferred location updates failed.
    case deferredFailed = 11
    /// Deferred updates need location updates to be running.
    case deferredNotUpdatingLocation = 12
    /// Deferred updates need a finer desired accuracy.
    case deferredAccuracyTooLow = 13
    /// Deferred updates need the distance filter to be off.
    case deferredDistanceFiltered = 14
    /// Deferred updates were cancelled.
    case deferredCanceled = 15
    /// Beacon ranging is unavailable.
    case rangingUnavailable = 16
    /// Beacon ranging failed.
    case rangingFailure = 17
    /// The user declined a prompt, such as for temporary full accuracy.
    case promptDeclined = 18
    /// Historical locations could not be delivered.
    case historicalLocationError = 19
  }

  /// The code `Code.locationUnknown`, for `catch CLError.locationUnknown`.
  public static var locationUnknown: Code { .locationUnknown }
  /// The code `Code.denied`, for `catch CLError.denied`.
  public static var denied: Code { .denied }
  /// The code `Code.network`, for `catch CLError.network`.
  public static var network: Code { .network }
  /// The code `Code.headingFailure`, for `catch CLError.headingFailure`.
  public static var headingFailure: Code { .headingFailure }
  /// The code `Code.regionMonitoringDenied`, for `catch CLError.regionMonitoringDenied`.
  public static var regionMonitoringDenied: Code { .regionMonitoringDenied }
  /// The code `Code.regionMonitoringFailure`, for `catch CLError.regionMonitoringFailure`.
  public static var regionMonitoringFailure: Code { .regionMonitoringFailure }
  /// The code `Code.regionMonitoringSetupDelayed`, for `catch CLError.regionMonitoringSetupDelayed`.
  public static var regionMonitoringSetupDelayed: Code { .regionMonitoringSetupDelayed }
  /// The code `Code.regionMonitoringResponseDelayed`, for `catch CLError.regionMonitoringResponseDelayed`.
  public static var regionMonitoringResponseDelayed: Code { .regionMonitoringResponseDelayed }
  /// The code `Code.geocodeFoundNoResult`, for `catch CLError.geocodeFoundNoResult`.
  public static var geocodeFoundNoResult: Code { .geocodeFoundNoResult }
  /// The code `Code.geocodeFoundPartialResult`, for `catch CLError.geocodeFoundPartialResult`.
  public static var geocodeFoundPartialResult: Code { .geocodeFoundPartialResult }
  /// The code `Code.geocodeCanceled`, for `catch CLError.geocodeCanceled`.
  public static var geocodeCanceled: Code { .geocodeCanceled }
  /// The code `Code.deferredFailed`, for `catch CLError.deferredFailed`.
  public static var deferredFailed: Code { .deferredFailed }
  /// The code `Code.deferredNotUpdatingLocation`, for `catch CLError.deferredNotUpdatingLocation`.
  public static var deferredNotUpdatingLocation: Code { .deferredNotUpdatingLocation }
  /// The code `Code.deferredAccuracyTooLow`, for `catch CLError.deferredAccuracyTooLow`.
  public static var deferredAccuracyTooLow: Code { .deferredAccuracyTooLow }
  /// The code `Code.deferredDistanceFiltered`, for `catch CLError.deferredDistanceFiltered`.
  public static var deferredDistanceFiltered: Code { .deferredDistanceFiltered }
  /// The code `Code.deferredCanceled`, for `catch CLError.deferredCanceled`.
  public static var deferredCanceled: Code { .deferredCanceled }
  /// The code `Code.rangingUnavailable`, for `catch CLError.rangingUnavailable`.
  public static var rangingUnavailable: Code { .rangingUnavailable }
  /// The code `Code.rangingFailure`, for `catch CLError.rangingFailure`.
  public static var rangingFailure: Code { .rangingFailure }
  /// The code `Code.promptDeclined`, for `catch CLError.promptDeclined`.
  public static var promptDeclined: Code { .promptDeclined }
  /// The code `Code.historicalLocationError`, for `catch CLError.historicalLocationError`.
  public static var historicalLocationError: Code { .historicalLocationError }
}

extension CLError {
  /// In a `regionMonitoringResponseDelayed` error, a region that location services can monitor
  /// more effectively.
  public var alternateRegion: CLRegion? { userInfo[kCLErrorUserInfoAlternateRegionKey] as? CLRegion }
}
