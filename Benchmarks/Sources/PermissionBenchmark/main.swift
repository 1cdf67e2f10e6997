// Status-change fan-out benchmark (prints figures; run by scripts/bench-permissions.sh):
//
//   permission-benchmark [SUBSCRIBERS] [CHANGES]
//
// 1. Flood: CHANGES status changes applied back to back to a phone (real-time clock) whose
//    status stream has SUBSCRIBERS consumer tasks; prints changes/s applied, deliveries
//    (values the consumers took: a lagging consumer keeps only the newest status, so it takes
//    fewer than CHANGES) and deliveries/s, and the time until every consumer holds the final
//    status.
// 2. The same changes to SUBSCRIBERS synchronous observers (`EmulatedPhone.observe`): every
//    observer sees every change, in order.
// 3. Paced: one change every millisecond; the latency from a change to its delivery at each
//    consumer task (p50/p99/max), with no backlog.
import Emulator
import Geo
import Foundation
import Synchronization
import LocationModel

func percentile(_ sorted: [Double], _ p: Double) -> Double {
  sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
}

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let subscribers = arguments.first ?? 1000
let changes = arguments.dropFirst().first ?? 10_000

func seconds(_ d: Duration) -> Double { d / .seconds(1) }

/// A counter the consumer tasks share.
final class Counter: Sendable {
  private let count = Atomic<Int>(0)
  func add() { count.add(1, ordering: .relaxed) }
  var value: Int { count.load(ordering: .relaxed) }
}

// Each part runs in a nonisolated function: top-level code is on the main actor, and tasks made
// there would wait for it.

// 1. Flood through the phone's status stream, to consumer tasks.
func floodToConsumers(subscribers: Int, changes: Int) async {
  let phone = EmulatedPhone(.init(permission: PermissionState(appStatus: .denied)), clock: .realTime())
  let deliveries = Counter()
  let consumers = (0..<subscribers).map { _ in
    let stream = phone.statusUpdates()
    return Task.detached {
      for await status in stream {
        deliveries.add()
        if status == .authorizedAlways { break }
      }
    }
  }
  let start = ContinuousClock.now
  let applied = await Task.detached {
    for i in 0..<changes - 1 { phone.apply(.permission(i % 2 == 0 ? .authorizedWhenInUse : .denied)) }
    phone.apply(.permission(.authorizedAlways))
    return ContinuousClock.now
  }.value
  for c in consumers { await c.value }
  let done = ContinuousClock.now
  let delivered = deliveries.value
  print(
    String(
      format: "flood, %d status changes to %d consumer tasks: applied at %.0f changes/s; every consumer on the final status after %.3f s; "
        + "%d deliveries, %.0f deliveries/s; %d subscribers left",
      changes, subscribers, Double(changes) / seconds(applied - start), seconds(done - start), delivered,
      Double(delivered) / seconds(done - start), phone.subscriberCount))
  phone.shutdown()
}

// 2. The same to synchronous observers.
func floodToObservers(subscribers: Int, changes: Int) {
  let phone = EmulatedPhone(.init(permission: PermissionState(appStatus: .denied)), clock: .realTime())
  let deliveries = Atomic<Int>(0)
  let observations = (0..<subscribers).map { _ in
    phone.observe { event in
      if case .stateChanged = event { deliveries.add(1, ordering: .relaxed) }
    }
  }
  let start = ContinuousClock.now
  for i in 0..<changes - 1 { phone.apply(.permission(i % 2 == 0 ? .authorizedWhenInUse : .denied)) }
  phone.apply(.permission(.authorizedAlways))
  let elapsed = seconds(ContinuousClock.now - start)
  let delivered = deliveries.load(ordering: .relaxed)
  print(
    String(
      format: "flood, %d status changes to %d synchronous observers: %.0f changes/s, %d deliveries (all of them), %.0f deliveries/s",
      changes, subscribers, Double(changes) / elapsed, delivered, Double(delivered) / elapsed))
  for observation in observations { observation.cancel() }
  phone.shutdown()
}

// 3. Paced latency: one change every millisecond; each consumer measures from the newest change applied.
func paced(subscribers: Int, changes: Int) async throws {
  let phone = EmulatedPhone(.init(permission: PermissionState(appStatus: .denied)), clock: .realTime())
  let paced = min(changes, 2000)
  let latest = Locked<(index: Int, at: ContinuousClock.Instant)>((0, .now))
  let consumers = (0..<subscribers).map { _ in
    let stream = phone.statusUpdates()
    return Task.detached {
      var latencies: [Double] = []
      latencies.reserveCapacity(paced)
      var last = 0
      for await _ in stream {
        let now = ContinuousClock.now
        let (index, at) = latest.withLock { $0 }
        if index > last {
          latencies.append((now - at) / .milliseconds(1))
          last = index
        }
        if last == paced { break }
      }
      return latencies
    }
  }
  try await Task.sleep(for: .milliseconds(200))
  try await Task.detached {
    let start = ContinuousClock.now
    for i in 1...paced {
      try await Task.sleep(until: start + .milliseconds(i), clock: .continuous)
      latest.withLock { $0 = (i, .now) }
      phone.apply(.permission(i % 2 == 0 ? .denied : .authorizedWhenInUse))
    }
  }.value
  var all: [Double] = []
  for c in consumers { all += await c.value }
  all.sort()
  print(
    String(
      format: "paced: %d changes 1 ms apart to %d consumer tasks: %d deliveries, latency p50 %.3f ms, p99 %.3f ms, max %.3f ms",
      paced, subscribers, all.count, percentile(all, 0.5), percentile(all, 0.99), all.last ?? .nan))
  phone.shutdown()
}

await floodToConsumers(subscribers: subscribers, changes: changes)
floodToObservers(subscribers: subscribers, changes: changes)
try await paced(subscribers: subscribers, changes: changes)
