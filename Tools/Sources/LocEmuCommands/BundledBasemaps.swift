import Basemap
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The maps that come with the repository, drawn by `locemu serve` when it is given none of its
/// own: land, sea and lakes of the whole world (GSHHG at resolution l, `data/shoreline`), the
/// Gulf of Finland's finer coast, and Helsinki's streets (built from `data/helsinki`'s
/// OpenStreetMap extract on first use into the user's cache, a fraction of a second).
///
/// The data directory is the clone's `data/` (found from this file's path at build time), or
/// `$LOCEMU_DATA` when set (a binary moved away from its clone).
enum BundledBasemaps {
  /// `data/` of the clone this binary was built from, or `$LOCEMU_DATA`.
  static var dataDirectory: URL {
    if let path = ProcessInfo.processInfo.environment["LOCEMU_DATA"], !path.isEmpty {
      return URL(fileURLWithPath: path, isDirectory: true)
    }
    // Tools/Sources/LocEmuCommands/BundledBasemaps.swift → the clone's root.
    var root = URL(fileURLWithPath: #filePath)
    for _ in 0..<4 { root.deleteLastPathComponent() }
    return root.appendingPathComponent("data", isDirectory: true)
  }

  static let world = "shoreline/world-low.basemap"
  static let gulfOfFinland = "shoreline/gulf-of-finland.basemap"
  static let helsinkiExtract = "helsinki/Helsinki.osm.pbf"

  /// The bundled basemaps in drawing order (the world, the Gulf's finer coast, Helsinki).
  /// - Throws: ``BasemapError`` when the data directory lacks them (with how to point at it).
  static func open() throws -> [Basemap] {
    let data = dataDirectory
    let missing = [world, gulfOfFinland, helsinkiExtract].filter {
      !FileManager.default.fileExists(atPath: data.appendingPathComponent($0).path)
    }
    guard missing.isEmpty else {
      throw BasemapError(
        message: "the bundled maps are not in \(data.path) (\(missing.joined(separator: ", ")) missing): "
          + "set LOCEMU_DATA to a clone's data directory, or give --basemap and --no-bundled-basemaps")
    }
    return [
      try Basemap(path: data.appendingPathComponent(world).path),
      try Basemap(path: data.appendingPathComponent(gulfOfFinland).path),
      try Basemap(path: try cachedBuild(of: data.appendingPathComponent(helsinkiExtract))),
    ]
  }

  /// The basemap of `extract`, built once into `$XDG_CACHE_HOME/locemu` (else `~/.cache/locemu`,
  /// else the temporary directory) under a name that changes with the extract's size and time,
  /// and the builder's format; written to a temporary name and renamed, so two servers starting
  /// at once never read half a file.
  static func cachedBuild(of extract: URL) throws -> String {
    let attributes = try FileManager.default.attributesOfItem(atPath: extract.path)
    let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
    let time = Int((attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)
    let name = extract.deletingPathExtension().deletingPathExtension().lastPathComponent
    let directory = cacheDirectory()
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let path = directory.appendingPathComponent("\(name)-\(size)-\(time)-\(Basemap.formatName).basemap").path
    if (try? Basemap(path: path)) != nil { return path }
    let partial = path + ".\(getpid()).partial"
    defer { try? FileManager.default.removeItem(atPath: partial) }
    _ = try BasemapBuilder.build(pbf: extract.path, output: partial)
    guard rename(partial, path) == 0 else {
      throw BasemapError(message: "cannot write \(path): \(String(cString: strerror(errno)))")
    }
    return path
  }

  static func cacheDirectory() -> URL {
    let environment = ProcessInfo.processInfo.environment
    if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
      return URL(fileURLWithPath: xdg).appendingPathComponent("locemu", isDirectory: true)
    }
    if let home = environment["HOME"], home.hasPrefix("/"), FileManager.default.isWritableFile(atPath: home) {
      return URL(fileURLWithPath: home).appendingPathComponent(".cache/locemu", isDirectory: true)
    }
    return FileManager.default.temporaryDirectory.appendingPathComponent("locemu-cache-\(getuid())", isDirectory: true)
  }
}
