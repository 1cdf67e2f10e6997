import CoreLocation
import Emulator
import Foundation
import Testing

/// The declarations, defaults and raw values of Apple's documentation (the CoreLocation
/// reference, and the iOS 18 SDK's headers for the raw values), one test per group.
@Suite("CoreLocation's declarations match Apple's")
struct DeclarationTests {
  @Test("constants: accuracies, distance filter, invalid coordinate")
  func constants() {
    #expect(kCLDistanceFilterNone == -1)
    #expect(kCLLocationAccuracyBestForNavigation == -2)
    #expect(kCLLocationAccuracyBest == -1)
    #expect(kCLLocationAccuracyNearestTenMeters == 10)
    #expect(kCLLocationAccuracyHundredMeters == 100)
    #expect(kCLLocationAccuracyKilometer == 1000)
    #expect(kCLLocationAccuracyThreeKilometers == 3000)
    #expect(kCLHeadingFilterNone == -1)
    #expect(kCLLocationCoordinate2DInvalid.latitude == -180 && kCLLocationCoordinate2DInvalid.longitude == -180)
    #expect(!CLLocationCoordinate2DIsValid(kCLLocationCoordinate2DInvalid))
    #expect(CLLocationCoordinate2DIsValid(CLLocationCoordinate2D(latitude: 90, longitude: -180)))
    #expect(!CLLocationCoordinate2DIsValid(CLLocationCoordinate2D(latitude: 90.0001, longitude: 0)))
    #expect(kCLErrorDomain == "kCLErrorDomain")
    let origin = CLLocationCoordinate2D()
    #expect(origin.latitude == 0 && origin.longitude == 0)
  }

