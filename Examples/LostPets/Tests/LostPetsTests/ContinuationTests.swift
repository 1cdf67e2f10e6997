import CoreLocation
import Emulator
import Foundation
import LocationModel
import Testing

@testable import LostPets

/// The service's continuations: every request ends, whatever the user does. A continuation
/// never resumed would leave its task waiting for good; each test awaits every task it starts
/// after advancing the phone, so a leak is a test that fails (the clock reports a task that
/// can no longer finish), not one that hangs.
@MainActor
@Suite("LocationService: no continuation is left behind")
struct ContinuationTests {
  /// The user's answers to the prompt, and what the request ends with.
  static let answers: [(PromptAnswer, LostPets.LocationPermissionStatus)] = [
    (.allowWhileUsing, .authorizedWhenInUse), (.allowOnce, .authorizedWhenInUse), (.deny, .denied),
  ]

  @Test("an authorization request ends with each answer", arguments: 0..<3)
  func authorizationEndsWithEachAnswer(index: Int) async throws {
    let (answer, expected) = Self.answers[index]
    try await withApp(phone(.notDetermined, answer: answer)) { app in
      let requests = (0..<3).map { _ in Task { await app.service.requestWhenInUseAuthorization() } }
      try await app.phone.advance(by: .seconds(1))
      for request in requests { #expect(await request.value == expected) }
    }
  }

  @Test("an unanswered prompt: the request ends when the app leaves the foreground, or when Settings decide")
  func unansweredPrompt() async throws {
    try await withApp(phone(.notDetermined, answer: .none)) { app in
      let first = Task { await app.service.requestWhenInUseAuthorization() }
      try await app.phone.advance(by: .seconds(60))
      await app.phone.setAppState(.background)
      try await app.phone.runUntilIdle()
      #expect(await first.value == .notDetermined)
      await app.phone.setAppState(.foreground)
      let second = Task { await app.service.requestWhenInUseAuthorization() }
      try await app.phone.advance(by: .seconds(5))
      await app.phone.setAuthorization(.denied)
      try await app.phone.runUntilIdle()
      #expect(await second.value == .denied)
    }
  }

  @Test("a location request ends with a fix, with nil after the timeout, with nil when denied or revoked")
  func locationRequestsEnd() async throws {
    try await withApp(phone(.authorizedWhenInUse, source: .none)) { app in
      let timedOut = Task { await app.service.requestLocation() }
      try await app.phone.advance(by: .seconds(10))
      #expect(await timedOut.value == nil)
      let located = Task { await app.service.requestLocation() }
      try await app.phone.advance(by: .seconds(1))
      await app.phone.send(LocationModel.Coordinate(latitude: home.latitude, longitude: home.longitude)!)
      try await app.phone.runUntilIdle()
      #expect(await located.value == home)
      let revoked = Task { await app.service.requestLocation() }
      try await app.phone.runUntilIdle()
      await app.phone.setAuthorization(.denied)
      try await app.phone.runUntilIdle()
      #expect(await revoked.value == nil)
      #expect(await app.service.requestLocation() == nil, "denied: nil at once")
    }
  }

  @Test("200 runs in a row: prompt, map, background, foreground — the same every time")
  func twoHundredRuns() async throws {
    var outcomes: [String] = []
    for _ in 0..<200 {
      try await withApp(phone(.notDetermined, answer: .allowWhileUsing)) { app in
        let appearing = Task { await app.landing.onAppear() }
        try await app.phone.advance(by: .seconds(1))
        await appearing.value
        // Denied in Settings while in the background: seen on the return.
        await app.phone.setAppState(.background)
        await app.phone.setAuthorization(.denied)
        await app.phone.setAppState(.foreground)
        try await app.phone.runUntilIdle()
        let denied = app.landing.mapPreview.isPermissionRequired
        // Allowed again while in the background: the map loads on the return.
        await app.phone.setAppState(.background)
        await app.phone.setAuthorization(.authorizedWhenInUse)
        await app.phone.setAppState(.foreground)
        try await app.phone.advance(by: .seconds(1))  // the next fix
        outcomes.append("\(denied) \(app.landing.mapPreview.pinIDs.map { "\($0)" } ?? "\(app.landing.mapPreview)")")
      }
    }
    #expect(Set(outcomes) == ["true [\"rex\", \"mia\", \"bo\"]"], "\(Dictionary(grouping: outcomes) { $0 }.mapValues(\.count))")
    #expect(outcomes.count == 200)
  }
}
