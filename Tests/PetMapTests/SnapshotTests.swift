import MapRendering
import Foundation
import Geo
import PetMap
import Testing
import LocationModel

/// The SVG snapshot (the platform's MKMapSnapshotter): its legend, scale, failures and file (the
/// pixels through a real renderer are checked in the tools package's `SnapshotRenderingTests`).
@Suite struct SnapshotTests {
  let region = warsaw.mapRegion(radiusMeters: 10_000).fitted(aspectRatio: 16.0 / 9.0)
  let missing = PinModel(id: "m", coordinate: north(of: warsaw, 6_000), status: .active)
  let found = PinModel(
    id: "f", coordinate: Coordinate(latitude: warsaw.latitude - 0.04, longitude: warsaw.longitude - 0.15)!, status: .found)

  @Test func snapshot_US2_AS3_FR008_legendStaysInACornerClearOfTheCentre() throws {
    let svg = try SVGMapSnapshotter().render(
      MapSnapshotRequest(region: region, legend: LegendItem.legend(MapStrings(.polish)).map(\.entry))
    ).svg
    #expect(svg.contains("Zaginione") && svg.contains("Znalezione"))
    let legend = try #require(svg.range(of: "<g class=\"legend\"><rect "))
    let attributes = svg[legend.upperBound...].prefix(80)
    func value(_ name: String) -> Double {
      let start = attributes.range(of: "\(name)=\"")!.upperBound
      return Double(attributes[start...].prefix { $0 != "\"" })!
    }
    let x = value("x"), y = value("y"), w = value("width"), h = value("height")
    #expect(x > 320 && y > 180)  // the bottom-right quarter
    #expect(w * h < 640 * 360 * 0.1)
    #expect(x + w <= 640 && y + h <= 360)
  }

  @Test func snapshot_scaleBarIsARoundDistance() throws {
    let svg = try SVGMapSnapshotter().render(MapSnapshotRequest(region: region)).svg
    // 640 px over ~35 km: a quarter of the width is ~8.9 km, so the bar is 5 km.
    #expect(svg.contains(">5 km</text>"))
  }

  @Test func snapshot_invalidSizeFails() {
    #expect(throws: MapSnapshotError.invalidSize(width: 0, height: 360)) {
      try SVGMapSnapshotter().render(MapSnapshotRequest(region: region, width: 0, height: 360))
    }
  }

  @Test func snapshot_writeFailureIsThePreviewsErrorState() async throws {
    let h = PreviewHarness(snapshotter: SVGMapSnapshotter(outputPath: "/nonexistent/dir/preview.svg"))
    try await h.start()
    await h.deliverFix()
    #expect(h.state.name == "error")
    if case .snapshotFailed(let reason) = h.preview.lastError {
      #expect(reason.contains("/nonexistent/dir/preview.svg"))
    } else {
      Issue.record("expected a snapshot failure, got \(String(describing: h.preview.lastError))")
    }
  }

  @Test func snapshot_previewWritesTheFileWhenTheMapLoads() async throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("locemu-preview-\(UUID().uuidString).svg").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let h = PreviewHarness(
      repository: FileAnnouncementRepository([announcement("p1", north(of: warsaw, 2_000))]),
      snapshotter: SVGMapSnapshotter(outputPath: path))
    #expect(try await h.startLoaded())
    let svg = try String(contentsOfFile: path, encoding: .utf8)
    #expect(svg.contains("data-id=\"p1\""))
    #expect(h.preview.snapshot?.svg == svg)
  }
}
