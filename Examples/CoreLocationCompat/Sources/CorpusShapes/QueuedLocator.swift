// Shape of piemonte/Position: an actor facade over a delegate object that does its work on a
// serial DispatchQueue of its own and calls back through DispatchQueue.main; the actor hands
// the answers to async callers through an AsyncStream and a continuation; the location helpers
// use simd vectors (`import simd`).
import CoreLocation
import Foundation
import simd

/// The delegate side: CLLocationManager's callbacks, moved to a request queue, then to the main queue.
final class QueuedLocationWorker: NSObject, CLLocationManagerDelegate, @unchecked Sendable {
  let manager = CLLocationManager()
  private let queue = DispatchQueue(label: "QueuedLocationWorker", target: .global())
  var onStatus: (@Sendable (CLAuthorizationStatus) -> Void)?
  private var pending: [(Result<CLLocation, Error>) -> Void] = []

  override init() {
    super.init()
    manager.delegate = self
    manager.desiredAccuracy = kCLLocationAccuracyBest
  }

  func requestWhenInUse() { manager.requestWhenInUseAuthorization() }

  func requestOne(_ completion: @escaping (Result<CLLocation, Error>) -> Void) {
    queue.async {
      self.pending.append(completion)
      self.manager.requestLocation()
    }
  }

  func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {
    queue.async {
      let status = self.manager.authorizationStatus
      DispatchQueue.main.async { self.onStatus?(status) }
    }
  }

  func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
    guard let location = locations.last else { return }
    queue.async {
      let waiting = self.pending
      self.pending = []
      DispatchQueue.main.async { for completion in waiting { completion(.success(location)) } }
    }
  }

  func locationManager(_ manager: CLLocationManager, didFailWithError error: Error) {
    queue.async {
      let waiting = self.pending
      self.pending = []
      DispatchQueue.main.async { for completion in waiting { completion(.failure(error)) } }
    }
  }
}

/// The facade apps call.
public actor QueuedLocator {
  private let worker = QueuedLocationWorker()
  private var statusContinuation: AsyncStream<CLAuthorizationStatus>.Continuation?

  public init() {
    worker.onStatus = { [weak self] status in
      Task { await self?.statusChanged(status) }
    }
  }

  private func statusChanged(_ status: CLAuthorizationStatus) { statusContinuation?.yield(status) }

  public var status: CLAuthorizationStatus { worker.manager.authorizationStatus }

  /// Asks, and returns the answer once the user gave one.
  public func requestWhenInUse() async -> CLAuthorizationStatus {
    let updates = AsyncStream<CLAuthorizationStatus> { statusContinuation = $0 }
    worker.requestWhenInUse()
    if status != .notDetermined { return status }
    for await status in updates where status != .notDetermined { return status }
    return status
  }

  /// One location.
  public func location() async throws -> CLLocation {
    try await withCheckedThrowingContinuation { continuation in
      worker.requestOne { continuation.resume(with: $0) }
    }
  }
}

extension CLLocation {
  /// Metres east, north and up from `origin`, on a flat Earth around it.
  public func translation(from origin: CLLocation) -> simd_double3 {
    let north = (coordinate.latitude - origin.coordinate.latitude) * 111_195.08
    let east = (coordinate.longitude - origin.coordinate.longitude) * 111_195.08 * cos(origin.coordinate.latitude * .pi / 180)
    return simd_double3(east, north, altitude - origin.altitude)
  }
}
