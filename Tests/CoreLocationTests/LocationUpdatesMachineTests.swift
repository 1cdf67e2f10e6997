import Emulator
import Foundation
import LocationModel
import Testing

@testable import CoreLocation

/// The manager's rules as values: no phone, no clock, no task; each input's actions checked.
@Suite("LocationUpdatesMachine: a manager's rules without tasks")
struct LocationUpdatesMachineTests {
  typealias Machine = LocationUpdatesMachine

  static let start = Date(timeIntervalSince1970: 1_800_000_000)

  /// A fix `north` metres north of a point in Helsinki, `seconds` after the start.
  static func at(north: Double, seconds: Int64) -> LocationFix {
    LocationFix(
      timestamp: start.addingTimeInterval(Double(seconds)), mode: .threeD,
      coordinate: Coordinate(latitude: 60.1699 + north / 111_195.08, longitude: 24.9384), altitudeMSL: 10, speed: 1.4, course: 0,
      horizontalAccuracy: 5, verticalAccuracy: 5)
  }

  /// Feeds a delivered fix at `seconds`.
  static func deliver(_ machine: inout Machine, north: Double, seconds: Int64) -> [Machine.Action] {
    machine.delivered(at(north: north, seconds: seconds), date: start.addingTimeInterval(Double(seconds)), at: .seconds(seconds))
  }

  /// Feeds a receiver epoch at `seconds`.
  static func receive(_ machine: inout Machine, north: Double, seconds: Int64) -> [Machine.Action] {
    machine.received(at(north: north, seconds: seconds), date: start.addingTimeInterval(Double(seconds)), at: .seconds(seconds))
  }

  /// A location for the calls that take one.
  static func location(north: Double, seconds: Int64) -> CLLocation { CLLocation(at(north: north, seconds: seconds), date: start) }

  static let whenInUse = PermissionState(appStatus: .authorizedWhenInUse)

  /// What the actions say, as text (CLLocation has no equality of values).
  static func names(_ actions: [Machine.Action]) -> [String] {
    actions.map { action in
      switch action {
      case .changeAuthorization(let status, let later): "authorization \(status.rawValue)\(later ? " later" : "")"
      case .updateLocations(let location): "location \(Int(location.timestamp.timeIntervalSince(start)))"
      case .pause: "pause"
      case .resume: "resume"
      case .fail(let code): "fail \(code.rawValue)"
      case .visit(let arrival, let departure, _):
        "visit \(Int(arrival.timeIntervalSince(start)))-\(departure == .distantFuture ? "" : "\(Int(departure.timeIntervalSince(start)))")"
      }
    }
  }

  @Test("LOC-CL-61: the first authorization call comes later; then only changes of status or accuracy")
  func authorization() {
    var machine = Machine()
    #expect(Self.names(machine.authorization(Self.whenInUse, force: true)) == ["authorization 4 later"])
    #expect(machine.permissionChanged(to: Self.whenInUse).isEmpty)
    var reduced = Self.whenInUse
    reduced.accuracy = .reduced
    #expect(Self.names(machine.permissionChanged(to: reduced)) == ["authorization 4"])
  }

  @Test("LOC-CL-62: the distance filter measures from the last delivered location")
  func distanceFilter() {
    var machine = Machine()
    machine.settings.distanceFilter = 10
    _ = machine.startUpdating(Self.whenInUse)
    var delivered: [String] = []
    for second in 0..<20 {
      delivered += Self.names(
        Self.deliver(&machine, north: Double(second) * 4, seconds: Int64(second)))
    }
    // 4 m a second, 10 m apart: seconds 0, 3, 6, …
    #expect(delivered == stride(from: 0, to: 20, by: 3).map { "location \($0)" })
  }

