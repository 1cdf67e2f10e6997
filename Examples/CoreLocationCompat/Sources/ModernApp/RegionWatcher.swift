import CoreLocation
import Foundation

/// Places the user arrives at and leaves, on iOS 17's CLMonitor.
public actor RegionWatcher {
  public private(set) var log: [String] = []
  private var monitor: CLMonitor?
  private var listening: Task<Void, Never>?

  public init() {}

  public func watch(_ places: [String: (CLLocationCoordinate2D, CLLocationDistance)]) async {
    let monitor = await CLMonitor("places")
    self.monitor = monitor
    for (id, place) in places.sorted(by: { $0.key < $1.key }) {
      await monitor.add(CLMonitor.CircularGeographicCondition(center: place.0, radius: place.1), identifier: id)
    }
    listening = Task {
      do {
        for try await event in monitor.events {
          switch event.state {
          case .satisfied: self.append("arrived \(event.identifier)")
          case .unsatisfied: self.append("left \(event.identifier)")
          default: break
          }
        }
      } catch {
        self.append("error \(error)")
      }
    }
  }

  public func stop() async {
    listening?.cancel()
    listening = nil
    if let monitor {
      for id in await monitor.identifiers { await monitor.remove(id) }
    }
  }

  private func append(_ line: String) { log.append(line) }
}
