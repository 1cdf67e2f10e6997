import Foundation
import LocationEmulatorClient
import LocationModel
import PermissionHandling

/// The app's permission logic in this process, against a phone that `locemu serve` runs and a
/// script drives (`locemu serve` must be listening on the URL).
func followAServedPhone() async throws {
  let phone = EmulatorServer(url: URL(string: "http://127.0.0.1:8947")!).phone("1")
  let handler = LocationPermissionHandler(service: phone, lifecycle: phone)
  await handler.startObservingLocationPermissionChanges { change in print(change.status) }
  try await phone.revoke()  // or `locemu ctl privacy revoke` from a script
  let result = await phone.requestLocationResult()  // as the app asks: status, fix, reason
  print(result.status)
}