  @Test("LOC-CL-63: five still minutes pause updates (activity other); moving in the foreground resumes them")
  func pauses() {
    var machine = Machine()
    _ = machine.startUpdating(Self.whenInUse)
    var actions: [String] = []
    for second in 0...301 {
      actions += Self.names(Self.deliver(&machine, north: 0, seconds: Int64(second)))
    }
    #expect(actions.suffix(2) == ["location 299", "pause"])
    #expect(machine.paused)
    // In the background a move does not resume; in the foreground it does, with the location.
    var background = Self.whenInUse
    background.app = .background
    _ = machine.permissionChanged(to: background)
    #expect(Self.deliver(&machine, north: 100, seconds: 302).isEmpty)
    _ = machine.permissionChanged(to: Self.whenInUse)
    #expect(
      Self.names(Self.deliver(&machine, north: 200, seconds: 303)) == ["resume", "location 303"])
  }

  @Test("LOC-CL-64: pauses follow the activity type: automotive navigation waits ten minutes within 50 m")
  func activityRule() {
    var machine = Machine()
    machine.settings.activityType = .automotiveNavigation
    _ = machine.startUpdating(Self.whenInUse)
    var paused: Int?
    for second in 0...700 where paused == nil {
      // 40 m back and forth: within 50 m, not within 25 m.
      let north = second.isMultiple(of: 2) ? 0.0 : 40
      if Self.names(Self.deliver(&machine, north: north, seconds: Int64(second))).contains(
        "pause")
      {
        paused = second
      }
    }
    #expect(paused == 600)
  }

  @Test("LOC-CL-65: losing permission while updating fails with .denied once; a lost fix reports .locationUnknown once")
  func failures() {
    var machine = Machine()
    _ = machine.startUpdating(Self.whenInUse)
    var off = Self.whenInUse
    off.servicesEnabled = false
    #expect(Self.names(machine.permissionChanged(to: off)) == ["authorization 2", "fail 1"])
    #expect(machine.permissionChanged(to: off).isEmpty)
    _ = machine.permissionChanged(to: Self.whenInUse)
    #expect(Self.names(machine.fixLost()) == ["fail 0"])
    #expect(machine.fixLost().isEmpty)
    _ = Self.deliver(&machine, north: 0, seconds: 1)
    #expect(Self.names(machine.fixLost()) == ["fail 0"])
    // Starting without permission says why at once.
    var denied = Machine()
    #expect(Self.names(denied.startUpdating(PermissionState(appStatus: .denied))) == ["fail 1"])
  }

  @Test("LOC-CL-66: a visit arrives after five minutes within 50 m and departs 100 m away")
  func visits() {
    var machine = Machine()
    machine.settings.visits = true
    _ = machine.authorization(Self.whenInUse, force: true)
    var actions: [String] = []
    for second in 0...300 { actions += Self.names(Self.receive(&machine, north: 10, seconds: Int64(second))) }
    #expect(actions == ["visit 0-"])
    #expect(Self.receive(&machine, north: 90, seconds: 310).isEmpty)
    #expect(Self.names(Self.receive(&machine, north: 150, seconds: 320)) == ["visit 0-320"])
  }

  @Test("LOC-CL-67: significant changes: the first at once, then 500 m and five minutes")
  func significantChanges() {
    var machine = Machine()
    #expect(Self.names(machine.significantStarted(with: Self.location(north: 0, seconds: 0), at: .zero)) == ["location 0"])
    #expect(Self.deliver(&machine, north: 600, seconds: 100).isEmpty)
    #expect(Self.names(Self.deliver(&machine, north: 600, seconds: 300)) == ["location 300"])
    #expect(machine.lastLocation?.timestamp == Self.start.addingTimeInterval(300))
  }

  @Test("LOC-CL-68: a kilometre of desired accuracy gets a network fix: the position, that accuracy, no speed")
  func coarseAccuracy() {
    var machine = Machine()
    machine.settings.desiredAccuracy = kCLLocationAccuracyKilometer
    _ = machine.startUpdating(Self.whenInUse)
    let actions = Self.deliver(&machine, north: 0, seconds: 0)
    guard case .updateLocations(let location) = actions.first else {
      Issue.record("no location: \(Self.names(actions))")
      return
    }
    #expect(location.horizontalAccuracy == 1000 && location.speed == -1 && location.coordinate.latitude == 60.1699)
  }

  @Test("LOC-CL-69: the stillness detector: moved, settling, still, and a new place after leaving")
  func stillness() {
    var detector = StillnessDetector(radius: 25, time: .seconds(10))
    func observe(_ north: Double, _ seconds: Int64) -> StillnessDetector.Reading {
      let fix = Self.at(north: north, seconds: seconds)
      return detector.observe(fix.coordinate!, date: fix.timestamp!, at: .seconds(seconds))
    }
    #expect(observe(0, 0) == .moved)
    #expect(observe(20, 5) == .settling)
    #expect(observe(10, 10) == .still)
    #expect(observe(30, 11) == .moved)
    #expect(observe(30, 20) == .settling)
    #expect(detector.place?.date == Self.start.addingTimeInterval(11))
  }
}
