import CoreLocation
import Foundation
import Geo
import LocationModel
import Synchronization
import TestSupport

/// A delegate that writes down what it is told, in order, as a test reads it back.
final class DelegateRecorder: NSObject, CLLocationManagerDelegate, Sendable {
  private let log = Locked<[String]>([])
  private let received = Locked<[CLLocation]>([])
  private let errors = Locked<[CLError.Code]>([])
  private let onMain = Locked<[Bool]>([])

  /// Everything told so far, as "auth notDetermined full", "locations 2", "error denied", …
  var events: [String] { log.withLock { $0 } }
  var locations: [CLLocation] { received.withLock { $0 } }
  var errorCodes: [CLError.Code] { errors.withLock { $0 } }
  /// Whether each call ran on the main thread.
  var calledOnMainThread: [Bool] { onMain.withLock { $0 } }

  func clear() { log.withLock { $0.removeAll() } }

  private func note(_ event: String) {
    onMain.withLock { $0.append(isOnMainQueue) }
    log.withLock { $0.append(event) }
  }

  func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {
    note("auth \(manager.authorizationStatus.name) \(manager.accuracyAuthorization == .fullAccuracy ? "full" : "reduced")")
  }
  func locationManager(_ manager: CLLocationManager, didChangeAuthorization status: CLAuthorizationStatus) {}
  func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
    received.withLock { $0 += locations }
    note("locations \(locations.count)")
  }
  func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error) {
    if let error = error as? CLError { errors.withLock { $0.append(error.code) } }
    note("error \((error as? CLError)?.code.name ?? "\(error)")")
  }
  func locationManagerDidPauseLocationUpdates(_ manager: CLLocationManager) { note("paused") }
  func locationManagerDidResumeLocationUpdates(_ manager: CLLocationManager) { note("resumed") }
  func locationManager(_ manager: CLLocationManager, didEnterRegion region: CLRegion) { note("enter \(region.identifier)") }
  func locationManager(_ manager: CLLocationManager, didExitRegion region: CLRegion) { note("exit \(region.identifier)") }
  func locationManager(_ manager: CLLocationManager, didDetermineState state: CLRegionState, for region: CLRegion) {
    note("state \(region.identifier) \(state == .inside ? "inside" : state == .outside ? "outside" : "unknown")")
  }
  func locationManager(_ manager: CLLocationManager, didStartMonitoringFor region: CLRegion) { note("monitoring \(region.identifier)") }
  func locationManager(_ manager: CLLocationManager, monitoringDidFailFor region: CLRegion?, withError error: any Error) {
    note("monitoring failed \(region?.identifier ?? "-") \((error as? CLError)?.code.name ?? "\(error)")")
  }
  func locationManager(_ manager: CLLocationManager, didVisit visit: CLVisit) {
    note(visit.departureDate == .distantFuture ? "arrived" : "departed")
  }
}

extension CLAuthorizationStatus {
  var name: String {
    switch self {
    case .notDetermined: "notDetermined"
    case .restricted: "restricted"
    case .denied: "denied"
    case .authorizedAlways: "always"
    case .authorizedWhenInUse: "whenInUse"
    }
  }
}

extension CLError.Code {
  var name: String { "\(self)" }
}
