import Emulator
import Foundation
import Geo
import LocationModel

#if ServedPhone
  import LocationEmulatorClient

  extension RemotePhone: ServedPhoneRequests {}
#endif

/// What the app's requests ask of a served phone: a `RemotePhone` of the served-phone client,
/// compiled with the package trait `ServedPhone`.
protocol ServedPhoneRequests: Sendable {
  func requestWhenInUseAuthorization() async -> LocationPermissionStatus
  func requestAlwaysAuthorization() async -> LocationPermissionStatus
  func requestLocationResult() async -> LocationRequestResult
}

/// The phone a CoreLocation object belongs to, and how its requests reach it: an in-process
/// ``EmulatedPhone`` (made by `withEmulatedPhone`, or the process's own), or a phone of a
/// `locemu serve` process that a local phone mirrors (its state and fixes), with the app's
/// requests sent to the served phone.
final class BoundPhone: Sendable {
  /// Where events are observed: the phone itself, or the mirror of a served one.
  let phone: EmulatedPhone
  /// The served phone, when the process is bound to one (`LOCEMU_SERVER`).
  let remote: (any ServedPhoneRequests)?

  init(phone: EmulatedPhone, remote: (any ServedPhoneRequests)? = nil) {
    self.phone = phone
    self.remote = remote
  }

  /// The phone of the code running now: the task's (``EmulatedPhone/current``), else the one a
  /// test bound to the process (``EmulatedPhone/processBound``), else the process's own.
  static var current: BoundPhone {
    if let phone = EmulatedPhone.ofRunningCode { return BoundPhone(phone: phone) }
    return ProcessPhone.shared
  }

  var clock: EmulatorClock { phone.clock }

  /// The app asks for authorization: the phone's prompt rules decide; the answer comes as a
  /// change of state (the delegate hears of it).
  func requestAuthorization(always: Bool) {
    if let remote {
      Task.detached { _ = always ? await remote.requestAlwaysAuthorization() : await remote.requestWhenInUseAuthorization() }
      return
    }
    let phone = self.phone
    phone.start(always ? "requestAlwaysAuthorization" : "requestWhenInUseAuthorization") {
      _ = always ? await phone.requestAlwaysAuthorization() : await phone.requestWhenInUseAuthorization()
    }
  }

  /// One location as `requestLocation()` asks for it, delivered to `done` (from a phone task on
  /// an in-process phone, so the clock waits for it); `cancellation` ends the wait.
  func requestLocation(_ cancellation: CancellationHandle, _ done: @escaping @Sendable (LocationRequestResult) -> Void) {
    if let remote {
      let task = Task.detached { done(await remote.requestLocationResult()) }
      cancellation.attach { task.cancel() }
      return
    }
    let phone = self.phone
    let task = phone.start("requestLocation") {
      let result = await phone.requestLocationResult()
      if result.reason != .cancelled { done(result) }
    }
    cancellation.attach { task.cancel() }
  }
}

/// The phone of a process that no test bound to one: from the environment.
///
/// - `LOCEMU_SERVER` (and `LOCEMU_TOKEN`, `LOCEMU_PHONE`), with the package trait `ServedPhone`:
///   a phone of that `locemu serve`,
///   driven with `locemu ctl` as `simctl location`/`simctl privacy` drive a simulator; a local
///   phone on the real clock follows it (``RemotePhone/mirror(into:)``).
///   Without the trait, a line on standard error says how to turn it on.
/// - Otherwise a phone on the real clock, set up as a simulator is before a test run (what
///   `locemu port` sets from its options), each setting with a new iPhone's default:
///   - `LOCEMU_PERMISSION`: `notDetermined` (default), `authorizedWhenInUse` (or `whenInUse`),
///     `authorizedAlways` (or `always`), `denied`, `restricted`;
///   - `LOCEMU_ACCURACY`: `full` (default) or `reduced`;
///   - `LOCEMU_SERVICES`: `on` (default) or `off`;
///   - `LOCEMU_LOCATION`: `LAT,LON`, where the device stands (a fix every second); none by
///     default: no location at all, as a simulator with its location set to None;
///   - `LOCEMU_PROMPT_ANSWER`: how the user answers the prompt: `allowWhileUsing` (default),
///     `allowOnce`, `allowAlways`, `deny`, `none`.
///
///   A value it cannot read is named on standard error and the default kept.
///
/// Made at first use and kept for the process's life; its clock runs in a task of its own.
enum ProcessPhone {
  /// The process phone's configuration from `environment` (see ``ProcessPhone``), and what it
  /// could not read.
  static func configuration(_ environment: [String: String]) -> (EmulatedPhone.Configuration, problems: [String]) {
    var configuration = EmulatedPhone.Configuration(name: "process", startDate: Date())
    var problems: [String] = []
    var state = PermissionState()
    if let value = environment["LOCEMU_PERMISSION"], !value.isEmpty {
      let aliases = ["whenInUse": "authorizedWhenInUse", "always": "authorizedAlways"]
      if let status = LocationPermissionStatus(rawValue: aliases[value] ?? value) {
        state = PermissionState(appStatus: status)
      } else {
        problems.append("LOCEMU_PERMISSION=\(value) (one of notDetermined, authorizedWhenInUse, authorizedAlways, denied, restricted)")
      }
    }
    if let value = environment["LOCEMU_ACCURACY"], !value.isEmpty {
      if let accuracy = LocationAccuracyAuthorization(rawValue: value) {
        state = PermissionState(appStatus: state.appStatus, servicesEnabled: state.servicesEnabled, accuracy: accuracy)
      } else {
        problems.append("LOCEMU_ACCURACY=\(value) (full or reduced)")
      }
    }
    if let value = environment["LOCEMU_SERVICES"], !value.isEmpty {
      if value == "on" || value == "off" {
        state = PermissionState(appStatus: state.appStatus, servicesEnabled: value == "on", accuracy: state.accuracy)
      } else {
        problems.append("LOCEMU_SERVICES=\(value) (on or off)")
      }
    }
    configuration.permission = state
    if let value = environment["LOCEMU_PROMPT_ANSWER"], !value.isEmpty {
      if let answer = PromptAnswer(rawValue: value) {
        configuration.promptAnswer = answer
      } else {
        problems.append("LOCEMU_PROMPT_ANSWER=\(value) (allowWhileUsing, allowOnce, allowAlways, deny or none)")
      }
    }
    if let value = environment["LOCEMU_LOCATION"], !value.isEmpty {
      let parts = value.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
      if parts.count == 2, let latitude = parts[0], let longitude = parts[1],
        let place = Coordinate(latitude: latitude, longitude: longitude)
      {
        configuration.source = .fixed(place)
      } else {
        problems.append("LOCEMU_LOCATION=\(value) (LAT,LON in degrees)")
      }
    }
    return (configuration, problems)
  }

