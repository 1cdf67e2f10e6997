public import Foundation
import EmulatorTesting
import Geo
public import LocationModel
import Testing

/// The repository's root directory (this file is Tools/Sources/ToolsTestSupport/Fixtures.swift).
public let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent()

/// A file of the repository, by its path from the root.
public func repositoryFile(_ path: String) -> String { repositoryRoot.appendingPathComponent(path).path }

/// Warsaw's centre, where most tests stand.
public let warsaw = Coordinate(latitude: 52.2297, longitude: 21.0122)!

/// A point `meters` north of `c`.
public func north(of c: Coordinate, _ meters: Double) -> Coordinate {
  Coordinate(latitude: c.latitude + meters / 111_195.08, longitude: c.longitude)!
}

/// Runs `executable` with `arguments` to its end; its exit status, standard output and error.
/// Blocking: call it through `offPool`.
///
/// - Parameter bound: a hang guard: a child still running after it is killed.
/// - Throws: ``LoopbackError`` naming the command when it was killed at `bound`.
public func runProcess(
  _ executable: String, _ arguments: [String], bound: Duration = .seconds(600)
) throws -> (status: Int32, stdout: String, stderr: String) {
  expectOffPool("runProcess")
  return try runToEnd(executable, arguments, bound: bound)
}

/// ``runProcess(_:_:bound:)`` for callers that checked the thread already.
private func runToEnd(
  _ executable: String, _ arguments: [String], bound: Duration
) throws -> (status: Int32, stdout: String, stderr: String) {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: executable)
  process.arguments = arguments
  let out = Pipe(), err = Pipe()
  process.standardOutput = out
  process.standardError = err
  try process.run()
  let hangGuard = ProcessHangGuard(process.processIdentifier, bound: bound)
  // Standard error on a thread of its own (not a dispatch worker, which Swift's tasks may run
  // on): a child filling one pipe while we drain the other would block.
  let errData = Locked(Data())
  let errRead = DispatchSemaphore(value: 0)
  Thread {
    errData.withLock { $0 = err.fileHandleForReading.readDataToEndOfFile() }
    errRead.signal()
  }.start()
  let stdout = out.fileHandleForReading.readDataToEndOfFile()
  errRead.wait()
  process.waitUntilExit()
  try hangGuard.disarm(waitingOn: ([executable] + arguments).joined(separator: " "), bound: bound)
  return (
    process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: errData.withLock { $0 }, as: UTF8.self)
  )
}

/// A snapshot's pixels as a real SVG renderer draws them (rsvg-convert, then `scripts/png-pixels.py`).
/// Blocking (two child processes): call it through `offPool`.
public enum SVGPixels {
  /// rsvg-convert (Debian's librsvg2-bin; scripts/test.sh installs it), if there.
  public static let rsvg = ["/usr/bin/rsvg-convert", "/usr/local/bin/rsvg-convert"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }

  /// Renders `svg` to PNG and reads the RGBA pixels at `points`.
  public static func read(_ svg: String, at points: [(Double, Double)]) throws -> [[Int]] {
    expectOffPool("SVGPixels.read")
    return try render(svg, at: points, counting: []).pixels
  }

  /// Renders `svg` to PNG: the RGBA pixels at `points`, and how many pixels of the image are
  /// each colour of `counting` (`#RRGGBB` to a tolerance per channel), of `total`.
  public static func inspect(
    _ svg: String, at points: [(Double, Double)], counting: [(String, Int)] = []
  ) throws -> (
    pixels: [[Int]], counts: [Int], total: Int
  ) {
    expectOffPool("SVGPixels.inspect")
    return try render(svg, at: points, counting: counting)
  }

  /// ``inspect(_:at:counting:)`` for callers that checked the thread already.
  private static func render(
    _ svg: String, at points: [(Double, Double)], counting: [(String, Int)]
  ) throws -> (
    pixels: [[Int]], counts: [Int], total: Int
  ) {
    guard let rsvg else {
      throw LoopbackError(description: "rsvg-convert is missing (apt package librsvg2-bin; scripts/test.sh installs it)")
    }
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("locemu-snapshot-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let svgPath = dir.appendingPathComponent("map.svg").path, pngPath = dir.appendingPathComponent("map.png").path
    try svg.write(toFile: svgPath, atomically: true, encoding: .utf8)
    let converted = try runToEnd(rsvg, ["-o", pngPath, svgPath], bound: .seconds(600))
    guard converted.status == 0 else { throw LoopbackError(description: "rsvg-convert failed: \(converted.stderr)") }
    let colours = counting.map { (String($0.0.dropFirst()).uppercased(), $0.1) }
    let read = try runToEnd(
      "/usr/bin/env",
      ["python3", repositoryFile("scripts/png-pixels.py"), pngPath] + colours.flatMap { ["--count", "\($0.0)/\($0.1)"] }
        + points.map { "\($0.0),\($0.1)" }, bound: .seconds(600))
    guard read.status == 0 else { throw LoopbackError(description: "png-pixels.py failed: \(read.stderr)") }
    let json = JSONValue(parsing: Data(read.stdout.utf8))
    let pixels = (json?["pixels"]?.array ?? []).map { ($0.array ?? []).map { Int($0.number ?? -1) } }
    let counts = colours.map { Int(json?["counts"]?[$0.0]?.number ?? -1) }
    let total = Int(json?["width"]?.number ?? 0) * Int(json?["height"]?.number ?? 0)
    return (pixels, counts, total)
  }

  /// `#RRGGBB` as [r, g, b].
  public static func rgb(_ hex: String) -> [Int] {
    let v = Int(hex.dropFirst(), radix: 16)!
    return [v >> 16 & 255, v >> 8 & 255, v & 255]
  }
}
