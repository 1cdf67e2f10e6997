public import CoreLocation
public import Foundation
import Geo
public import MapRendering
import LocationModel
import Dispatch

/// The kind of map drawn (the emulator draws its own map whatever the type).
public enum MKMapType: UInt, Sendable {
  /// A street map with roads and labels.
  case standard = 0
  /// Satellite imagery.
  case satellite = 1
  /// Satellite imagery with roads and labels.
  case hybrid = 2
  /// Satellite imagery with 3D flyover where available.
  case satelliteFlyover = 3
  /// Hybrid imagery with 3D flyover where available.
  case hybridFlyover = 4
  /// A street map with subdued colours, so the app's data stands out.
  case mutedStandard = 5
}

/// A snapshot's picture. There is no UIImage on Linux: the picture is SVG, drawn by the
/// project's renderer, and ``pngData()`` rasterizes it as UIImage's `pngData()` gives PNG.
public final class MKSnapshotImage: Sendable {
  /// The SVG document.
  public let svg: String
  /// The size in points.
  public let size: CGSize
  /// Pixels per point.
  public let scale: CGFloat

  init(svg: String, size: CGSize, scale: CGFloat) {
    self.svg = svg
    self.size = size
    self.scale = scale
  }

  /// The SVG document's bytes (UTF-8).
  public var svgData: Data { Data(svg.utf8) }

  /// The picture as PNG, `size` × `scale` pixels, rasterized by `rsvg-convert` (Debian's
  /// librsvg2-bin); nil when it is not installed, fails, or has not finished within 60 s (it is
  /// then killed), as `UIImage.pngData()` is nil when there is no picture.
  ///
  /// Synchronous, as `UIImage.pngData()` is: it blocks the calling thread while `rsvg-convert`
  /// runs (a tenth of a second to seconds; at most about 60 s). Call it from a thread of your
  /// own (in a test, EmulatorTesting's `offPool`), not from a task on Swift's cooperative pool,
  /// whose few threads (as many as the machine has cores) every other task waits for.
  public func pngData() -> Data? {
    guard let tool = ["/usr/bin/rsvg-convert", "/usr/local/bin/rsvg-convert"].first(where: FileManager.default.isExecutableFile(atPath:))
    else { return nil }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = ["--format=png"]
    let input = Pipe(), output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    do { try process.run() } catch { return nil }
    let svg = svgData
    let writer = Thread {
      input.fileHandleForWriting.write(svg)
      try? input.fileHandleForWriting.close()
    }
    writer.start()
    // The output is read on a thread of its own and this one waits for it, bounded: a rasterizer
    // that hangs is killed, and its output then ends. (Not a timer on `DispatchQueue.global()`,
    // whose threads Swift's tasks share on Linux: with the pool busy the kill could come late.)
    let png = Locked(Data())
    let finished = DispatchSemaphore(value: 0)
    let reader = Thread {
      let bytes = output.fileHandleForReading.readDataToEndOfFile()
      png.withLock { $0 = bytes }
      finished.signal()
    }
    reader.start()
    if finished.wait(timeout: .now() + 60) == .timedOut {
      // Its output still open, the rasterizer still runs (it starts no process of its own), so
      // the pid is still its own.
      kill(process.processIdentifier, SIGKILL)
      finished.wait()
    }
    process.waitUntilExit()
    let bytes = png.withLock { $0 }
    return process.terminationStatus == 0 && bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) ? bytes : nil
  }
}

/// Makes a picture of a map region, as MapKit's does: with the emulator's renderer, drawing the
/// layers of ``layers`` (a basemap, raster tiles; none by default, a plain background) and no
/// annotations (as on iOS, the app draws its own on the picture with ``Snapshot/point(for:)``).
open class MKMapSnapshotter: NSObject, @unchecked Sendable {
  /// The handler of a snapshot: the snapshot, or nil and the error.
  public typealias CompletionHandler = @Sendable (Snapshot?, (any Error)?) -> Void

  /// What every snapshotter of the process draws under the map: set by a test or a program
  /// (say, `TileDirectoryLayer(path:)`). When empty, the directory of slippy-map tiles in the
  /// environment variable `LOCEMU_MAP_TILES` is used, if set.
  public static var layers: [any MapSnapshotLayer] {
    get { configuredLayers.withLock { $0 } }
    set { configuredLayers.withLock { $0 = newValue } }
  }
  private static let configuredLayers = Locked<[any MapSnapshotLayer]>([])

  static var effectiveLayers: [any MapSnapshotLayer] {
    let layers = Self.layers
    if layers.isEmpty, let tiles = ProcessInfo.processInfo.environment["LOCEMU_MAP_TILES"], !tiles.isEmpty {
      return [TileDirectoryLayer(path: tiles)]
    }
    return layers
  }