  static let shared: BoundPhone = {
    let environment = ProcessInfo.processInfo.environment
    let (configuration, problems) = Self.configuration(environment)
    for problem in problems {
      FileHandle.standardError.write(Data("CoreLocation (locemu): cannot read \(problem); keeping the default\n".utf8))
    }
    let phone = EmulatedPhone(configuration, clock: .realTime())
    if let server = environment["LOCEMU_SERVER"], !server.isEmpty {
      #if ServedPhone
        if let url = URL(string: server) {
          let remote = EmulatorServer(url: url, token: environment["LOCEMU_TOKEN"]).phone(environment["LOCEMU_PHONE"] ?? "1")
          Task.detached {
            await withTaskGroup(of: Void.self) { group in
              group.addTask { await phone.run() }
              group.addTask {
                do {
                  try await remote.mirror(into: phone)
                } catch {
                  FileHandle.standardError.write(Data("CoreLocation (locemu): the served phone at \(server) is gone: \(error)\n".utf8))
                }
              }
            }
          }
          return BoundPhone(phone: phone, remote: remote)
        }
      #else
        FileHandle.standardError.write(
          Data(
            ("CoreLocation (locemu): LOCEMU_SERVER is set, but this build has no served-phone binding: enable the LocationEmulator "
              + "package's trait ServedPhone (.package(name: \"LocationEmulator\", …, traits: [\"ServedPhone\"])); "
              + "using a phone of this process\n").utf8))
      #endif
    }
    Task.detached { await phone.run() }
    return BoundPhone(phone: phone)
  }()
}

/// Calls the delegate where the manager was made, in the phone's order.
///
/// - Made on the main actor (an app's code, a `@MainActor` test): each call runs on the main
///   actor, in order (``EmulatorClock/runOnMainActor(_:)``: on a virtual clock an advance returns
///   after it ran).
/// - Made elsewhere: each call is an effect of the phone's clock, run in order by the clock's
///   loop (on a virtual clock, by the advance or `runUntilIdle()` that caused it).
///
/// Each call runs as code of the manager's phone (``EmulatedPhone/current``), as the app's code
/// on iOS runs on its one device: the class methods (`CLLocationManager.authorizationStatus()`),
/// a manager, `liveUpdates` or `CLMonitor` made in a callback, and the tasks it starts, read that
/// phone. (A served phone's mirror is not bound: the process's phone is the served one.)
final class DelegateDelivery: Sendable {
  private let clock: EmulatorClock
  let onMainActor: Bool
  private let phone: EmulatedPhone?

  init(bound: BoundPhone, onMainActor: Bool) {
    clock = bound.clock
    phone = bound.remote == nil ? bound.phone : nil
    self.onMainActor = onMainActor
  }

  /// Calls `body` as the manager's delegate calls are made: on the main actor, in order, when
  /// the manager was made there; otherwise on the clock's loop.
  func deliver(_ name: String, _ body: @escaping @Sendable () -> Void) {
    // The usual case on the main actor: the call runs now, wrapped in nothing.
    if onMainActor && clock.runsOnMainActorNow { return runBound(body) }
    let body = bindingPhone(body)
    if onMainActor {
      clock.runOnMainActor(body)
    } else {
      clock.enqueue(body)
    }
  }

  /// Calls `body` later, never from within the caller: the first authorization call, which
  /// iOS makes after the code that made the manager (and set its delegate) has run. On the
  /// main actor every call is later; on the clock it waits for the loop's next turn.
  func deliverLater(_ name: String, _ body: @escaping @Sendable () -> Void) {
    guard !onMainActor else { return deliver(name, body) }
    clock.enqueueWithoutDriving(bindingPhone(body))
    // A real-time clock's loop turns on its own only for timers: one due now turns it.
    if !clock.isVirtual { _ = clock.schedule(after: .zero) {} }
  }

  /// Runs `body` as code of the manager's phone.
  private func runBound(_ body: () -> Void) {
    guard let phone else { return body() }
    EmulatedPhone.$current.withValue(phone, operation: body)
  }

  /// `body` run as code of the manager's phone, later.
  private func bindingPhone(_ body: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
    guard phone != nil else { return body }
    return { self.runBound(body) }
  }
}
