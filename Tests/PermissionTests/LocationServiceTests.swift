import Clocks
import Emulator
import Foundation
import Geo
import Testing

@Suite("LocationService: one-shot requests, the continuous stream, reduced accuracy")
struct LocationServiceTests {
  typealias OS = PermissionEmulator<TestClock<Duration>>

  func make(
    _ status: LocationPermissionStatus = .authorizedWhenInUse, services: Bool = true,
    accuracy: LocationAccuracyAuthorization = .full, clock: TestClock<Duration>
  ) -> (OS, LocationService<TestClock<Duration>>) {
    let os = PermissionEmulator(
      initial: PermissionState(appStatus: status, servicesEnabled: services, accuracy: accuracy), promptDelay: .zero,
      clock: clock)
    return (os, LocationService(emulator: os, source: fixedSource(clock)))
  }

  @Test(arguments: [LocationPermissionStatus.notDetermined, .denied, .restricted])
  func requestLocationIsNilAtOnceWhenNotAuthorized(status: LocationPermissionStatus) async {
    let (_, service) = make(status, clock: TestClock())
    #expect(await service.requestLocation() == nil)
  }

  @Test func requestLocationIsNilAtOnceWhenServicesAreOff() async {
    let (_, service) = make(services: false, clock: TestClock())
    #expect(await service.authorizationStatus == .denied)
    #expect(await service.requestLocation() == nil)
  }

  @Test func requestLocationGivesTheNextFix() async {
    let clock = TestClock()
    let (_, service) = make(clock: clock)
    // The next fix: the one at 0 s, or at 1 s if the request came after it.
    let fix = await advancing(clock, by: .seconds(1)) { await service.requestFix() }
    #expect(fix?.coordinate == warsaw)
    #expect(fix?.horizontalAccuracy == 5)
  }

  @Test func requestLocationTimesOutWhenNoFixComes() async {
    let clock = TestClock()
    let (_, service) = make(clock: clock)
    await service.setSourcePaused(true)
    let done = Recorder<Bool>()
    let request = Task {
      let fix = await service.requestLocation()
      done.append(true)
      return fix
    }
    await settle()
    await untilSleeping(clock)
    await clock.advance(by: .milliseconds(9_999))
    #expect(done.all.isEmpty)
    await clock.advance(by: .milliseconds(1))
    #expect(await request.value == nil)
  }

  @Test func revocationWhileWaitingGivesNil() async {
    let clock = TestClock()
    let (os, service) = make(clock: clock)
    await service.setSourcePaused(true)
    let request = Task { await service.requestLocation() }
    await settle()
    await os.setAuthorization(.denied)
    #expect(await request.value == nil)
  }

  @Test func locationsFlowOnlyWhileAuthorizedAndResumeOnANewGrant() async {
    let clock = TestClock()
    let (os, service) = make(clock: clock)
    let received = Recorder<LocationFix>()
    let stream = await service.locations()
    let consumer = Task { for await fix in stream { received.append(fix) } }
    await settle()
    for _ in 0..<2 { await clock.advance(by: .seconds(1)) }  // fixes at 0, 1, 2
    #expect(await service.processed(2))
    #expect(await waitUntil { received.all.count == 3 })
    await os.setAuthorization(.denied)
    for _ in 0..<3 { await clock.advance(by: .seconds(1)) }  // 3, 4, 5 withheld
    #expect(await service.processed(5))
    await settle()
    #expect(received.all.count == 3)
    await os.setAuthorization(.authorizedWhenInUse)
    await clock.advance(by: .seconds(1))  // 6
    #expect(await waitUntil { received.all.count == 4 })
    await os.setServicesEnabled(false)
    for _ in 0..<2 { await clock.advance(by: .seconds(1)) }
    #expect(await service.processed(8))
    await settle()
    #expect(received.all.count == 4)
    let times = received.all.map { $0.timestamp!.timeIntervalSince1970 - 1_767_225_600 }
    #expect(times == [0, 1, 2, 6])
    consumer.cancel()
    await consumer.value
    #expect(service.locationSubscriberCount == 0)
  }

  @Test func reducedAccuracyCoarsensAndThrottles() async {
    let clock = TestClock()
    let (_, service) = make(accuracy: .reduced, clock: clock)
    let received = Recorder<LocationFix>()
    let stream = await service.locations()
    let consumer = Task { for await fix in stream { received.append(fix) } }
    await settle()
    await clock.advance(by: .seconds(20 * 60))
    #expect(await service.processed(1200))
    await settle()
    // One fix at once, the next 15 minutes later: no more than a few an hour.
    #expect(received.all.map { $0.timestamp!.timeIntervalSince1970 - 1_767_225_600 } == [0, 900])
    let fix = try! #require(received.all.first)
    let moved = fix.coordinate!.distance(to: warsaw)
    #expect(moved > 10 && moved < 3000)  // really coarsened, within a cell
    #expect(fix.horizontalAccuracy! >= 3000)
    #expect(fix.speed == nil && fix.course == nil && fix.altitudeMSL == nil)
    // Every point of the same cell gives the same position.
    let nearby = Coordinate(latitude: warsaw.latitude + 0.001, longitude: warsaw.longitude + 0.001)!
    let grid = ReducedAccuracy()
    #expect(grid.coarsen(LocationFix(mode: .twoD, coordinate: nearby)).coordinate == fix.coordinate)
    consumer.cancel()
  }

  @Test func aOneShotRequestUnderReducedAccuracyIsCoarsenedButNotThrottled() async {
    let clock = TestClock()
    let (_, service) = make(accuracy: .reduced, clock: clock)
    for _ in 0..<2 {
      let fix = await advancing(clock, by: .seconds(1)) { await service.requestFix() }
      #expect(fix != nil && fix!.horizontalAccuracy! >= 3000)
    }
  }

  @Test func coarseningKeepsPositionsValidAtTheEdges() {
    let grid = ReducedAccuracy()
    for (lat, lon) in [(89.99, 179.99), (-89.99, -179.99), (0.0, 0.0), (-33.86, 151.21)] {
      let fix = grid.coarsen(LocationFix(mode: .threeD, coordinate: Coordinate(latitude: lat, longitude: lon)))
      #expect(fix.coordinate != nil)
    }
  }
}
