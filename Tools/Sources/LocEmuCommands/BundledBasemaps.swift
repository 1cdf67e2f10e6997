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
      try Basemap(path: try cachedBuild(of: data.appendingPathComponent(helsinkiExtract)).path),
    ]
  }

  /// The basemap of `extract`, built once into `$XDG_CACHE_HOME/locemu` (else `~/.cache/locemu`,
  /// else the temporary directory) under a name that changes with the extract's contents and the
  /// builder's format (so every clone of one revision shares one file, and a changed extract gets
  /// a new one). Servers starting together build it once: the first takes the name's lock file
  /// and builds, the others wait for the lock and then read what it wrote. Written to a temporary
  /// name and renamed, so no reader ever sees half a file, even without the lock.
  /// - Returns: the basemap's path, and whether this call built it.
  static func cachedBuild(of extract: URL, in directory: URL = cacheDirectory()) throws -> (path: String, built: Bool) {
    let contents = try Data(contentsOf: extract)
    let name = extract.deletingPathExtension().deletingPathExtension().lastPathComponent
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let path = directory.appendingPathComponent("\(name)-\(contentKey(contents))-\(Basemap.formatName).basemap").path
    if (try? Basemap(path: path)) != nil { return (path, false) }
    // The kernel releases the lock when its holder ends, however it ends.
    let lock = Glibc.open(path + ".lock", O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
    defer { if lock >= 0 { close(lock) } }
    if lock >= 0 {
      while flock(lock, LOCK_EX) != 0 && errno == EINTR {}
      if (try? Basemap(path: path)) != nil { return (path, false) }
    }
    let partial = path + ".\(getpid()).partial"
    defer { try? FileManager.default.removeItem(atPath: partial) }
    _ = try BasemapBuilder.build(pbf: extract.path, output: partial)
    guard rename(partial, path) == 0 else {
      throw BasemapError(message: "cannot write \(path): \(String(cString: strerror(errno)))")
    }
    return (path, true)
  }

  /// The byte count and 16 hex digits of `contents`' FNV-1a hash (64 bits): a cache key that
  /// changes with the contents, not a checksum against tampering.
  static func contentKey(_ contents: Data) -> String {
    let hash = contents.withUnsafeBytes { bytes in
      bytes.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }
    let hex = String(hash, radix: 16)
    return "\(contents.count)-" + String(repeating: "0", count: 16 - hex.count) + hex
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
