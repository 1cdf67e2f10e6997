import Emulator
import Geo
import LocationModel
import PermissionHandling
import PetMap
import Testing

@Test func mapPreview_FR003_centersOnTheUser() async throws {
  let phone = EmulatedPhone(.init(permission: PermissionState(appStatus: .authorizedWhenInUse)))
  let preview = MapPreviewModel(
    scheduler: phone.clock,  // its timers run on the phone's virtual clock
    handler: LocationPermissionHandler(service: phone.service),
    repository: try FileAnnouncementRepository(contentsOf: "traces/announcements.json"))
  await preview.start()  // authorized: loading, waiting for a fix
  let here = Coordinate(latitude: 52.2476, longitude: 21.0137)!
  await phone.send(here)  // returns when the load has finished
  #expect(preview.state.region?.center == here)
  #expect(preview.state.pins.count == 5)
}
