import Emulator
import Foundation
import NearbyPets
import PhoneSources
import SampleTraces
import Testing
import Traces

/// The view model on an emulated phone, through the library's public API: a prompt answered
/// "Allow Once", a replayed walk, the grant lapsing in the background, Location Services off.
/// Virtual time: no real-time wait, no polling; every check reads the state right after the
/// call that changed it.
@Suite struct NearbyViewModelTests {
  static func phone() throws -> EmulatedPhone.Configuration {
    EmulatedPhone.Configuration(
      permission: PermissionState(appStatus: .notDetermined), promptAnswer: .allowOnce, promptDelay: .seconds(2),
      source: .trace(try SampleTraces.trace(.cityWalk)))
  }

  @Test func aPromptAWalkAnAllowOnceLapseAndServicesOff() async throws {
    try await withEmulatedPhone(try Self.phone()) { phone in
      let model = NearbyViewModel(service: phone.service)
      let appearing = phone.start { await model.appear() }
      // The prompt is up; the scripted user taps "Allow Once" after two seconds.
      try await phone.advance(by: .seconds(1))
      #expect(phone.state.promptShown && model.screen == .idle)
      try await phone.advance(by: .seconds(1))
      #expect(appearing.isFinished)
      guard case .located(let first, precise: true) = model.screen else {
        Issue.record("expected a precise position, got \(model.screen)")
        return
      }
      #expect(abs(first.latitude - 52.2476) < 0.001)

      // The walk goes on: the app follows it for a minute.
      let following = phone.start { await model.follow() }
      try await phone.advance(by: .seconds(60))
      #expect(model.positionsFollowed == 60)

      // To the background: "Allow Once" lapses, and no position comes in the background.
      await phone.setAppState(.background)
      #expect(model.screen == .needsPermission(.notDetermined))
      try await phone.advance(by: .seconds(30))
      #expect(model.positionsFollowed == 60)

      // Back, allowed in Settings: positions again, at once on the next fix.
      await phone.setAppState(.foreground)
      await phone.setAuthorization(.authorizedWhenInUse)
      try await phone.advance(by: .seconds(10))
      #expect(model.positionsFollowed == 70)

      // Location Services off: the screen says so at once.
      await phone.setServicesEnabled(false)
      #expect(model.screen == .servicesOff)
      following.cancel()
      model.disappear()
    }
  }

  @Test func approximateLocationIsShownAsSuch() async throws {
    var configuration = try Self.phone()
    configuration.permission = PermissionState(appStatus: .authorizedWhenInUse, accuracy: .reduced)
    try await withEmulatedPhone(configuration) { phone in
      let model = NearbyViewModel(service: phone.service)
      try await phone.advance(until: phone.start { await model.appear() })
      guard case .located(_, precise: false) = model.screen else {
        Issue.record("expected an approximate position, got \(model.screen)")
        return
      }
    }
  }

  @Test func aDenialLeavesTheScreenAskingForPermission() async throws {
    var configuration = try Self.phone()
    configuration.promptAnswer = .deny
    try await withEmulatedPhone(configuration) { phone in
      let model = NearbyViewModel(service: phone.service)
      try await phone.advance(until: phone.start { await model.appear() })
      #expect(model.screen == .needsPermission(.denied))
      #expect(phone.elapsed == .seconds(2))
    }
  }
}
