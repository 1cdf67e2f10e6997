import CoreLocation
import Foundation
import Observation

/// A walk recorder on iOS 17's live updates: an @Observable model that a view shows, fed by a
/// task over `CLLocationUpdate.liveUpdates`, holding a service session while it records.
@MainActor
@Observable
public final class WalkTracker {
  public private(set) var points: [CLLocationCoordinate2D] = []
  public private(set) var distance: CLLocationDistance = 0
  public private(set) var isStationary = false
  public private(set) var problem: String?
  private var last: CLLocation?
  private var task: Task<Void, Never>?
  private var session: CLServiceSession?

  public init() {}

  public var isRecording: Bool { task != nil }

  public func start() {
    guard task == nil else { return }
    session = CLServiceSession(authorization: .whenInUse)
    task = Task { [weak self] in
      do {
        for try await update in CLLocationUpdate.liveUpdates(.fitness) {
          guard let self else { return }
          if update.authorizationDenied {
            self.problem = "denied"
          } else if update.locationUnavailable {
            self.problem = "unavailable"
          }
          self.isStationary = update.stationary
          guard let location = update.location else { continue }
          self.problem = nil
          if let last = self.last { self.distance += location.distance(from: last) }
          self.last = location
          self.points.append(location.coordinate)
        }
      } catch {
        self?.problem = "\(error)"
      }
    }
  }

  public func stop() {
    task?.cancel()
    task = nil
    session?.invalidate()
    session = nil
  }
}
