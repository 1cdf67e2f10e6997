import Geo
public import LocationModel

/// The app's view of an ``EmulatedPhone``'s location and permission: the seed's
/// `LocationServiceProtocol`, and the app's lifecycle for observers that re-check permission
/// on return to the foreground.
///
/// Every wait (the prompt, a location request, a stream's next value) is a wait on the
/// phone's clock, so a task the clock started is counted as waiting, and an advance knows
/// when it has taken what was delivered.
public struct LocationService: LocationServiceProtocol, AppLifecycleProviding {
  /// The phone this service reads.
  public let phone: EmulatedPhone

  /// The app's view of `phone`.
  /// - Parameter phone: the phone to read.
  public init(phone: EmulatedPhone) { self.phone = phone }

  /// The status the app reads now (``EmulatedPhone/status``).
  public var authorizationStatus: LocationPermissionStatus { get async { phone.status } }
  /// See ``EmulatedPhone/statusUpdates()``.
  public var authorizationStatusStream: AsyncStream<LocationPermissionStatus> { phone.statusUpdates() }
  /// Whether Location Services are on now.
  public var locationServicesEnabled: Bool { get async { phone.state.servicesEnabled } }
  /// See ``EmulatedPhone/servicesEnabledUpdates()``.
  public var locationServicesStream: AsyncStream<Bool> { phone.servicesEnabledUpdates() }
  /// Full or reduced accuracy, as the phone's permission state holds it now.
  public var accuracyAuthorization: LocationAccuracyAuthorization { get async { phone.state.accuracy } }

  /// See ``EmulatedPhone/requestWhenInUseAuthorization()``.
  public func requestWhenInUseAuthorization() async -> LocationPermissionStatus {
    await phone.requestWhenInUseAuthorization()
  }

  /// Asks for one location and waits for it (see ``EmulatedPhone/requestLocationResult()``).
  /// - Returns: the coordinate that arrived, or nil when the request ended without one.
  public func requestLocation() async -> Coordinate? { await phone.requestLocationResult().location }

  /// See ``EmulatedPhone/requestLocationResult()``.
  public func requestLocationResult() async -> LocationRequestResult { await phone.requestLocationResult() }

  /// See ``EmulatedPhone/locations()``.
  public func locations() -> AsyncStream<LocationFix> { phone.locations() }

  /// See ``EmulatedPhone/appStateUpdates()``.
  public func appStateUpdates() -> AsyncStream<AppState> { phone.appStateUpdates() }
}

/// Runs `body` with a new phone, then shuts the phone down: when this returns (or throws),
/// nothing of the phone is left — no task, timer, subscriber, observer or open file.
///
/// The phone runs (``EmulatedPhone/run()``) beside the body: on a real-time clock its timers
/// fire, and a live source is read.
///
/// - Parameters:
///   - configuration: how the phone starts (``EmulatedPhone/Configuration``).
///   - clock: the clock to run on; a new virtual clock of the phone's own when nil.
///   - binding: which code the phone belongs to: the body's task tree (``PhoneBinding/task``,
///     the default), or the whole process (``PhoneBinding/process``) for code under test that
///     leaves the task tree (`Task.detached`, `DispatchQueue`), one such body at a time.
///   - isolation: the actor the body runs on; the caller's by default.
///   - body: the code to run with the phone; what it returns, this returns.
public func withEmulatedPhone<Result>(
  _ configuration: EmulatedPhone.Configuration = EmulatedPhone.Configuration(), clock: EmulatorClock? = nil,
  binding: PhoneBinding = .task, isolation: isolated (any Actor)? = #isolation, _ body: (EmulatedPhone) async throws -> Result
) async rethrows -> Result {
  let phone = EmulatedPhone(configuration, clock: clock)
  return try await withThrowingTaskGroup(of: Void.self, returning: Result.self) { group in
    group.addTask { await phone.run() }
    do {
      let result: Result
      switch binding {
      case .task:
        result = try await EmulatedPhone.$current.withValue(phone, operation: { try await body(phone) }, isolation: isolation)
      case .process:
        result = try await ProcessBindingSlot.shared.withBinding(phone) {
          try await EmulatedPhone.$current.withValue(phone, operation: { try await body(phone) }, isolation: isolation)
        }
      }
      group.cancelAll()
      return result
    } catch {
      group.cancelAll()
      throw error
    }
  }
}

extension LocationService: PermissionObserving {
  /// The status the app reads and whether Location Services are on, now.
  public var currentPermission: (status: LocationPermissionStatus, servicesEnabled: Bool) {
    let state = phone.state
    return (state.status, state.servicesEnabled)
  }

  /// Every change of the phone's permission state, synchronously, in the phone's order (see
  /// ``EmulatedPhone/observe(_:_:)``).
  public func observePermission(
    _ onChange: @escaping @Sendable (_ status: LocationPermissionStatus, _ servicesEnabled: Bool) -> Void
  ) -> Cancellation {
    let observation = phone.observe(.stateChanged) { event in
      guard case .stateChanged(_, let to) = event else { return }
      onChange(to.status, to.servicesEnabled)
    }
    return Cancellation { observation.cancel() }
  }
}
