public import LocationModel
/// Everything about location permission that the operating system decides for one app.
///
/// A test sets what a user or Settings sets (`appStatus`, `servicesEnabled`, `accuracy`, `app`,
/// `backgroundLocationUpdates`); what only the system's rules produce (an Allow Once grant, the
/// prompt on screen, an Always request made, a provisional Always) is read-only outside the
/// emulator, so no test can start a phone in a state iOS never reaches.
public struct PermissionState: Sendable, Hashable {
  /// What the user chose for this app (Settings or the prompt).
  public var appStatus: LocationPermissionStatus
  /// Location Services, system-wide.
  public var servicesEnabled: Bool
  /// Full or reduced (approximate) accuracy, as the user chose; reduced coarsens every fix.
  public var accuracy: LocationAccuracyAuthorization
  /// Whether the app is in the foreground or the background.
  public var app: AppState
  /// Whether `appStatus` came from "Allow Once" (and lapses when the app leaves the foreground).
  public internal(set) var grantedOnce: Bool
  /// Whether a permission prompt is on screen.
  public internal(set) var promptShown: Bool
  /// Whether the app asked for Always (`requestAlwaysAuthorization()`): further requests for
  /// it do nothing, as on iOS.
  public internal(set) var alwaysRequested: Bool
  /// Whether Always was granted provisionally (the user chose "Allow While Using App" on the
  /// prompt of a request for Always): the status reads `authorizedAlways` until the second
  /// prompt, shown when the app leaves the foreground, confirms it or changes it to when in use.
  public internal(set) var provisionalAlways: Bool
  /// Whether the app declared background location updates (iOS: the `location` background mode
  /// and `allowsBackgroundLocationUpdates`). Without it, an app authorized only when in use gets
  /// no locations while it is in the background; with Always it does either way.
  public var backgroundLocationUpdates: Bool

  /// A permission state as a user or Settings leaves it; no Allow Once grant, prompt, Always
  /// request or provisional Always.
  /// - Parameters:
  ///   - appStatus: what the user chose for the app.
  ///   - servicesEnabled: whether Location Services are on.
  ///   - accuracy: full or reduced accuracy.
  ///   - app: whether the app is in the foreground or the background.
  ///   - backgroundLocationUpdates: whether the app declared background location updates.
  public init(
    appStatus: LocationPermissionStatus = .notDetermined, servicesEnabled: Bool = true,
    accuracy: LocationAccuracyAuthorization = .full, app: AppState = .foreground,
    backgroundLocationUpdates: Bool = false
  ) {
    self.appStatus = appStatus
    self.servicesEnabled = servicesEnabled
    self.accuracy = accuracy
    self.app = app
    self.backgroundLocationUpdates = backgroundLocationUpdates
    grantedOnce = false
    promptShown = false
    alwaysRequested = false
    provisionalAlways = false
  }

  /// What the app reads: `denied` while Location Services are off, the app's own status otherwise.
  public var status: LocationPermissionStatus { servicesEnabled ? appStatus : .denied }

  /// Whether the app may receive locations now: authorized, with Location Services on, and in
  /// the foreground unless it holds Always or declared background location updates.
  public var isDelivering: Bool { unavailableReason == nil }

  /// Whether the app is authorized but kept from locations by being in the background.
  public var isHeldInBackground: Bool {
    app == .background && appStatus == .authorizedWhenInUse && !backgroundLocationUpdates
  }

  /// Why the app gets no location in this state; nil when it may get one.
  public var unavailableReason: LocationUnavailableReason? {
    if !servicesEnabled { return .servicesDisabled }
    switch appStatus {
    case .authorizedWhenInUse: return isHeldInBackground ? .inBackground : nil
    case .authorizedAlways: return nil
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

extension LocationRequestResult {
  /// No location, for `reason`, in `state`.
  public static func unavailable(_ reason: LocationUnavailableReason, in state: PermissionState) -> LocationRequestResult {
    LocationRequestResult(status: state.status, fix: nil, accuracy: state.accuracy, reason: reason)
  }
}
