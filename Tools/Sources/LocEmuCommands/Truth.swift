import Emulator
import Foundation
import GPSD
import Geo
import LocationModel
import PhoneSources
import Traces

/// Where the device really is, for every command that moves one: a point, a route walked at a
/// speed, a trace replayed, or a live gpsd.
///
/// The one place the commands turn their truth options into a ``PhoneSource``: the scenario
/// commands (`permissions`, `preview`, `serve`) give it to a phone; `simulate` steps its timeline
/// itself (``PhoneSource/makeTimeline(startDate:)``), each fix through a seeded receiver.
enum Truth {
  /// Standing at a point (altitude above sea level, metres; accuracy, metres).
  case fixed(Coordinate, altitude: Double?, horizontalAccuracy: Double?)
  /// Walking waypoints at `speed` metres per second.
  case route([Coordinate], speed: Double)
  /// A trace file replayed.
  case trace(Trace, ReplayOptions)
  /// A live gpsd.
  case gpsd(GPSDSource.Configuration)

  /// The truth as a phone's source.
  /// - Parameter interval: between the fixes of a point or a route.
  /// - Throws: ``CommandFailure`` (status 64) for a route of more than ``RouteWalk/maxFixes`` fixes.
  func source(interval: Duration = .seconds(1)) throws -> PhoneSource {
    switch self {
    case .fixed(let coordinate, let altitude, let accuracy):
      return .fixed(coordinate, horizontalAccuracy: accuracy, altitude: altitude, interval: interval)
    case .route(let waypoints, let speed):
      guard let source = PhoneSource.route(waypoints, speed: speed, interval: interval) else {
        throw CommandFailure("--route is longer than \(RouteWalk.maxFixes) epochs: raise --mps or lower --rate", status: 64)
      }
      return source
    case .trace(let trace, let options):
      return .trace(trace, options: options)
    case .gpsd(let configuration):
      return .live(GPSDSource(configuration: configuration))
    }
  }
}
