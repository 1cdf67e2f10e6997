/// Everything about location permission that the operating system decides for one app.
public struct PermissionState: Sendable, Hashable {
  /// What the user chose for this app (Settings or the prompt).
  public var appStatus: LocationPermissionStatus
  /// Location Services, system-wide.
  public var servicesEnabled: Bool
  public var accuracy: LocationAccuracyAuthorization
  public var app: AppState
  /// Whether `appStatus` came from "Allow Once" (and lapses when the app leaves the foreground).
  public var grantedOnce: Bool
  /// Whether a permission prompt is on screen.
  public var promptShown: Bool

  public init(
    appStatus: LocationPermissionStatus = .notDetermined, servicesEnabled: Bool = true,
    accuracy: LocationAccuracyAuthorization = .full, app: AppState = .foreground
  ) {
    self.appStatus = appStatus
    self.servicesEnabled = servicesEnabled
    self.accuracy = accuracy
    self.app = app
    grantedOnce = false
    promptShown = false
  }

  /// What the app reads: `denied` while Location Services are off, the app's own status otherwise.
  public var status: LocationPermissionStatus { servicesEnabled ? appStatus : .denied }

  /// Whether the app may receive locations now: authorized, with Location Services on.
  public var isDelivering: Bool { servicesEnabled && appStatus.isAuthorized }

  /// Why the app gets no location in this state; nil when it may get one.
  public var unavailableReason: LocationUnavailableReason? {
    if !servicesEnabled { return .servicesDisabled }
    switch appStatus {
    case .authorizedWhenInUse, .authorizedAlways: return nil
    case .denied: return .denied
    case .restricted: return .restricted
    case .notDetermined: return .notDetermined
    }
  }
}

/// Something the emulated operating system did about permission, for transcripts and observers.
public enum PermissionEvent: Sendable, Hashable {
  /// A prompt appeared; the scripted user will answer `answer` after `delay` (never, for `.none`).
  case promptShown(answer: PromptAnswer, delay: Duration)
  /// The user answered; the app's status is now `status`.
  case promptAnswered(PromptAnswer, status: LocationPermissionStatus)
  /// The prompt went away unanswered (status changed in Settings, services off).
  case promptDismissed(status: LocationPermissionStatus)
  /// "Allow Once" lapsed because the app left the foreground.
  case allowOnceExpired
}
