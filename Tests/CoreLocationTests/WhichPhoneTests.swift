import CoreLocation
import Emulator
import EmulatorTesting
import Foundation
import Geo
import LocationModel
import Testing

/// The deprecated class method `CLLocationManager.authorizationStatus()` (still called by much
/// real code), read through a protocol requirement so that the tests build without warnings.
private protocol ClassStatusReading { static func authorizationStatus() -> CLAuthorizationStatus }
extension CLLocationManager: ClassStatusReading {}
private func classStatus() -> CLAuthorizationStatus { (CLLocationManager.self as any ClassStatusReading.Type).authorizationStatus() }

/// Records what the class methods and a manager made in a callback read, inside the callbacks.
private final class ReadingDelegate: NSObject, CLLocationManagerDelegate, Sendable {
  private let reads = Locked<[String]>([])
  private let made = Locked<[CLLocationManager]>([])
  var seen: [String] { reads.withLock { $0 } }
  var managersMadeInCallbacks: [CLLocationManager] { made.withLock { $0 } }

  func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {
    let status = classStatus()
    let services = CLLocationManager.locationServicesEnabled()
    reads.withLock { $0.append("\(status.rawValue) \(services)") }
    let inner = CLLocationManager()
    made.withLock { $0.append(inner) }
  }
}

@Suite("Which phone: callbacks, class methods and detached work read the app's phone (issue 31 item 5)")
struct WhichPhoneTests {
  /// Phone i: denied when i is odd, Location Services off when i % 4 == 2, else when in use.
  private static func configuration(_ i: Int) -> EmulatedPhone.Configuration {
    var permission = PermissionState(appStatus: i % 2 == 1 ? .denied : .authorizedWhenInUse)
    permission.servicesEnabled = i % 4 != 2
    return EmulatedPhone.Configuration(name: "phone \(i)", permission: permission)
  }

  private static func expected(_ i: Int) -> String {
    let status: CLAuthorizationStatus = i % 2 == 1 || i % 4 == 2 ? .denied : .authorizedWhenInUse
    return "\(status.rawValue) \(i % 4 != 2)"
  }

  @Test("LOC-CL-50: inside delegate callbacks the class methods read the manager's phone, 16 phones at once, 100 rounds; 10 under TSan")
  func classMethodsInCallbacksReadTheManagersPhone() async throws {
    var wrong = 0
    for _ in 0..<ThreadSanitizer.repetitions(100) {
      wrong += try await withThrowingTaskGroup(of: Int.self) { group in
        for i in 0..<16 {
          group.addTask {
            try await withEmulatedPhone(Self.configuration(i)) { phone in
              let manager = CLLocationManager()
              let delegate = ReadingDelegate()
              manager.delegate = delegate
              try await phone.runUntilIdle()
              // A manager made inside the callback belongs to the same phone: it reads its status.
              let inner = delegate.managersMadeInCallbacks.map { "\($0.authorizationStatus.rawValue) \(phone.state.servicesEnabled)" }
              return (delegate.seen + inner).filter { $0 != Self.expected(i) }.count + (delegate.seen.count == 1 ? 0 : 1)
            }
          }
        }
        return try await group.reduce(0, +)
      }
    }
    #expect(wrong == 0)
  }

  @Test("LOC-CL-51: on the main actor too, the callbacks read the manager's phone")
  @MainActor func mainActorCallbacksReadTheManagersPhone() async throws {
    for i in 0..<4 {
      try await withEmulatedPhone(Self.configuration(i)) { phone in
        let manager = CLLocationManager()
        let delegate = ReadingDelegate()
        manager.delegate = delegate
        try await phone.runUntilIdle()
        #expect(delegate.seen == [Self.expected(i)])
      }
    }
  }

  @Test("LOC-CL-52: a process binding reaches Task.detached, DispatchQueue work and threads")
  func processBindingReachesDetachedWork() async throws {
    let bound = await withEmulatedPhone(Self.configuration(2), binding: .process) { phone in
      #expect(EmulatedPhone.processBound === phone)
      let detached = await Task.detached { CLLocationManager.locationServicesEnabled() }.value
      let dispatched = await withCheckedContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(returning: CLLocationManager.locationServicesEnabled()) }
      }
      let threaded = await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: classStatus()) }.start()
      }
      #expect(detached == false && dispatched == false && threaded == .denied)
      return phone
    }
    #expect(EmulatedPhone.processBound !== bound, "the binding ends with the body")
  }

  @Test("LOC-CL-53: without a process binding, detached work does not read the test's phone")
  func detachedWorkWithoutAProcessBinding() async throws {
    await withEmulatedPhone(Self.configuration(1)) { phone in
      let inTree = await Task { classStatus() }.value
      #expect(inTree == .denied, "Task {} inherits the phone")
      let detachedPhone = await Task.detached { EmulatedPhone.current }.value
      #expect(detachedPhone == nil, "Task.detached leaves the task tree")
    }
  }

  @Test("LOC-CL-54: process bindings take turns: two bodies never overlap")
  func processBindingsTakeTurns() async throws {
    let inside = Locked(0)
    let most = Locked(0)
    try await withThrowingTaskGroup(of: Void.self) { group in
      for i in 0..<6 {
        group.addTask {
          await withEmulatedPhone(Self.configuration(i), binding: .process) { phone in
            let now = inside.withLock {
              $0 += 1
              return $0
            }
            most.withLock { $0 = max($0, now) }
            #expect(EmulatedPhone.processBound === phone)
            let status = await Task.detached { classStatus() }.value
            #expect("\(status.rawValue) \(phone.state.servicesEnabled)" == Self.expected(i))
            await Task.yield()
            inside.withLock { $0 -= 1 }
          }
        }
      }
      try await group.waitForAll()
    }
    #expect(most.withLock { $0 } == 1)
  }
}

@Suite("The emulatedPhone test trait")
struct EmulatedPhoneTraitTests {
  @Test(
    "LOC-CL-59: .emulatedPhone(binding: .process) gives the test its phone, detached work included",
    .emulatedPhone(EmulatedPhone.Configuration(permission: PermissionState(appStatus: .denied)), binding: .process))
  func traitBindsTheProcess() async throws {
    let phone = try #require(EmulatedPhone.current)
    #expect(EmulatedPhone.processBound === phone)
    #expect(await Task.detached { classStatus() }.value == .denied)
    await phone.setAuthorization(.authorizedWhenInUse)
    #expect(await Task.detached { classStatus() }.value == .authorizedWhenInUse)
  }

  @Test("LOC-CL-60: .emulatedPhone(binding: .task) keeps the phone to the test's tasks", .emulatedPhone(binding: .task))
  func traitBindsTheTask() async throws {
    let phone = try #require(EmulatedPhone.current)
    #expect(EmulatedPhone.processBound !== phone)
    #expect(await Task { EmulatedPhone.current }.value === phone)
  }
}
