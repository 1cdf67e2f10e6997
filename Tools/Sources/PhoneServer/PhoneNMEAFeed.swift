package import Emulator
import Foundation
package import GNSSReceiver
import Geo
package import LocationModel
import ServiceLifecycle
import Traces

/// One phone as a GPS receiver on a TCP port (`locemu serve --nmea-listen`): every fix its
/// source reports — set, walked on a route, played from a trace, read from gpsd — goes out as a
/// receiver's epoch (GGA, GSA, GSV, RMC, VTG) to every client, when it happens on the phone's
/// clock. Between fixes the receiver keeps talking once a second, as a real one does: the last
/// position again while it holds a fix, empty sentences (no fix) while the fix is lost (from the
/// next second on) or before the first one. So `gpsd -N -n tcp://HOST:PORT` sees the emulated phone.
///
/// Under a realistic receiver (``ServedPhone/setRealism(_:)``) each epoch is the receiver's own,
/// from its ``ReceiverEpochLog``: GSA with its used set and DOPs, GSV with its sky and signals,
/// GST and GBS with its errors (so gpsd reports the receiver's error model), and no-fix epochs
/// with the satellites still in view while it acquires.
///
/// A service: ``bind(phone:epochs:host:port:log:clientCountChanged:)`` takes the port, ``run()`` reports and serves
/// clients until graceful shutdown or cancellation, and leaves no observer, timer or client.
package final class PhoneNMEAFeed: Service, Sendable {
  /// The phone's receiver reports at least this often.
  package static let interval = Duration.seconds(1)

  package let phone: EmulatedPhone
  private let epochs: ReceiverEpochLog?
  private let broadcaster: NMEABroadcaster
  private let state = Locked<State>(State())

  private struct State {
    var last: LocationFix?
    /// The realistic receiver's epoch of `last`, when it had one.
    var lastEpoch: ReceiverEpoch?
    var lastSent: EmulatorClock.Instant?
    var timer: EmulatorClock.Timer?
    var observation: PhoneObservation?
    var stopped = false
  }

  /// The port clients connect to.
  package var port: Int { broadcaster.port }
  /// Clients connected now.
  package var clientCount: Int { broadcaster.clientCount }

  private init(phone: EmulatedPhone, epochs: ReceiverEpochLog?, broadcaster: NMEABroadcaster) {
    self.phone = phone
    self.epochs = epochs
    self.broadcaster = broadcaster
  }

  /// Binds `host:port` for `phone`'s receiver (nothing is reported before ``run()``); `epochs`,
  /// where a realistic receiver's whole epochs are kept (a served phone's ``ServedPhone/receiverEpochs``);
  /// `clientCountChanged`: the number of clients each time it changes (see ``NMEABroadcaster``).
  /// - Throws: ``PhoneServerError`` when the address cannot be bound.
  package static func bind(
    phone: EmulatedPhone, epochs: ReceiverEpochLog? = nil, host: String, port: Int, log: @escaping @Sendable (String) -> Void = { _ in },
    clientCountChanged: @escaping @Sendable (Int) -> Void = { _ in }
  )
    async throws -> PhoneNMEAFeed
  {
    PhoneNMEAFeed(
      phone: phone, epochs: epochs,
      broadcaster: NMEABroadcaster(
        server: try await NMEATCPServer.bind(host: host, port: port), log: log, clientCountChanged: clientCountChanged))
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
    let measured = fix.flatMap { epochs?.epoch(for: $0) }
    let sentences = state.withLock { s -> [String]? in
      guard !s.stopped else { return nil }
      if let fix {
        s.last = fix
        s.lastEpoch = measured
      }
      s.lastSent = now
      if let timer = s.timer { clock.cancel(timer) }
      s.timer = clock.schedule(at: now.advanced(by: Self.interval)) { [weak self] in self?.report(nil) }
      // The realistic receiver's own epoch, fix or not; its fix held while it lasts.
      if let measured { return measured.nmeaSentences }
      if fix == nil, !lost, var held = s.lastEpoch, held.fix.hasFix {
        held.fix.timestamp = date
        return held.nmeaSentences
      }
      var out = lost ? nil : s.last
      if out?.hasFix != true { out = LocationFix(mode: .noFix) }
      // A held fix is repeated at the time it is sent.
      if fix == nil || out?.timestamp == nil { out?.timestamp = date }
      return out.map { NMEAWriter.receiverEpoch(for: $0) }
    }
    guard let sentences else { return }
    broadcaster.send(sentences.map { $0 + "\r\n" }.joined())
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

/// A realistic receiver's latest whole epochs, by time: what ``PhoneNMEAFeed`` writes out for
/// the fixes the phone reports (the phone measures a fix before it delivers it, so a few are kept).
package final class ReceiverEpochLog: Sendable {
  private let recent = Locked<[ReceiverEpoch]>([])
  /// How many epochs are kept.
  package static let capacity = 8

  package init() {}

  /// Keeps `epoch` (a ``PhoneSource/realistic(_:receiver:epochs:)`` callback: short, no call out).
  package func record(_ epoch: ReceiverEpoch) {
    recent.withLock {
      if $0.count == Self.capacity { $0.removeFirst() }
      $0.append(epoch)
    }
  }

  /// The epoch the phone's source delivered as `fix`: the newest kept one of its time, else
  /// (a source paused and resumed stamps its fixes later by the pause, after the receiver
  /// measured them) the newest whose fix is `fix` but for its time, stamped as delivered.
  package func epoch(for fix: LocationFix) -> ReceiverEpoch? {
    guard let time = fix.timestamp else { return nil }
    return recent.withLock { recent in
      if let same = recent.last(where: { $0.fix.timestamp == time }) { return same }
      var untimed = fix
      untimed.timestamp = nil
      guard
        var moved = recent.last(where: {
          var kept = $0.fix
          kept.timestamp = nil
          return kept == untimed
        })
      else { return nil }
      moved.fix.timestamp = time
      return moved
    }
  }

  /// Forgets every epoch (a new source: its times may repeat the old one's).
  package func removeAll() { recent.withLock { $0.removeAll() } }
}
