import CoreLocation
import Foundation

/// An app's location layer, kept in an Xcode project (no Package.swift).
final class LocationStore: NSObject, CLLocationManagerDelegate {
  private let manager = CLLocationManager()
  private(set) var status: CLAuthorizationStatus = .notDetermined

  override init() {
    super.init()
    manager.delegate = self
  }

  func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) { status = manager.authorizationStatus }
}