  @Test("raw values: authorization (Int32), accuracy, activity, region state, errors")
  func rawValues() {
    #expect(CLAuthorizationStatus.allRawValues == [0, 1, 2, 3, 4])
    #expect(CLAuthorizationStatus(rawValue: 3) == .authorizedAlways)
    #expect(type(of: CLAuthorizationStatus.denied.rawValue) == Int32.self)
    #expect(CLAccuracyAuthorization.fullAccuracy.rawValue == 0 && CLAccuracyAuthorization.reducedAccuracy.rawValue == 1)
    #expect(
      [CLActivityType.other, .automotiveNavigation, .fitness, .otherNavigation, .airborne].map(\.rawValue) == [1, 2, 3, 4, 5])
    #expect([CLRegionState.unknown, .inside, .outside].map(\.rawValue) == [0, 1, 2])
    #expect([CLProximity.unknown, .immediate, .near, .far].map(\.rawValue) == [0, 1, 2, 3])
    #expect(CLDeviceOrientation.faceDown.rawValue == 6)
    let codes: [CLError.Code] = [
      .locationUnknown, .denied, .network, .headingFailure, .regionMonitoringDenied, .regionMonitoringFailure,
      .regionMonitoringSetupDelayed, .regionMonitoringResponseDelayed, .geocodeFoundNoResult, .geocodeFoundPartialResult,
      .geocodeCanceled, .deferredFailed, .deferredNotUpdatingLocation, .deferredAccuracyTooLow, .deferredDistanceFiltered,
      .deferredCanceled, .rangingUnavailable, .rangingFailure, .promptDeclined, .historicalLocationError,
    ]
    #expect(codes.map(\.rawValue) == Array(0...19))
    #expect([CLMonitor.Event.State.unknown, .satisfied, .unsatisfied, .unmonitored].map(\.rawValue) == [0, 1, 2, 3])
  }

  @Test("CLLocationManager: Apple's defaults")
  func managerDefaults() async {
    await withEmulatedPhoneForDefaults {
      let manager = CLLocationManager()
      #expect(manager.desiredAccuracy == kCLLocationAccuracyBest)
      #expect(manager.distanceFilter == kCLDistanceFilterNone)
      #expect(manager.pausesLocationUpdatesAutomatically)
      #expect(!manager.allowsBackgroundLocationUpdates)
      #expect(!manager.showsBackgroundLocationIndicator)
      #expect(manager.activityType == .other)
      #expect(manager.headingFilter == 1)
      #expect(manager.headingOrientation == .portrait)
      #expect(manager.location == nil)
      #expect(manager.heading == nil)
      #expect(manager.delegate == nil)
      #expect(manager.authorizationStatus == .notDetermined)
      #expect(manager.accuracyAuthorization == .fullAccuracy)
      #expect(manager.monitoredRegions.isEmpty)
      #expect(manager.maximumRegionMonitoringDistance > 0)
      #expect(CLLocationManager.locationServicesEnabled())
      #expect(!CLLocationManager.headingAvailable())
      #expect(CLLocationManager.significantLocationChangeMonitoringAvailable())
      #expect(CLLocationManager.isMonitoringAvailable(for: CLCircularRegion.self))
      #expect(!CLLocationManager.isMonitoringAvailable(for: CLBeaconRegion.self))
      #expect(!CLLocationManager.isRangingAvailable())
    }
  }

  @Test("CLLocation: every initializer, its defaults, distance, the simulated source")
  func location() {
    let plain = CLLocation(latitude: 60.17, longitude: 24.94)
    #expect(plain.altitude == 0 && plain.horizontalAccuracy == 0 && plain.verticalAccuracy == -1)
    #expect(plain.speed == -1 && plain.course == -1 && plain.speedAccuracy == -1 && plain.courseAccuracy == -1)
    #expect(plain.floor == nil)
    let stamp = Date(timeIntervalSince1970: 1_700_000_000)
    let full = CLLocation(
      coordinate: CLLocationCoordinate2D(latitude: 60.18, longitude: 24.94), altitude: 12, horizontalAccuracy: 5, verticalAccuracy: 3,
      course: 90, courseAccuracy: 4, speed: 1.5, speedAccuracy: 0.2, timestamp: stamp)
    #expect(full.course == 90 && full.courseAccuracy == 4 && full.speed == 1.5 && full.speedAccuracy == 0.2 && full.timestamp == stamp)
    let short = CLLocation(
      coordinate: CLLocationCoordinate2D(latitude: 1, longitude: 2), altitude: 3, horizontalAccuracy: 4, verticalAccuracy: 5,
      timestamp: stamp)
    #expect(short.course == -1 && short.speed == -1)
    let withCourse = CLLocation(
      coordinate: CLLocationCoordinate2D(latitude: 1, longitude: 2), altitude: 3, horizontalAccuracy: 4, verticalAccuracy: 5, course: 6,
      speed: 7, timestamp: stamp)
    #expect(withCourse.course == 6 && withCourse.speed == 7 && withCourse.courseAccuracy == -1)
    // 0.01° of latitude ≈ 1,112 m.
    #expect(abs(plain.distance(from: full) - 1112) < 3)
    let simulated = CLLocationSourceInformation(softwareSimulationState: true, andExternalAccessoryState: false)
    #expect(simulated.isSimulatedBySoftware && !simulated.isProducedByAccessory)
  }

  @Test("CLError: bridged to NSError, caught by code, cast back")
  func errors() {
    let error: any Error = CLError(.denied)
    #expect((error as NSError).domain == kCLErrorDomain)
    #expect((error as NSError).code == 1)
    #expect((error as? CLError)?.code == .denied)
    do {
      throw CLError(.locationUnknown)
    } catch CLError.locationUnknown {
    } catch {
      Issue.record("not caught by its code: \(error)")
    }
    // Linux has no Objective-C bridging of a hand-made NSError: CLError(_nsError:) converts it.
    let nsError = NSError(domain: kCLErrorDomain, code: 2)
    #expect(CLError(_nsError: nsError).code == .network)
    #expect((CLError(_nsError: nsError) as NSError).code == 2)
    #expect(CLError.Code(rawValue: 18) == .promptDeclined)
  }

  @Test("regions: CLCircularRegion, its defaults and containment; visits, headings, floors")
  func regions() {
    let center = CLLocationCoordinate2D(latitude: 60.17, longitude: 24.94)
    let region = CLCircularRegion(center: center, radius: 200, identifier: "home")
    #expect(region.identifier == "home" && region.radius == 200 && region.notifyOnEntry && region.notifyOnExit)
    #expect(region.center.latitude == 60.17)
    #expect(region.contains(CLLocationCoordinate2D(latitude: 60.1710, longitude: 24.94)))  // 111 m north
    #expect(!region.contains(CLLocationCoordinate2D(latitude: 60.1720, longitude: 24.94)))  // 222 m north
    #expect(region == CLCircularRegion(center: center, radius: 50, identifier: "home"), "regions are equal by identifier")
    // No public initializer but NSObject's, as in the SDK: tests subclass to make their own.
    final class StayAtHome: CLVisit {
      override var arrivalDate: Date { Date(timeIntervalSince1970: 0) }
      override var coordinate: CLLocationCoordinate2D { CLLocationCoordinate2D(latitude: 60.17, longitude: 24.94) }
    }
    let visit = StayAtHome()
    #expect(visit.departureDate == .distantFuture && visit.arrivalDate.timeIntervalSince1970 == 0 && visit.coordinate.latitude == 60.17)
    #expect(CLVisit().arrivalDate == .distantPast)
    #expect(CLFloor().level == 0)
    #expect(CLHeading().trueHeading == -1)
  }

  @Test("iOS 17/18: live configuration, service session requirement, monitor conditions are values")
  func newerTypes() throws {
    let configurations: Set<CLLocationUpdate.LiveConfiguration> = [.default, .automotiveNavigation, .otherNavigation, .fitness, .airborne]
    #expect(configurations.count == 5)
    let requirements: Set<CLServiceSession.AuthorizationRequirement> = [.none, .whenInUse, .always]
    #expect(requirements.count == 3)
    let condition = CLMonitor.CircularGeographicCondition(center: CLLocationCoordinate2D(latitude: 60.17, longitude: 24.94), radius: 150)
    let data = try JSONEncoder().encode(condition)
    let decoded = try JSONDecoder().decode(CLMonitor.CircularGeographicCondition.self, from: data)
    #expect(decoded.center.latitude == 60.17 && decoded.center.longitude == 24.94 && decoded.radius == 150)
    let beacon = CLMonitor.BeaconIdentityCondition(uuid: UUID(), major: 1)
    #expect(beacon.major == 1 && beacon.minor == nil)
  }

  @Test("Objective-C associated objects: set, get, replace, remove; the value goes with its object")
  func associatedObjects() {
    final class Tag: NSObject {}
    nonisolated(unsafe) var key: UInt8 = 0
    let manager = NSObject()
    withUnsafePointer(to: &key) { key in
      let raw = UnsafeRawPointer(key)
      objc_setAssociatedObject(manager, raw, "first", .OBJC_ASSOCIATION_RETAIN_NONATOMIC)
      #expect(objc_getAssociatedObject(manager, raw) as? String == "first")
      objc_setAssociatedObject(manager, raw, "second", .OBJC_ASSOCIATION_COPY)
      #expect(objc_getAssociatedObject(manager, raw) as? String == "second")
      objc_setAssociatedObject(manager, raw, nil, .OBJC_ASSOCIATION_RETAIN)
      #expect(objc_getAssociatedObject(manager, raw) == nil)
      weak var weakTag: Tag?
      do {
        let tag = Tag()
        weakTag = tag
        objc_setAssociatedObject(manager, raw, tag, .OBJC_ASSOCIATION_ASSIGN)
        #expect(objc_getAssociatedObject(manager, raw) as? Tag === tag)
      }
      #expect(weakTag == nil && objc_getAssociatedObject(manager, raw) == nil, "assign does not retain")
      do {
        let owner = NSObject()
        let tag = Tag()
        weakTag = tag
        objc_setAssociatedObject(owner, raw, tag, .OBJC_ASSOCIATION_RETAIN)
        objc_removeAssociatedObjects(owner)
        #expect(objc_getAssociatedObject(owner, raw) == nil)
      }
      #expect(weakTag == nil)
    }
  }
}

extension CLAuthorizationStatus {
  static var allRawValues: [Int32] {
    let all: [CLAuthorizationStatus] = [.notDetermined, .restricted, .denied, .authorizedAlways, .authorizedWhenInUse]
    return all.map(\.rawValue)
  }
}

/// A fresh phone for the managers made in `body`.
func withEmulatedPhoneForDefaults(_ body: () async -> Void) async {
  await Emulator.withEmulatedPhone { _ in await body() }
}
