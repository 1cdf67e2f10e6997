package import Emulator
import Foundation
import Geo
import LocationServices
import ServiceLifecycle
import Traces

/// One phone as a GPS receiver on a TCP port (`locemu serve --nmea-listen`): every fix its
/// source reports — set, walked on a route, played from a trace, read from gpsd — goes out as a
/// receiver's epoch (GGA, GSA, GSV, RMC, VTG) to every client, when it happens on the phone's
/// clock. Between fixes the receiver keeps talking once a second, as a real one does: the last
/// position again while it holds a fix, empty sentences (no fix) while the fix is lost (from the
/// next second on) or before the first one. So `gpsd -N -n tcp://HOST:PORT` sees the emulated phone.
///
/// A service: ``bind(phone:host:port:log:)`` takes the port, ``run()`` reports and serves
/// clients until graceful shutdown or cancellation, and leaves no observer, timer or client.
package final class PhoneNMEAFeed: Service, Sendable {
  /// The phone's receiver reports at least this often.
  package static let interval = Duration.seconds(1)

  package let phone: EmulatedPhone
  private let broadcaster: NMEABroadcaster
  private let state = Locked<State>(State())

  private struct State {
    var last: LocationFix?
    var lastSent: EmulatorClock.Instant?
    var timer: EmulatorClock.Timer?
    var observation: PhoneObservation?
    var stopped = false
  }

  /// The port clients connect to.
  package var port: Int { broadcaster.port }
  /// Clients connected now.
  package var clientCount: Int { broadcaster.clientCount }

  private init(phone: EmulatedPhone, broadcaster: NMEABroadcaster) {
    self.phone = phone
    self.broadcaster = broadcaster
  }

  /// Binds `host:port` for `phone`'s receiver (nothing is reported before ``run()``).
  /// - Throws: ``PhoneServerError`` when the address cannot be bound.
  package static func bind(
    phone: EmulatedPhone, host: String, port: Int, log: @escaping @Sendable (String) -> Void = { _ in }
  )
    async throws -> PhoneNMEAFeed
  {
    PhoneNMEAFeed(phone: phone, broadcaster: NMEABroadcaster(server: try await NMEATCPServer.bind(host: host, port: port), log: log))
  }

  /// Reports the phone's fixes and serves clients until graceful shutdown or cancellation;
  /// then stops reporting and closes every client and the port.
  package func run() async throws {
    // A lost fix shows in the next second's epoch, as a receiver's would (not in a second
    // epoch with the time of the last one).
    let observation = phone.observe(.sourceFix) { [weak self] event in
      if case .sourceFix(let fix) = event { self?.report(fix) }
    }
    state.withLock {
      $0.observation = observation
      $0.stopped = false
    }
    report(nil)
    defer { stopReporting() }
    let broadcaster = self.broadcaster
    try await cancelWhenGracefulShutdown { try await broadcaster.run() }
  }

  /// Sends an epoch now — `fix` (nil: the last one again) or no fix while the phone's fix is
  /// lost — and moves the next heartbeat to one interval from now.
  private func report(_ fix: LocationFix?) {
    let clock = phone.clock
    let now = clock.now
    let lost = phone.isFixLost
    let date = phone.date
    let epoch = state.withLock { s -> LocationFix? in
      guard !s.stopped else { return nil }
      if let fix { s.last = fix }
      s.lastSent = now
      if let timer = s.timer { clock.cancel(timer) }
      s.timer = clock.schedule(at: now.advanced(by: Self.interval)) { [weak self] in self?.report(nil) }
      var out = lost ? nil : s.last
      if out?.hasFix != true { out = LocationFix(mode: .noFix) }
      // A held fix is repeated at the time it is sent.
      if fix == nil || out?.timestamp == nil { out?.timestamp = date }
      return out
    }
    guard let epoch else { return }
    broadcaster.send(NMEAWriter.receiverEpoch(for: epoch).map { $0 + "\r\n" }.joined())
  }

  private func stopReporting() {
    let (timer, observation) = state.withLock { s -> (EmulatorClock.Timer?, PhoneObservation?) in
      s.stopped = true
      defer {
        s.timer = nil
        s.observation = nil
      }
      return (s.timer, s.observation)
    }
    observation?.cancel()
    if let timer { phone.clock.cancel(timer) }
  }
}
