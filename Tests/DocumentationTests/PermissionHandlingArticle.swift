import Emulator
import EmulatorTesting
import LocationModel
import PermissionHandling
import Testing

@Test func aGrantIsReportedToTheObserver() async {
  let phone = EmulatedPhone(.init(permission: PermissionState(appStatus: .denied)))
  let handler = LocationPermissionHandler(service: phone.service)
  let changes = Recorder<PermissionChange>()
  await handler.startObservingLocationPermissionChanges { changes.append($0) }
  await phone.setAuthorization(.authorizedWhenInUse)
  #expect(changes.all == [PermissionChange(status: .authorizedWhenInUse, didBecomeAuthorized: true, reason: nil)])
}
