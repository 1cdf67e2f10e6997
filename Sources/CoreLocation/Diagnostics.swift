import Emulator
import Foundation
import LocationModel

/// Why an app gets no (or only coarse) locations now, as iOS 18's diagnostics say it: the
/// flags of a live update, a service session's or a background activity session's diagnostic,
/// and a monitor's event, computed from the phone's permission state.
struct LocationDiagnostics: Hashable, Sendable {
  var authorizationDenied = false
  var authorizationDeniedGlobally = false
  var authorizationRestricted = false
  var authorizationRequestInProgress = false
  var insufficientlyInUse = false
  var locationUnavailable = false
  var accuracyLimited = false
  var serviceSessionRequired = false
  var fullAccuracyDenied = false
  var alwaysAuthorizationDenied = false

  init() {}

  /// The diagnostics of `state`; `fixLost` when the receiver has no fix.
  init(_ state: PermissionState, fixLost: Bool = false) {
    authorizationDeniedGlobally = !state.servicesEnabled
    authorizationDenied = !state.servicesEnabled || state.appStatus == .denied
    authorizationRestricted = state.appStatus == .restricted
    authorizationRequestInProgress = state.promptShown
    insufficientlyInUse = state.servicesEnabled && state.isHeldInBackground
    accuracyLimited = state.accuracy == .reduced
    locationUnavailable = fixLost && state.isDelivering
  }

  /// Whether a location cannot come because of them (accuracy only makes locations coarse).
  var withholdsLocations: Bool {
    authorizationDenied || authorizationRestricted || authorizationRequestInProgress || insufficientlyInUse || locationUnavailable
      || serviceSessionRequired
  }
}
