import Emulator
import Foundation
import GNSSReceiver
import Geo
import Hummingbird
import LocationEmulatorClient
import Logging
import NIOCore
import PermissionHandling
import Scenarios
import MapRendering
import Basemap
import Traces
import ServiceLifecycle
import UnixSignals
import NIOPosix
import LocationModel

#if canImport(Glibc)
  import Glibc
#endif

// The server's trace directory and its virtual clock.
extension PhoneServer {
  func clockRoutes(_ body: JSONBody) -> RouteCollection<BasicRequestContext> {
    let routes = RouteCollection(context: BasicRequestContext.self)
    let hub = self.hub, traces = self.traces
    routes.get("traces") { _, _ in
      let names = try await NIOThreadPool.singleton.runIfActive { traces.names() }
      return Self.json(Wire.TraceList(directory: traces.directory != nil, maxBytes: traces.maxBytes, names: names))
    }
    routes.get("clock") { _, _ in
      Self.json(Wire.Clock(virtual: hub.clock.isVirtual, elapsed: hub.elapsed.seconds))
    }
    routes.post("clock/advance") { request, _ in
      try await Self.guarded {
        guard hub.clock.isVirtual else { throw APIError.conflict("the clock is real time: start the server with --virtual-time") }
        let seconds = try await body(request, as: Wire.ClockAdvance.self).seconds
        guard seconds.isFinite, seconds >= 0, seconds <= 864_000 else { throw APIError.bad("give \"seconds\": 0 to 864000") }
        do {
          try await hub.advance(by: .milliseconds(Int64((seconds * 1000).rounded())))
        } catch {
          throw APIError.conflict("\(error)")
        }
        return Self.json(Wire.Clock(virtual: true, elapsed: hub.elapsed.seconds))
      }
    }
    return routes
  }
}
