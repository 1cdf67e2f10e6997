import Emulator
import LocationModel
import Testing

@Suite("Fan-out under load: 1,000 subscribers (100 under ThreadSanitizer), 10,000 changes")
struct ConcurrencyTests {
  @Test func everyConsumerTaskEndsOnTheFinalStatusAndTheTableEmpties() async {
    // Real time: the consumers are plain tasks, on all cores, racing the changes.
    let phone = EmulatedPhone(.init(permission: PermissionState(appStatus: .denied)), clock: .realTime())
    let count = ThreadSanitizer.repetitions(1000, minimum: 100)
    let consumers = (0..<count).map { _ in
      let stream = phone.statusUpdates()
      return Task {
        // A lagging subscriber may see a status twice in a row: it changed away and back while
        // only the newest was kept.
        var seen: [LocationPermissionStatus] = []
        for await status in stream {
          seen.append(status)
          if status == .authorizedAlways { break }
        }
        return seen
      }
    }
    #expect(phone.subscriberCount == count)
    for i in 0..<10_000 { phone.apply(.permission(i % 2 == 0 ? .authorizedWhenInUse : .denied)) }
    phone.apply(.permission(.authorizedAlways))
    for c in consumers {
      let seen = await c.value
      #expect(seen.last == .authorizedAlways)
      #expect(seen.dropLast().allSatisfy { $0 == .denied || $0 == .authorizedWhenInUse })
    }
    #expect(phone.subscriberCount == 0)
    phone.shutdown()
  }

  @Test func synchronousObserversSeeEveryChangeInOrderFromManyThreads() async {
    let phone = EmulatedPhone(.init(permission: PermissionState(appStatus: .denied)), clock: .realTime())
    let seen = (0..<100).map { _ in Recorder<LocationAccuracyAuthorization>() }
    let observations = seen.map { recorder in
      phone.observe { event in if case .stateChanged(_, let to) = event { recorder.append(to.accuracy) } }
    }
    // Four threads apply changes at once; every observer sees the same sequence of states.
    await withTaskGroup(of: Void.self) { group in
      for t in 0..<4 {
        group.addTask {
          for i in 0..<500 { phone.apply(.accuracy((i + t) % 2 == 0 ? .reduced : .full)) }
        }
      }
    }
    let first = seen[0].all
    #expect(!first.isEmpty)
    #expect(seen.allSatisfy { $0.all == first })
    // Consecutive states differ: each reported change is a change.
    #expect(zip(first, first.dropFirst()).allSatisfy { $0 != $1 })
    for observation in observations { observation.cancel() }
    phone.shutdown()
  }
}
