public import MapRendering
public import Geo
public import LocationModel

/// The fullscreen map (the fullscreen-map-with-legend spec): its region, title, legend and the
/// viewport the gestures move.
///
/// - The first region is 10 km around the user's location when there is one and permission
///   is granted (FR-005), else `defaultRegion` (FR-006).
/// - The legend shows Missing and Found with their pin colours (FR-007, FR-009), localized.
/// - Pinch, pan and double tap move ``viewport`` (FR-002–FR-004), clamped to sane spans.
/// - Going to the background saves the viewport to ``store``, and returning restores it
///   (FR-010); a new model for the same store starts where the last one left off. A change of
///   view size keeps centre and scale (FR-011).
public final class FullscreenMapViewModel: Sendable {
  /// Warsaw's centre, about 10 km across: where the map opens without a user location.
  public static let warsaw = MapRegion(
    center: Coordinate(latitude: 52.2297, longitude: 21.0122)!, latitudinalMeters: 20_000, longitudinalMeters: 20_000)

  public let initialRegion: MapRegion
  /// Whether the map opened on the user (false: on the default region).
  public let isCenteredOnUser: Bool
  public let title: String
  public let legend: [LegendItem]
  public let strings: MapStrings
  public let store: ViewportStore
  private let state: Locked<MapViewport>

  /// - Parameters:
  ///   - userLocation: the location the landing page captured (nil: none).
  ///   - permissionGranted: whether location is authorized now.
  ///   - defaultRegion: where to open without a location or permission.
  ///   - size: the map view's size in points.
  ///   - strings: the user-facing strings of the title and legend (their language).
  ///   - store: where the viewport is kept across background/foreground; when it already
  ///     holds one, the map opens there.
  public init(
    userLocation: Coordinate?, permissionGranted: Bool, defaultRegion: MapRegion = FullscreenMapViewModel.warsaw,
    size: ScreenSize = ScreenSize(width: 390, height: 844), strings: MapStrings = MapStrings(),
    store: ViewportStore = ViewportStore()
  ) {
    if let userLocation, permissionGranted {
      initialRegion = userLocation.mapRegion(radiusMeters: 10_000)
      isCenteredOnUser = true
    } else {
      initialRegion = defaultRegion
      isCenteredOnUser = false
    }
    title = strings.fullscreenMapTitle
    legend = LegendItem.legend(strings)
    self.strings = strings
    self.store = store
    var viewport = store.saved ?? MapViewport(region: initialRegion, size: size)
    viewport.resize(to: size)
    state = Locked(viewport)
  }

  /// What the map shows now.
  public var viewport: MapViewport { state.withLock { $0 } }

  public func pinch(scale: Double, at anchor: ScreenPoint? = nil) { state.withLock { $0.pinch(scale: scale, at: anchor) } }
  public func pan(dx: Double, dy: Double) { state.withLock { $0.pan(dx: dx, dy: dy) } }
  public func doubleTap(at point: ScreenPoint) { state.withLock { $0.doubleTap(at: point) } }
  public func resize(to size: ScreenSize) { state.withLock { $0.resize(to: size) } }

  /// The map as the screen shows it now: the viewport's region at its zoom and size (points as
  /// pixels), `pins` and the user on it, the legend in its corner, drawn by `renderer` (with its
  /// basemap or tiles, if any).
  /// - Parameters:
  ///   - renderer: the snapshotter that draws the map, with its basemap or tiles, if any.
  ///   - pins: the pins to draw.
  ///   - userLocation: the user's location to draw (nil: none).
  ///   - zoom: draw at this zoom around the viewport's centre instead of the viewport's
  ///     own (a closer look in the same frame; the viewport does not change).
  public func snapshot(
    with renderer: SVGMapSnapshotter, pins: [PinModel], userLocation: Coordinate?, zoom: Double? = nil
  ) throws
    -> MapSnapshot
  {
    var viewport = self.viewport
    if let zoom { viewport = MapViewport(center: viewport.center, zoom: zoom, size: viewport.size) }
    var renderer = renderer
    renderer.radiusMeters = nil
    return try renderer.render(
      MapSnapshotRequest(
        region: viewport.region, pins: pins.map(\.mapPin), userLocation: userLocation, legend: legend.map(\.entry),
        width: Int(viewport.size.width.rounded()),
        height: Int(viewport.size.height.rounded())))
  }

  /// The app moved to the background or came back: save, or restore, the viewport.
  public func appStateChanged(_ app: AppState) {
    switch app {
    case .background: store.save(viewport)
    case .foreground:
      if let saved = store.saved {
        state.withLock { current in
          let size = current.size
          current = saved
          current.resize(to: size)
        }
      }
    }
  }
}

/// Keeps a map's viewport while the app is away (the platform's state restoration).
public final class ViewportStore: Sendable {
  private let value = Locked<MapViewport?>(nil)
  public init() {}
  public var saved: MapViewport? { value.withLock { $0 } }
  public func save(_ viewport: MapViewport) { value.withLock { $0 = viewport } }
}
