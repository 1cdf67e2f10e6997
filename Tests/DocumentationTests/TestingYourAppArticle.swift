import Emulator
import LocationModel
import PermissionHandling
import Synchronization
import Testing

/// The app's code: a model that asks for the user's position when its screen appears.
final class WhereAmI: Sendable {
  let handler: LocationPermissionHandler
  private let shown = Mutex<LocationRequestResult?>(nil)

  init(service: any LocationServiceProtocol) { handler = LocationPermissionHandler(service: service) }

  var result: LocationRequestResult? { shown.withLock { $0 } }

  func appear() async {
    let result = await handler.requestLocationWithPermissions()
    shown.withLock { $0 = result }
  }
}

@Test func theScreenShowsThePositionOnceTheUserAllows() async throws {
  let warsaw = Coordinate(latitude: 52.2297, longitude: 21.0122)!
  let configuration = EmulatedPhone.Configuration(
    promptAnswer: .allowOnce, promptDelay: .seconds(2), source: .fixed(warsaw, horizontalAccuracy: 5))
  try await withEmulatedPhone(configuration) { phone in
    let model = WhereAmI(service: phone.service)
    // The app's flow, started on the phone's clock: the clock waits for it whenever it runs.
    let appearing = phone.start { await model.appear() }
    try await phone.advance(by: .seconds(1))
    #expect(phone.state.promptShown && model.result == nil)
    // The scripted user taps "Allow Once" at 2 s; the fix due then follows.
    try await phone.advance(by: .seconds(1))
    #expect(appearing.isFinished)
    #expect(model.result?.status == .authorizedWhenInUse)
    #expect(model.result?.location == warsaw && model.result?.accuracy == .full)
    // The app goes to the background: "Allow Once" lapses at once.
    await phone.setAppState(.background)
    #expect(phone.status == .notDetermined)
  }
}