  /// What to draw.
  open class Options: NSObject, NSCopying, @unchecked Sendable {
    /// The region; setting it sets ``mapRect``. By default a region of 1,000 km around the
    /// emulated phone's default place (central Helsinki) — on iOS, the user's country.
    open var region = MKCoordinateRegion(
      center: CLLocationCoordinate2D(latitude: 60.1699, longitude: 24.9384), latitudinalMeters: 1_000_000, longitudinalMeters: 1_000_000)
    /// The region as a map rect.
    open var mapRect: MKMapRect {
      get { MKMapRect(region: region) }
      set { region = MKCoordinateRegion(newValue) }
    }
    /// The kind of map; standard by default. Has no effect here: the emulator draws its own map.
    open var mapType = MKMapType.standard
    /// Whether buildings are drawn; true by default. Has no effect here.
    open var showsBuildings = true
    /// Whether points of interest are drawn; true by default. Has no effect here.
    open var showsPointsOfInterest = true
    /// Points; 256 × 256 by default.
    open var size = CGSize(width: 256, height: 256)
    /// Pixels per point (the emulated phone's screen: 2).
    open var scale: CGFloat = 2

    /// Options with the defaults: a 1,000 km region around central Helsinki, 256 × 256 points at scale 2.
    public override init() { super.init() }

    /// New options with the same region, map type, flags, size and scale.
    ///
    /// - Parameter zone: Unused.
    /// - Returns: The copy.
    open func copy(with zone: NSZone? = nil) -> Any {
      let copy = Options()
      copy.region = region
      copy.mapType = mapType
      copy.showsBuildings = showsBuildings
      copy.showsPointsOfInterest = showsPointsOfInterest
      copy.size = size
      copy.scale = scale
      return copy
    }
  }

  /// A picture of the map and where coordinates are on it.
  open class Snapshot: NSObject, @unchecked Sendable {
    /// The picture (SVG, and PNG through ``MKSnapshotImage/pngData()``).
    open var image: MKSnapshotImage { picture }
    private let picture: MKSnapshotImage
    private let projection: SnapshotProjection

    init(image: MKSnapshotImage, projection: SnapshotProjection) {
      picture = image
      self.projection = projection
    }

    /// The point of the picture (in points, origin at the top left) where `coordinate` is.
    open func point(for coordinate: CLLocationCoordinate2D) -> CGPoint {
      guard let c = Coordinate(latitude: coordinate.latitude, longitude: coordinate.longitude) else {
        return CGPoint(x: CGFloat.nan, y: .nan)
      }
      let p = projection.point(for: c)
      return CGPoint(x: p.x / Double(picture.scale), y: p.y / Double(picture.scale))
    }
  }

  private let options: Options
  private let state = Locked<(task: Task<Void, Never>?, loading: Bool)>((nil, false))

  /// A snapshotter that draws with a copy of `options` (later changes to them do not count).
  ///
  /// - Parameter options: What to draw.
  public init(options: Options) {
    self.options = options.copy() as! Options
    super.init()
  }

  /// Whether a snapshot is being drawn.
  open var isLoading: Bool { state.withLock { $0.loading } }

  /// Draws the snapshot.
  /// - Throws: ``MKError`` `.unknown` for a size the renderer refuses (empty, or over 16,384
  ///   pixels a side) or a region that is not one; a layer's error when its data cannot be
  ///   read; `CancellationError` after ``cancel()``.
  open func start() async throws -> Snapshot {
    let options = self.options
    let layers = Self.effectiveLayers
    state.withLock { $0.loading = true }
    defer { state.withLock { $0.loading = false } }
    let width = Int((Double(options.size.width) * Double(options.scale)).rounded())
    let height = Int((Double(options.size.height) * Double(options.scale)).rounded())
    guard let region = options.region.mapRegion, width > 0, height > 0, width <= 16_384, height <= 16_384 else {
      throw MKError(.unknown, userInfo: [NSLocalizedDescriptionKey: "The snapshot's region or size is not one to draw."])
    }
    let renderer = SVGMapSnapshotter(layers: layers, radiusMeters: nil)
    let request = MapSnapshotRequest(region: region, width: width, height: height)
    let drawn = try await renderer.snapshot(request)
    try Task.checkCancellation()
    let image = MKSnapshotImage(svg: drawn.svg, size: options.size, scale: options.scale)
    return Snapshot(image: image, projection: drawn.projection)
  }

  /// Draws the snapshot, as `start()` does; `queue` is not used.
  ///
  /// - Parameter queue: The queue of the answer on iOS. Has no effect here.
  /// - Returns: The snapshot.
  /// - Throws: `MKError` `.unknown` for a size the renderer refuses or a region that is not one;
  ///   a layer's error when its data cannot be read; `CancellationError` when cancelled.
  open func start(with queue: DispatchQueue) async throws -> Snapshot { try await start() }

  /// Draws the snapshot and calls `completionHandler` on the main queue, as MapKit does.
  @preconcurrency
  open func start(completionHandler: @escaping CompletionHandler) { start(with: .main, completionHandler: completionHandler) }

  /// Draws the snapshot and calls `completionHandler` on `queue`.
  @preconcurrency
  open func start(with queue: DispatchQueue, completionHandler: @escaping CompletionHandler) {
    let task = Task {
      let result: Result<Snapshot, any Error>
      do { result = .success(try await self.start()) } catch { result = .failure(error) }
      queue.async {
        switch result {
        case .success(let snapshot): completionHandler(snapshot, nil)
        case .failure(let error): completionHandler(nil, error)
        }
      }
    }
    state.withLock { $0.task = task }
  }

  /// Stops a snapshot begun with a completion handler (which is then called with an error).
  open func cancel() { state.withLock { $0.task }?.cancel() }
}
