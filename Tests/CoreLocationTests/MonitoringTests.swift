import CoreLocation
import Emulator
import Foundation
import Geo
import LocationModel
import TestSupport
import Testing

@Suite("Region monitoring and CLMonitor (virtual time)")
struct MonitoringTests {
  @Test(
    "LOC-CL-30: entry and exit need the boundary crossed by the margin and 20 s held, each with didDetermineState; the first state is not an event"
  )
  @MainActor func regionEntryAndExit() async throws {
    try await withEmulatedPhone(authorizedPhone()) { phone in
      let manager = CLLocationManager()
      let delegate = DelegateRecorder()
      manager.delegate = delegate
      await phone.send(helsinki(north: 1000))
      let center = helsinki()
      let region = CLCircularRegion(
        center: CLLocationCoordinate2D(latitude: center.latitude, longitude: center.longitude), radius: 300, identifier: "park")
      manager.startMonitoring(for: region)
      try await phone.runUntilIdle()
      manager.requestState(for: region)
      try await phone.runUntilIdle()
      #expect(delegate.events.suffix(2) == ["monitoring park", "state park outside"])
      delegate.clear()
      // Inside by 50 m only (margin 100 m): nothing.
      await phone.send(helsinki(north: 250))
      try await phone.advance(by: .seconds(60))
      #expect(delegate.events.isEmpty)
      // Well inside, for 19 s: nothing yet; at 20 s: entry.
      await phone.send(helsinki(north: 100))
      try await phone.advance(by: .seconds(19))
      #expect(delegate.events.isEmpty)
      try await phone.advance(by: .seconds(1))
      // didDetermineState on every boundary transition, besides didEnterRegion (Apple's
      // locationManager(_:didDetermineState:for:)).
      #expect(delegate.events == ["state park inside", "enter park"])
      #expect(manager.monitoredRegions.map(\.identifier) == ["park"])
      // Out and back within 20 s: no exit.
      await phone.send(helsinki(north: 600))
      try await phone.advance(by: .seconds(10))
      await phone.send(helsinki(north: 0))
      try await phone.advance(by: .seconds(30))
      #expect(delegate.events == ["state park inside", "enter park"])
      await phone.send(helsinki(north: 600))
      try await phone.advance(by: .seconds(20))
      #expect(delegate.events == ["state park inside", "enter park", "state park outside", "exit park"])
      manager.stopMonitoring(for: region)
      #expect(manager.monitoredRegions.isEmpty)
    }
  }

  @Test("LOC-CL-31: at most 20 regions; none under approximate location; none over the maximum radius")
  @MainActor func regionLimits() async throws {
    try await withEmulatedPhone(authorizedPhone()) { phone in
      let manager = CLLocationManager()
      let delegate = DelegateRecorder()
      manager.delegate = delegate
      let c = CLLocationCoordinate2D(latitude: 60.17, longitude: 24.94)
      for i in 0..<21 { manager.startMonitoring(for: CLCircularRegion(center: c, radius: 100, identifier: "r\(i)")) }
      manager.startMonitoring(for: CLCircularRegion(center: c, radius: manager.maximumRegionMonitoringDistance + 1, identifier: "huge"))
      try await phone.runUntilIdle()
      #expect(manager.monitoredRegions.count == 20)
      #expect(
        delegate.events.filter { $0.hasPrefix("monitoring failed") } == [
          "monitoring failed r20 regionMonitoringFailure", "monitoring failed huge regionMonitoringFailure",
        ])
      for region in manager.monitoredRegions { manager.stopMonitoring(for: region) }
      await phone.setAccuracy(.reduced)
      delegate.clear()
      manager.startMonitoring(for: CLCircularRegion(center: c, radius: 100, identifier: "coarse"))
      try await phone.runUntilIdle()
      #expect(delegate.events.last == "monitoring failed coarse regionMonitoringDenied")
    }
  }

  @Test("LOC-CL-32: regions outlive their manager, as on iOS: a new manager sees them and hears their events")
  @MainActor func regionsOutliveTheirManager() async throws {
    try await withEmulatedPhone(authorizedPhone()) { phone in
      await phone.send(helsinki(north: 1000))
      do {
        let first = CLLocationManager()
        first.startMonitoring(
          for: CLCircularRegion(
            center: CLLocationCoordinate2D(latitude: helsinki().latitude, longitude: helsinki().longitude), radius: 300, identifier: "park")
        )
        try await phone.runUntilIdle()
      }
      let second = CLLocationManager()
      let delegate = DelegateRecorder()
      second.delegate = delegate
      #expect(second.monitoredRegions.map(\.identifier) == ["park"])
      await phone.send(helsinki())
      try await phone.advance(by: .seconds(20))
      #expect(delegate.events.contains("enter park"))
    }
  }

  @Test("LOC-CL-33: CLMonitor: assumed state, decided state, changes held 20 s, the limit, beacons unsupported, records")
  func monitor() async throws {
    try await withEmulatedPhone(authorizedPhone()) { phone in
      await phone.send(helsinki(north: 1000))
      let events = Collected<CLMonitor.Event>()
      let monitor = await phone.withCurrent { await CLMonitor("pets") }
      let task = phone.start("monitor") {
        do {
          for try await event in monitor.events { events.append(event) }
        } catch {}
      }
      let center = CLLocationCoordinate2D(latitude: helsinki().latitude, longitude: helsinki().longitude)
      await monitor.add(CLMonitor.CircularGeographicCondition(center: center, radius: 300), identifier: "park", assuming: .unsatisfied)
      await monitor.add(CLMonitor.CircularGeographicCondition(center: center, radius: 5000), identifier: "city")
      await monitor.add(CLMonitor.BeaconIdentityCondition(uuid: UUID()), identifier: "beacon")
      try await phone.runUntilIdle()
      #expect(events.all.map { "\($0.identifier) \($0.state)" } == ["city satisfied", "beacon unmonitored"], "park was assumed right")
      #expect(events.all.last?.conditionUnsupported == true)
      await phone.send(helsinki())
      try await phone.advance(by: .seconds(20))
      #expect(events.all.last.map { "\($0.identifier) \($0.state)" } == "park satisfied")
      #expect(await monitor.record(for: "park")?.lastEvent.state == .satisfied)
      #expect(await monitor.identifiers == ["park", "city", "beacon"])
      for i in 0..<19 { await monitor.add(CLMonitor.CircularGeographicCondition(center: center, radius: 100), identifier: "c\(i)") }
      try await phone.runUntilIdle()
      let over = events.all.filter(\.conditionLimitExceeded)
      #expect(over.map(\.identifier) == ["c18"] && over[0].state == .unmonitored, "park and city and 18 more make 20")
      await phone.setAuthorization(.denied)
      try await phone.runUntilIdle()
      #expect(events.all.suffix(2).allSatisfy { $0.state == .unmonitored && $0.authorizationDenied })
      await monitor.remove("park")
      #expect(await monitor.record(for: "park") == nil)
      task.cancel()
    }
  }
}
