import Clocks
import Emulator
import Foundation
import Geo
@_exported import LocationTestSupport
import PermissionHandling
import PetMap

let warsaw = Coordinate(latitude: 52.2297, longitude: 21.0122)!
let krakow = Coordinate(latitude: 50.0647, longitude: 19.9450)!

/// The repository root, for the bundled files.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent()

func date(_ iso: String) -> Date { ISO8601Time.parse(iso)! }

func announcement(
  _ id: String, _ coordinate: Coordinate, _ status: AnnouncementStatus = .active, created: String = "2026-05-01T10:00:00Z"
) -> Announcement {
  Announcement(id: id, coordinate: coordinate, status: status, createdAt: date(created), petName: "Pet \(id)")
}

/// A point `meters` north of `c`.
func north(of c: Coordinate, _ meters: Double) -> Coordinate {
  Coordinate(latitude: c.latitude + meters / 111_195.08, longitude: c.longitude)!
}

/// The emulated phone on a test clock, with a hand-driven location source, and a map preview on it.
final class PreviewHarness: Sendable {
  let clock = TestClock()
  let source = ManualLocationSource()
  let emulator: PermissionEmulator<TestClock<Duration>>
  let service: LocationService<TestClock<Duration>>
  let handler: LocationPermissionHandler
  let states = Recorder<MapPreviewState>()
  let taps = Recorder<Int>()
  let settingsTaps = Recorder<Int>()
  let logs = Recorder<String>()
  let preview: MapPreviewModel<TestClock<Duration>>

  init(
    status: LocationPermissionStatus = .authorizedWhenInUse, servicesEnabled: Bool = true,
    repository: (any AnnouncementRepository)? = nil, snapshotter: (any MapSnapshotting)? = nil,
    promptAnswer: PromptAnswer = .allowWhileUsing
  ) {
    emulator = PermissionEmulator(
      initial: PermissionState(appStatus: status, servicesEnabled: servicesEnabled), promptAnswer: promptAnswer,
      promptDelay: .seconds(1), clock: clock)
    service = LocationService(emulator: emulator, source: source)
    handler = LocationPermissionHandler(service: service, lifecycle: emulator)
    let states = self.states, taps = self.taps, logs = self.logs, settingsTaps = self.settingsTaps
    preview = MapPreviewModel(
      handler: handler, repository: repository, snapshotter: snapshotter, clock: clock,
      onStateChange: { states.append($0) }, onTap: { taps.append(1) }, onGoToSettings: { settingsTaps.append(1) },
      log: { logs.append($0) })
  }

  var state: MapPreviewState { get async { await preview.state } }
  var stateNames: [String] { states.all.map(\.name) }

  /// Waits until the preview is in the state named `name`.
  @discardableResult
  func until(_ name: String) async -> Bool {
    await waitUntil { await self.preview.state.name == name }
  }

  /// Sends fixes at `coordinate` until the preview leaves `loading` (the request must be
  /// waiting when a fix comes, as on a device).
  @discardableResult
  func deliverFix(at coordinate: Coordinate = warsaw) async -> Bool {
    await waitUntil {
      guard await self.preview.state == .loading else { return true }
      self.source.send(coordinate)
      await settle()
      return await self.preview.state != .loading
    }
  }

  /// Sends fixes until the location service has taken one (for loads that then wait on something else).
  @discardableResult
  func deliverFixToService(at coordinate: Coordinate = warsaw) async -> Bool {
    await waitUntil {
      self.source.send(coordinate)
      await settle()
      return await self.service.latestFix != nil
    }
  }

  /// Starts the preview and, when it loads, gives it a fix: the common "authorized user opens the landing page".
  func startLoaded(at coordinate: Coordinate = warsaw) async -> Bool {
    await preview.start()
    guard await deliverFix(at: coordinate) else { return false }
    await preview.waitForLoad()
    return await preview.state.name == "map"
  }
}

/// A repository that answers after `delay` on `clock`.
struct SlowRepository: AnnouncementRepository {
  let clock: TestClock<Duration>
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
  enum Mode: Sendable { case fail, hang(TestClock<Duration>) }
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

/// Runs `executable` with `arguments`; returns its exit status and standard output.
func run(_ executable: String, _ arguments: [String], stdin: String? = nil) throws -> (status: Int32, stdout: String, stderr: String) {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: executable)
  process.arguments = arguments
  let out = Pipe(), err = Pipe()
  process.standardOutput = out
  process.standardError = err
  try process.run()
  let stdout = out.fileHandleForReading.readDataToEndOfFile()
  let stderr = err.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
}
