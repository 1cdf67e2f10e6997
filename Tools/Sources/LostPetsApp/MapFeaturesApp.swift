package import Emulator
import Foundation
package import Geo
package import LocationModel
package import PermissionHandling
package import PetMap
package import MapRendering
package import Scenarios

/// The lost-pets app's map features wired together on the emulator, as a ``ScenarioApp``: the
/// landing page with its map preview, the navigation coordinator and the fullscreen map. The
/// app's composition root, for every place that runs the app: `locemu preview`, and a phone
/// that `locemu serve` makes with `mapFeatures` (its map events through `POST /phones/{id}/events`,
/// its lines on the phone's event stream).
///
/// Scenario events: `tap` goes to the preview while the landing page is on top (the preview
/// calls back only in its map state, and the callback pushes the fullscreen map); `back` and
/// `swipeBack` pop; `retry` retries the preview; `background`/`foreground` reach the
/// fullscreen map's viewport.
///
/// Transcript lines: `preview` on every preview state (`preview`: loading, map,
/// permissionRequired, error; in the map state `center` [lat, lon], `radiusMeters`,
/// `latitudeDelta`, `longitudeDelta`, `pins`, `pinIds`; otherwise `message`); `navigation` on
/// every push or pop (`screen`, `action`, `trigger`, `stack`); `fullscreenMap` when the map is
/// shown (`center`, `centeredOnUser`, `zoom`, `title`, `legend`); `tapIgnored` (`preview`,
/// `reason`); `log` for the debugging output (the tap callback, backend errors, failures).
package final class MapFeaturesApp: ScenarioApp {
  package let landing: LandingPageViewModel
  package let navigation: NavigationCoordinator
  package let viewportStore = ViewportStore()
  private let emitter = Locked<(@Sendable (String, [TranscriptLine.Member]) -> Void)?>(nil)

  /// - Parameters:
  ///   - phone: the phone the app runs on.
  ///   - handler: the permission handler the preview reads and observes (its own on the phone when nil).
  ///   - repository: where pins come from (nil: none).
  ///   - snapshotter: renders the preview (nil: no image).
  ///   - defaultRegion: where the fullscreen map opens without a location or permission.
  ///   - screenSize: the fullscreen map view's size, points.
  ///   - fullscreenSnapshotter: renders the fullscreen map each time it is shown (to its
  ///     `outputPath`); nil: no image.
  ///   - fullscreenSnapshotZoom: the zoom of that image around the map's centre (nil: the map's own).
  package init(
    phone: EmulatedPhone, handler: LocationPermissionHandler? = nil, repository: (any AnnouncementRepository)?,
    snapshotter: (any MapSnapshotting)?, strings: MapStrings = MapStrings(),
    defaultRegion: MapRegion = FullscreenMapViewModel.warsaw, screenSize: ScreenSize = ScreenSize(width: 390, height: 844),
    radiusMeters: Double = 10_000, fullscreenSnapshotter: SVGMapSnapshotter? = nil, fullscreenSnapshotZoom: Double? = nil
  ) {
    let emitter = self.emitter
    let emit: @Sendable (String, [TranscriptLine.Member]) -> Void = { event, members in
      emitter.withLock { $0 }?(event, members)
    }
    let navigationBox = Locked<NavigationCoordinator?>(nil)
    let preview = MapPreviewModel(
      scheduler: phone.clock, handler: handler ?? LocationPermissionHandler(service: phone.service), repository: repository,
      snapshotter: snapshotter, radiusMeters: radiusMeters,
      strings: strings, onStateChange: { state in emit("preview", Self.members(of: state, radiusMeters: radiusMeters)) },
      onTap: { navigationBox.withLock { $0 }?.showFullscreenMap() },
      onGoToSettings: { emit("log", [.string("message", "go to settings")]) },
      log: { message in emit("log", [.string("message", message)]) })
    landing = LandingPageViewModel(preview: preview)
    let store = viewportStore
    navigation = NavigationCoordinator(
      landing: landing, scheduler: phone.clock,
      makeFullscreenMap: {
        let state = phone.state
        let model = FullscreenMapViewModel(
          userLocation: preview.userLocation, permissionGranted: state.isDelivering, defaultRegion: defaultRegion, size: screenSize,
          strings: strings, store: store)
        let viewport = model.viewport
        // The fullscreen map as an image too, when asked (written where the snapshotter says).
        if let fullscreenSnapshotter {
          do {
            let snapshot = try model.snapshot(
              with: fullscreenSnapshotter, pins: preview.state.pins, userLocation: state.isDelivering ? preview.userLocation : nil,
              zoom: fullscreenSnapshotZoom)
            if let path = fullscreenSnapshotter.outputPath {
              try Data(snapshot.svg.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
            }
          } catch {
            emit("log", [.string("message", "fullscreen snapshot failed: \(error)")])
          }
        }
        emit(
          "fullscreenMap",
          [
            .raw("center", json: Self.pair(viewport.center)), .bool("centeredOnUser", model.isCenteredOnUser),
            .raw("zoom", json: FixRecord.fixed(viewport.zoom, 3)), .string("title", model.title),
            .raw("legend", json: "[" + model.legend.map { JSONText.quoted($0.label) }.joined(separator: ",") + "]"),
          ])
        return model
      },
      onChange: { change in
        emit(
          "navigation",
          [
            .string("screen", change.screen.rawValue), .string("action", change.action.rawValue),
            .string("trigger", change.trigger),
            .raw("stack", json: "[" + change.stack.map { JSONText.quoted($0.rawValue) }.joined(separator: ",") + "]"),
          ])
      })
    navigationBox.withLock { $0 = navigation }
  }

  package func start(emit: @escaping @Sendable (String, [TranscriptLine.Member]) -> Void) async {
    emitter.withLock { $0 = emit }
    await landing.preview.start()
  }

  package func handle(_ event: ScenarioEvent) {
    switch event {
    case .tap:
      guard navigation.topScreen == .landing else {
        emit("tapIgnored", [.string("reason", "the fullscreen map is on top")])
        return
      }
      let preview = landing.preview
      if !preview.tap() {
        emit("tapIgnored", [.string("preview", preview.state.name), .string("reason", "the preview is not showing the map")])
      }
    case .back: if !navigation.back() { emit("backIgnored", [.string("screen", navigation.topScreen.rawValue)]) }
    case .swipeBack: if !navigation.swipeBack() { emit("backIgnored", [.string("screen", navigation.topScreen.rawValue)]) }
    case .retry:
      let preview = landing.preview
      if !preview.retry() { emit("retryIgnored", [.string("preview", preview.state.name)]) }
    case .background: navigation.fullscreenMap?.appStateChanged(.background)
    case .foreground: navigation.fullscreenMap?.appStateChanged(.foreground)
    default: break
    }
  }

  package func stop() async {
    landing.preview.stop()
  }

  private func emit(_ event: String, _ members: [TranscriptLine.Member]) {
    emitter.withLock { $0 }?(event, members)
  }

  /// The transcript members of a preview state.
  package static func members(of state: MapPreviewState, radiusMeters: Double = 10_000) -> [TranscriptLine.Member] {
    var members: [TranscriptLine.Member] = [.string("preview", state.name)]
    switch state {
    case .loading: break
    case .map(let region, let pins):
      members += [
        .raw("center", json: pair(region.center)),
        .raw("radiusMeters", json: FixRecord.fixed(radiusMeters, 0)),
        .raw("latitudeDelta", json: FixRecord.fixed(region.latitudeDelta, 6)),
        .raw("longitudeDelta", json: FixRecord.fixed(region.longitudeDelta, 6)),
        .raw("pins", json: String(pins.count)),
        .raw("pinIds", json: "[" + pins.map { JSONText.quoted($0.id) }.joined(separator: ",") + "]"),
      ]
    case .permissionRequired(let message), .error(let message):
      members.append(.string("message", message))
    }
    return members
  }

  package static func pair(_ c: Coordinate) -> String {
    "[\(FixRecord.fixed(c.latitude, 7)),\(FixRecord.fixed(c.longitude, 7))]"
  }
}
