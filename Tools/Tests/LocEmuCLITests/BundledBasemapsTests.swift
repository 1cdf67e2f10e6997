import Basemap
import EmulatorTesting
import Foundation
import Testing
import ToolsTestSupport

@testable import LocEmuCommands

/// The Helsinki basemap `serve` and `preview` build from the bundled extract on first use.
@Suite("bundled basemaps' cache")
struct BundledBasemapsTests {
  static let extract = repositoryRoot.appendingPathComponent("data/helsinki/Helsinki.osm.pbf")

  static func temporaryDirectory() throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("locemu-cache-test-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
  }

  /// Servers starting together (a test suite, a fleet of CI jobs on one runner) build it once:
  /// each gets the same file, whole, and no partial file is left behind.
  @Test func serversStartingTogetherShareOneBuild() async throws {
    let cache = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: cache) }
    let results = try await withThrowingTaskGroup(of: (path: String, built: Bool).self) { group in
      for _ in 0..<4 {
        group.addTask { try await offPool { try BundledBasemaps.cachedBuild(of: Self.extract, in: cache) } }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    let paths = Set(results.map(\.path))
    #expect(paths.count == 1)
    #expect(results.filter(\.built).count == 1)
    let files = try FileManager.default.contentsOfDirectory(atPath: cache.path).sorted()
    #expect(files.filter { $0.hasSuffix(".basemap") }.count == 1, "\(files)")
    #expect(!files.contains { $0.hasSuffix(".partial") }, "\(files)")
    let basemap = try Basemap(path: try #require(paths.first))
    #expect(basemap.covers(south: 60.16, north: 60.18, west: 24.93, east: 24.95))
    #expect(basemap.featureCount > 0)
  }

  /// The cache's name follows the extract's contents, not its file's time: another clone of the
  /// same revision (a fresh CI checkout) reuses the build, a changed extract gets its own.
  @Test func theCacheFollowsTheExtractsContents() async throws {
    let cache = try Self.temporaryDirectory()
    let clones = try Self.temporaryDirectory()
    defer {
      try? FileManager.default.removeItem(at: cache)
      try? FileManager.default.removeItem(at: clones)
    }
    let bytes = try Data(contentsOf: Self.extract)
    let first = clones.appendingPathComponent("a/Helsinki.osm.pbf")
    let second = clones.appendingPathComponent("b/Helsinki.osm.pbf")
    for copy in [first, second] {
      try FileManager.default.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
      try bytes.write(to: copy)
    }
    try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 0)], ofItemAtPath: second.path)
    // A build (seconds under ThreadSanitizer) and the cache's file lock, off the pool.
    let built = try await offPool { try BundledBasemaps.cachedBuild(of: first, in: cache) }
    #expect(built.built)
    let reused = try await offPool { try BundledBasemaps.cachedBuild(of: second, in: cache) }
    #expect(reused.path == built.path && !reused.built)

    var changed = bytes
    changed[changed.count / 2] ^= 0x01
    #expect(BundledBasemaps.contentKey(changed) != BundledBasemaps.contentKey(bytes))
    #expect(BundledBasemaps.contentKey(bytes + [0]) != BundledBasemaps.contentKey(bytes))
    #expect(BundledBasemaps.contentKey(Data()) == "0-cbf29ce484222325")
  }
}
