public import Emulator
public import Testing

/// A Swift Testing trait that runs a test on an emulated phone of its own, made with
/// `withEmulatedPhone(_:clock:binding:isolation:_:)`; the test reads it as
/// `EmulatedPhone.current`.
///
/// ```swift
/// @Test(.emulatedPhone(.init(permission: .init(servicesEnabled: false)), binding: .process))
/// func aWrapperSeesServicesOffFromDetachedWork() async throws {
///   let phone = try #require(EmulatedPhone.current)
///   #expect(await Task.detached { CLLocationManager.locationServicesEnabled() }.value == false)
///   try await phone.advance(by: .seconds(1))
/// }
/// ```
///
/// With `PhoneBinding.process` (the trait's default) the phone is the process's
/// while the test runs, so code that leaves the task tree (`Task.detached`, `DispatchQueue`,
/// threads) reads it too; such tests run one at a time, the others in parallel beside them.
public struct EmulatedPhoneTrait: TestTrait, SuiteTrait, TestScoping {
  /// The phone's configuration.
  public var configuration: EmulatedPhone.Configuration
  /// Which code the phone belongs to.
  public var binding: PhoneBinding

  /// Always `true`: put on a suite, the trait applies to every test inside it.
  public var isRecursive: Bool { true }

  /// Each test case gets a phone of its own (a suite's trait reaches each of its tests' cases).
  public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? { testCase == nil ? nil : self }

  /// Runs the test case inside `withEmulatedPhone` with this trait's configuration and binding.
  ///
  /// - Parameters:
  ///   - test: The test being run.
  ///   - testCase: The test case being run.
  ///   - function: The test case's body, run while the phone exists.
  /// - Throws: Whatever creating the phone or the test's body throws.
  @concurrent
  public func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @concurrent @Sendable () async throws -> Void
  ) async throws {
    try await withEmulatedPhone(configuration, binding: binding) { _ in try await function() }
  }
}

extension Trait where Self == EmulatedPhoneTrait {
  /// Runs the test on a new emulated phone (see ``EmulatedPhoneTrait``).
  public static func emulatedPhone(
    _ configuration: EmulatedPhone.Configuration = EmulatedPhone.Configuration(), binding: PhoneBinding = .process
  ) -> Self {
    EmulatedPhoneTrait(configuration: configuration, binding: binding)
  }
}
