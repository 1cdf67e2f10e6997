public import Emulator
import Geo
public import LocationModel

/// Records everything an `EmulatedPhone` reports, synchronously and in order, for
/// a test to check right after an advance (it observes the phone: no task, no waiting).
///
/// ```swift
/// let phone = EmulatedPhone(.init(promptAnswer: .deny))
/// let recorder = PhoneRecorder(phone)
/// _ = phone.start { await phone.requestWhenInUseAuthorization() }
/// try await phone.advance(by: .seconds(1))
/// #expect(recorder.permissionEvents.last == .promptAnswered(.deny, status: .denied))
/// ```
public final class PhoneRecorder: Sendable {
  private let events = Recorder<PhoneEvent>()
  /// The observation; cancel it to stop recording.
  public let observation: PhoneObservation

  /// Starts recording what `phone` reports.
  ///
  /// - Parameter phone: The phone to observe.
  public init(_ phone: EmulatedPhone) {
    let events = self.events
    observation = phone.observe { events.append($0) }
  }

  /// Everything, in order.
  public var all: [PhoneEvent] { events.all }
  /// The operating system's permission events: prompts, answers, dismissals, lapses.
  public var permissionEvents: [PermissionEvent] { all.compactMap { if case .permission(let e) = $0 { e } else { nil } } }
  /// The fixes the app's continuous stream got.
  public var locations: [LocationFix] { all.compactMap { if case .location(let f) = $0 { f } else { nil } } }
  /// The statuses the app read, one per change.
  public var statuses: [LocationPermissionStatus] {
    all.compactMap { if case .stateChanged(let from, let to) = $0, from.status != to.status { to.status } else { nil } }
  }
}
