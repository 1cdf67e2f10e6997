// Status-change fan-out benchmark (prints figures; run by tools/bench-permissions.sh):
//
//   permission-benchmark [SUBSCRIBERS] [CHANGES]
//
// 1. Flood: CHANGES status changes published back to back through a PermissionEmulator
//    to SUBSCRIBERS subscribers; prints changes/s published and deliveries/s (a lagging
//    subscriber keeps only the newest value, so it receives fewer than CHANGES).
// 2. Paced: one change every millisecond; prints the latency from a change to its delivery
//    at each subscriber (p50/p99/max), with no backlog.
import Emulator
import Foundation
import Synchronization

func percentile(_ sorted: [Double], _ p: Double) -> Double {
  sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
}

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let subscribers = arguments.first ?? 1000
let changes = arguments.dropFirst().first ?? 10_000

struct Stamped: Sendable, Equatable {
  var sequence: Int
  var at: ContinuousClock.Instant
}

// 1. Flood, through the emulator's own status stream.
do {
  let os = PermissionEmulator(initial: PermissionState(appStatus: .denied), clock: ContinuousClock())
  let deliveries = Atomic<Int>(0)
  let consumers = (0..<subscribers).map { _ in
    let stream = os.statusUpdates()
    return Task {
      for await status in stream {
        deliveries.add(1, ordering: .relaxed)
        if status == .authorizedAlways { break }
      }
    }
  }
  let start = ContinuousClock.now
  for i in 0..<changes - 1 { await os.setAuthorization(i % 2 == 0 ? .authorizedWhenInUse : .denied) }
  await os.setAuthorization(.authorizedAlways)
  let published = ContinuousClock.now
  for c in consumers { await c.value }
  let done = ContinuousClock.now
  let publishSeconds = (published - start) / .seconds(1)
  let allSeconds = (done - start) / .seconds(1)
  print(String(format: "flood, through the emulator: %d changes to %d subscribers: published at %.0f changes/s; all subscribers on the final status after %.3f s; %d deliveries (%.0f/s)",
    changes, subscribers, Double(changes) / publishSeconds, allSeconds, deliveries.load(ordering: .relaxed),
    Double(deliveries.load(ordering: .relaxed)) / allSeconds))
}

// 1b. Flood straight into a Broadcaster from one thread (no actor hop per change).
do {
  let broadcaster = Broadcaster(0)
  let deliveries = Atomic<Int>(0)
  let consumers = (0..<subscribers).map { _ in
    let stream = broadcaster.subscribe()
    return Task {
      for await value in stream {
        deliveries.add(1, ordering: .relaxed)
        if value == changes { break }
      }
    }
  }
  let start = ContinuousClock.now
  for value in 1...changes { broadcaster.publish(value) }
  let published = ContinuousClock.now
  for c in consumers { await c.value }
  let done = ContinuousClock.now
  print(String(format: "flood, Broadcaster direct: %d changes to %d subscribers: published at %.0f changes/s; all on the final value after %.3f s; %d deliveries",
    changes, subscribers, Double(changes) / ((published - start) / .seconds(1)), (done - start) / .seconds(1),
    deliveries.load(ordering: .relaxed)))
}

// 2. Paced latency, through a Broadcaster of stamped values (the emulator's fan-out primitive).
do {
  let broadcaster = Broadcaster(Stamped(sequence: 0, at: .now))
  let paced = min(changes, 2000)
  let consumers = (0..<subscribers).map { _ in
    let stream = broadcaster.subscribe()
    return Task {
      var latencies: [Double] = []
      latencies.reserveCapacity(paced)
      for await value in stream {
        if value.sequence > 0 { latencies.append((ContinuousClock.now - value.at) / .milliseconds(1)) }
        if value.sequence == paced { break }
      }
      return latencies
    }
  }
  try await Task.sleep(for: .milliseconds(200))
  let start = ContinuousClock.now
  for i in 1...paced {
    try await Task.sleep(until: start + .milliseconds(i), clock: .continuous)
    broadcaster.publish(Stamped(sequence: i, at: .now))
  }
  var all: [Double] = []
  for c in consumers { all += await c.value }
  all.sort()
  print(String(format: "paced: %d changes 1 ms apart to %d subscribers: %d deliveries, latency p50 %.3f ms, p99 %.3f ms, max %.3f ms",
    paced, subscribers, all.count, percentile(all, 0.5), percentile(all, 0.99), all.last ?? .nan))
}
