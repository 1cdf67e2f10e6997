import MapRendering
import Emulator
import Foundation
import Geo
@_exported import EmulatorTesting
@_exported import TestSupport
import PermissionHandling
import PetMap
import LocationModel

let krakow = Coordinate(latitude: 50.0647, longitude: 19.9450)!

func date(_ iso: String) -> Date { ISO8601Time.parse(iso)! }

func announcement(
  _ id: String, _ coordinate: Coordinate, _ status: AnnouncementStatus = .active, created: String = "2026-05-01T10:00:00Z"
) -> Announcement {
  Announcement(id: id, coordinate: coordinate, status: status, createdAt: date(created), petName: "Pet \(id)")
}

/// An emulated phone on a virtual clock, with fixes sent by hand (or a source), and a map preview on it.
final class PreviewHarness: Sendable {
  let phone: EmulatedPhone
  let states = Recorder<MapPreviewState>()
  /// When each state came, since the phone started.
  let stateTimes = Recorder<Duration>()
  let taps = Recorder<Int>()
  let settingsTaps = Recorder<Int>()
  let logs = Recorder<String>()
  let preview: MapPreviewModel

  init(
    clock: EmulatorClock = makeClock(), status: LocationPermissionStatus = .authorizedWhenInUse, servicesEnabled: Bool = true,
    accuracy: LocationAccuracyAuthorization = .full, repository: (any AnnouncementRepository)? = nil,
    snapshotter: (any MapSnapshotting)? = nil, promptAnswer: PromptAnswer = .allowWhileUsing, source: PhoneSource = .none
  ) {
    phone = EmulatedPhone(
      .init(
        permission: PermissionState(appStatus: status, servicesEnabled: servicesEnabled, accuracy: accuracy), promptAnswer: promptAnswer,
        promptDelay: .seconds(1), source: source),
      clock: clock)
    let states = self.states, stateTimes = self.stateTimes, taps = self.taps, logs = self.logs
    let settingsTaps = self.settingsTaps, phone = self.phone
    preview = MapPreviewModel(
      scheduler: phone.clock, handler: LocationPermissionHandler(service: phone.service), repository: repository, snapshotter: snapshotter,
      onStateChange: {
        states.append($0)
        stateTimes.append(phone.elapsed)
      },
      onTap: { taps.append(1) }, onGoToSettings: { settingsTaps.append(1) }, log: { logs.append($0) })
  }

  var clock: EmulatorClock { phone.clock }
  var state: MapPreviewState { preview.state }
  var stateNames: [String] { states.all.map(\.name) }

  /// Starts the preview and lets it run as far as it can now (a load waits for a fix).
  func start() async throws {
    await preview.start()
    try await phone.runUntilIdle()
  }

  /// Sends a fix at `coordinate` now, and returns when everything it set off has happened.
  func deliverFix(at coordinate: Coordinate = warsaw) async {
    await phone.send(coordinate)
  }

  /// Starts the preview and gives it a fix: the common "authorized user opens the landing page".
  func startLoaded(at coordinate: Coordinate = warsaw) async throws -> Bool {
    try await start()
    await deliverFix(at: coordinate)
    return state.name == "map"
  }
}

/// A repository that answers after `delay` on the phone's clock.
struct SlowRepository: AnnouncementRepository {
  let clock: EmulatorClock
  let delay: Duration
  let answer: [Announcement]
  func announcements(for query: AnnouncementListQuery) async throws -> [Announcement] {
    try await clock.sleep(for: delay)
    return answer
  }
}

/// A repository whose backend is down.
struct FailingRepository: AnnouncementRepository {
  func announcements(for query: AnnouncementListQuery) async throws -> [Announcement] {
    throw AnnouncementError.httpStatus(503)
  }
}

/// A repository that records the queries it is asked.
final class RecordingRepository: AnnouncementRepository {
  let queries = Recorder<AnnouncementListQuery>()
  let answer: [Announcement]
  init(_ answer: [Announcement]) { self.answer = answer }
  func announcements(for query: AnnouncementListQuery) async throws -> [Announcement] {
    queries.append(query)
    return query.ordered(answer.filter { query.covers($0) && $0.status.isPinEligible })
  }
}

/// A snapshotter that fails, or never finishes until cancelled (sleeping on `clock`).
struct BrokenSnapshotter: MapSnapshotting {
  enum Mode: Sendable { case fail, hang(EmulatorClock) }
  let mode: Mode
  struct Failure: Error {}
  func snapshot(_ request: MapSnapshotRequest) async throws -> MapSnapshot {
    switch mode {
    case .fail: throw Failure()
    case .hang(let clock):
      try await clock.sleep(for: .seconds(3600))
      throw Failure()
    }
  }
}
