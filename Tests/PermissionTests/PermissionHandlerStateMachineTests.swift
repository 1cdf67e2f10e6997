import Emulator
import PermissionHandling
import Testing
import LocationModel

@Suite("PermissionHandlerStateMachine: what observers are told, what checks answer")
struct PermissionHandlerStateMachineTests {
  @Test func onlyChangesAreReportedStartingFromTheBaseline() {
    var m = PermissionHandlerStateMachine()
    #expect(m.observed(status: .denied, servicesEnabled: true) == nil)  // not observing
    m.startObserving(status: .denied, servicesEnabled: true)
    #expect(m.observed(status: .denied, servicesEnabled: true) == nil)
    #expect(
      m.observed(status: .authorizedAlways, servicesEnabled: true)
        == PermissionChange(status: .authorizedAlways, didBecomeAuthorized: true, reason: nil))
    #expect(m.observed(status: .authorizedAlways, servicesEnabled: true) == nil)
  }

  @Test func servicesOffIsAChangeOfReasonEvenWhenTheStatusStaysDenied() {
    var m = PermissionHandlerStateMachine()
    m.startObserving(status: .denied, servicesEnabled: true)
    #expect(
      m.observed(status: .denied, servicesEnabled: false)
        == PermissionChange(status: .denied, didBecomeAuthorized: false, reason: .servicesDisabled))
    #expect(
      m.observed(status: .denied, servicesEnabled: true) == PermissionChange(status: .denied, didBecomeAuthorized: false, reason: .denied))
  }

  @Test func becomingAuthorizedIsReportedWhateverTheChecksOrTheFlowSaw() {
    var m = PermissionHandlerStateMachine()
    m.startObserving(status: .notDetermined, servicesEnabled: true)
    // The location flow prompted and saw the grant before the observer did.
    m.flowSaw(.authorizedWhenInUse)
    _ = m.check(status: .authorizedWhenInUse)
    #expect(m.observed(status: .authorizedWhenInUse, servicesEnabled: true)?.didBecomeAuthorized == true)
    // Services off and on: authorized again.
    _ = m.observed(status: .denied, servicesEnabled: false)
    #expect(m.observed(status: .authorizedWhenInUse, servicesEnabled: true)?.didBecomeAuthorized == true)
  }

  @Test func checksCompareWithTheLastCheckAndNeverReportOnTheFirst() {
    var m = PermissionHandlerStateMachine()
    #expect(m.check(status: .authorizedAlways) == (.authorizedAlways, false))
    #expect(m.check(status: .denied) == (.denied, false))
    #expect(m.check(status: .authorizedWhenInUse) == (.authorizedWhenInUse, true))
    m.flowSaw(.denied)
    #expect(m.check(status: .authorizedWhenInUse) == (.authorizedWhenInUse, true))
  }
}
