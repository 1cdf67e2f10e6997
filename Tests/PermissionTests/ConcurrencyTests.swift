import Clocks
import Emulator
import Testing

@Suite("Fan-out under load: 1,000 subscribers, 10,000 changes")
struct ConcurrencyTests {
  @Test func everySubscriberEndsOnTheFinalValueAndNeverSeesThemOutOfOrder() async {
    let broadcaster = Broadcaster(0)
    let subscribers = 1000, changes = 10_000
    var streams = (0..<subscribers).map { _ in broadcaster.subscribe() }
    #expect(broadcaster.subscriberCount == subscribers)
    let results = await withTaskGroup(of: (Bool, Int).self) { group in
      for stream in streams {
        group.addTask {
          var last = -1
          var ordered = true
          for await value in stream {
            if value <= last { ordered = false }
            last = value
            if value == changes { break }
          }
          return (ordered, last)
        }
      }
      streams.removeAll()  // the tasks hold the only references: a stream ends when its task does
      group.addTask {
        for value in 1...changes { broadcaster.publish(value) }
        return (true, changes)
      }
      var all: [(Bool, Int)] = []
      for await result in group { all.append(result) }
      return all
    }
    #expect(results.count == subscribers + 1)
    #expect(results.allSatisfy { $0.0 })
    #expect(results.allSatisfy { $0.1 == changes })
    #expect(broadcaster.subscriberCount == 0)  // every stream ended, every entry removed
  }

  @Test func emulatorStatusFanOutUnderRapidChanges() async {
    let os = PermissionEmulator(initial: PermissionState(appStatus: .denied), clock: TestClock())
    let subscribers = 1000
    let consumers = (0..<subscribers).map { _ in
      let stream = os.statusUpdates()
      return Task {
        // (A lagging subscriber may see a status twice in a row: it changed away and back
        // while only the newest was kept. Order is checked with numbers in the test above.)
        var seen: [LocationPermissionStatus] = []
        for await status in stream {
          seen.append(status)
          if status == .authorizedAlways { break }
        }
        return seen
      }
    }
    #expect(os.subscriberCount == subscribers)
    for i in 0..<10_000 { await os.setAuthorization(i % 2 == 0 ? .authorizedWhenInUse : .denied) }
    await os.setAuthorization(.authorizedAlways)
    // Each subscriber ends when it sees the final status (bufferingNewest(1) guarantees it does).
    for c in consumers {
      let seen = await c.value
      #expect(seen.last == .authorizedAlways)
      #expect(seen.dropLast().allSatisfy { $0 == .denied || $0 == .authorizedWhenInUse })
    }
    #expect(os.subscriberCount == 0)
  }
}
