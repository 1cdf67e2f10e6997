import CoreLocation
import Emulator
import Foundation
import Geo
import LocationModel
import Synchronization
import TestSupport
import Testing

/// What an iteration of a sequence got, read by the test after each advance.
final class Collected<Element: Sendable>: Sendable {
  private let items = Locked<[Element]>([])
  var all: [Element] { items.withLock { $0 } }
  func append(_ item: Element) { items.withLock { $0.append(item) } }
}

@Suite("iOS 17/18: live updates, service and background sessions (virtual time)")
struct LiveUpdatesTests {
  @Test("LOC-CL-20: liveUpdates asks for authorization, says the prompt is up, then gives locations")
  func liveUpdatesPromptThenLocations() async throws {
    try await withEmulatedPhone { phone in
      let updates = Collected<CLLocationUpdate>()
      let task = phone.start("tracker") {
        do {
          for try await update in CLLocationUpdate.liveUpdates() { updates.append(update) }
        } catch {}
      }
      try await phone.runUntilIdle()
      #expect(updates.all.map(\.authorizationRequestInProgress) == [true], "the prompt is shown at once")
      try await phone.advance(by: .seconds(1))  // the user allows while using
      await phone.send(helsinki())
      try await phone.advance(by: .seconds(1))
      #expect(updates.all.count == 2)
      #expect(updates.all.last?.location?.coordinate.latitude == helsinki().latitude)
      #expect(updates.all.last?.authorizationRequestInProgress == false)
      task.cancel()
      try await phone.runUntilIdle()
      #expect(phone.observerCount == 0, "the iteration leaves no observer behind")
    }
  }

  @Test("LOC-CL-21: diagnostics come as updates without a location, once per change")
  func diagnostics() async throws {
    try await withEmulatedPhone(authorizedPhone()) { phone in
      let updates = Collected<CLLocationUpdate>()
      phone.start("tracker") {
        do {
          for try await update in CLLocationUpdate.liveUpdates(.fitness) { updates.append(update) }
        } catch {}
      }
      try await phone.runUntilIdle()
      #expect(updates.all.isEmpty, "authorized, no fix yet: nothing to say")
      await phone.setAppState(.background)
      try await phone.runUntilIdle()
      await phone.setAppState(.foreground)
      await phone.setAuthorization(.denied)
      try await phone.runUntilIdle()
      await phone.setServicesEnabled(false)
      try await phone.runUntilIdle()
      await phone.setServicesEnabled(true)
      await phone.setAuthorization(.authorizedWhenInUse)
      await phone.setAccuracy(.reduced)
      await phone.send(helsinki())
      try await phone.runUntilIdle()
      let all = updates.all
      #expect(all.count == 5)
      #expect(all[0].insufficientlyInUse && all[0].location == nil)
      #expect(all[1].authorizationDenied && !all[1].authorizationDeniedGlobally && all[1].location == nil)
      #expect(all[2].authorizationDenied && all[2].authorizationDeniedGlobally)
      #expect(all[3].authorizationDenied && !all[3].authorizationDeniedGlobally, "services back on, the app still denied")
      #expect(all[4].location != nil && all[4].accuracyLimited && !all[4].authorizationDenied)
    }
  }

  @Test("LOC-CL-22: a still device gets one stationary update, then none until it moves")
  func stationary() async throws {
    try await withEmulatedPhone(authorizedPhone()) { phone in
      let updates = Collected<CLLocationUpdate>()
      phone.start("tracker") {
        do {
          for try await update in CLLocationUpdate.liveUpdates() { updates.append(update) }
        } catch {}
      }
      for _ in 0..<10 {
        await phone.send(helsinki(north: 3))
        try await phone.advance(by: .seconds(60))
      }
      let stationary = updates.all.filter(\.isStationary)
      #expect(stationary.count == 1 && stationary[0].stationary)
      #expect(updates.all.count == 6, "five updates, a minute apart, then at five still minutes one stationary update")
      await phone.send(helsinki(north: 300))
      try await phone.advance(by: .seconds(1))
      #expect(updates.all.last?.isStationary == false && updates.all.count == 7)
    }
  }

  @Test("LOC-CL-23: a service session asks for its authorization and tells its diagnostics until invalidated")
  func serviceSession() async throws {
    try await withEmulatedPhone { phone in
      phone.setPromptAnswer(.allowWhileUsing)
      let diagnostics = Collected<CLServiceSession.Diagnostic>()
      let session = await phone.withCurrent { CLServiceSession(authorization: .always) }
      let task = phone.start("session") {
        do {
          for try await diagnostic in session.diagnostics { diagnostics.append(diagnostic) }
        } catch {}
      }
      try await phone.advance(by: .seconds(1))
      #expect(phone.state.appStatus == .authorizedAlways, "Always asked from notDetermined: provisional Always")
      #expect(diagnostics.all.first?.authorizationRequestInProgress == true)
      #expect(diagnostics.all.last?.alwaysAuthorizationDenied == false)
      await phone.setAuthorization(.authorizedWhenInUse)
      try await phone.runUntilIdle()
      #expect(diagnostics.all.last?.alwaysAuthorizationDenied == true)
      session.invalidate()
      try await phone.advance(until: task)
      #expect(phone.observerCount == 0)
    }
  }

  @Test("LOC-CL-24: a background activity session keeps a when-in-use app's locations in the background")
  func backgroundActivitySession() async throws {
    try await withEmulatedPhone(authorizedPhone()) { phone in
      let updates = Collected<CLLocationUpdate>()
      phone.start("tracker") {
        do {
          for try await update in CLLocationUpdate.liveUpdates() { updates.append(update) }
        } catch {}
      }
      let session = await phone.withCurrent { CLBackgroundActivitySession() }
      await phone.setAppState(.background)
      await phone.send(helsinki())
      try await phone.runUntilIdle()
      #expect(updates.all.count == 1 && updates.all[0].location != nil)
      session.invalidate()
      try await phone.runUntilIdle()
      await phone.send(helsinki(north: 100))
      try await phone.runUntilIdle()
      #expect(updates.all.count == 2 && updates.all[1].insufficientlyInUse && updates.all[1].location == nil)
    }
  }
}
