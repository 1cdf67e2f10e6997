import MapRendering
import CoreLocation
import EmulatorTesting
import Foundation
import MapKit
import TestSupport
import Testing

@Suite("MapKit: geometry, snapshotter, annotations, formatter")
struct MapKitTests {
  let helsinki = CLLocationCoordinate2D(latitude: 60.1699, longitude: 24.9384)

  @Test("LOC-MK-01: regions from metres; map points round-trip; the world; meters per map point")
  func geometry() {
    let region = MKCoordinateRegion(center: helsinki, latitudinalMeters: 20_000, longitudinalMeters: 20_000)
    #expect(abs(region.span.latitudeDelta - 20_000 / 111_195.08) < 0.002)
    #expect(abs(region.span.longitudeDelta - 20_000 / (111_195.08 * cos(60.1699 * .pi / 180))) < 0.004)
    let point = MKMapPoint(helsinki)
    #expect(abs(point.coordinate.latitude - helsinki.latitude) < 1e-9 && abs(point.coordinate.longitude - helsinki.longitude) < 1e-9)
    #expect(MKMapSize.world.width == 268_435_456 && MKMapRect.world.maxX == 268_435_456)
    #expect(MKMapRect.null.isNull && MKMapRect.null.isEmpty && !MKMapRect.world.isNull)
    // 1 km north is MKMapPointsPerMeterAtLatitude × 1000 points, within the projection's error.
    let north = MKMapPoint(CLLocationCoordinate2D(latitude: helsinki.latitude + 1000 / 111_195.08, longitude: helsinki.longitude))
    #expect(abs((point.y - north.y) - 1000 * MKMapPointsPerMeterAtLatitude(helsinki.latitude)) / (point.y - north.y) < 0.01)
    // 1,000 m on the sphere is 1,002 m along the ellipsoid there, which distances are measured on.
    #expect(abs(point.distance(to: north) - 1002) < 1)
    #expect(abs(MKMetersPerMapPointAtLatitude(0) * MKMapSize.world.width - 40_030_000) < 100_000)
    #expect(MKStringFromMapRect(MKMapRect.world) == "{{0.0, 0.0}, {268435456.0, 268435456.0}}")
  }

  @Test("LOC-MK-02: map rects: union, intersection, inset, offset, containment, the 180th meridian")
  func rects() {
    let a = MKMapRect(x: 0, y: 0, width: 10, height: 10), b = MKMapRect(x: 5, y: 5, width: 10, height: 10)
    #expect(MKMapRectEqualToRect(a.union(b), MKMapRect(x: 0, y: 0, width: 15, height: 15)))
    #expect(MKMapRectEqualToRect(a.intersection(b), MKMapRect(x: 5, y: 5, width: 5, height: 5)))
    #expect(a.intersection(MKMapRect(x: 20, y: 20, width: 1, height: 1)).isNull)
    #expect(MKMapRectEqualToRect(a.union(.null), a))
    #expect(MKMapRectEqualToRect(a.insetBy(dx: 2, dy: 1), MKMapRect(x: 2, y: 1, width: 6, height: 8)))
    #expect(MKMapRectEqualToRect(a.offsetBy(dx: 3, dy: 4), MKMapRect(x: 3, y: 4, width: 10, height: 10)))
    #expect(
      a.contains(MKMapPoint(x: 5, y: 5)) && !a.contains(MKMapPoint(x: 10, y: 5)) && a.contains(MKMapRect(x: 1, y: 1, width: 2, height: 2)))
    #expect(a.intersects(b))
    let across = MKMapRect(x: MKMapSize.world.width - 100, y: 0, width: 300, height: 10)
    #expect(across.spans180thMeridian && across.remainder.width == 200 && across.remainder.minX == 0)
    let region = MKCoordinateRegion(
      MKMapRect(origin: MKMapPoint(helsinki), size: MKMapSize(width: 1000, height: 1000)).offsetBy(dx: -500, dy: -500))
    #expect(abs(region.center.latitude - helsinki.latitude) < 1e-4 && abs(region.center.longitude - helsinki.longitude) < 1e-6)
  }

  @Test("LOC-MK-03: a snapshot of a 10 km region: SVG of the options' size and scale; point(for:) as the renderer draws")
  func snapshot() async throws {
    let options = MKMapSnapshotter.Options()
    options.region = MKCoordinateRegion(center: helsinki, latitudinalMeters: 20_000, longitudinalMeters: 20_000)
    options.size = CGSize(width: 320, height: 180)
    options.scale = 2
    let snapshot = try await MKMapSnapshotter(options: options).start()
    #expect(snapshot.image.svg.contains("width=\"640\" height=\"360\""))
    #expect(snapshot.image.size == CGSize(width: 320, height: 180))
    let centre = snapshot.point(for: helsinki)
    #expect(abs(centre.x - 160) < 0.01 && abs(centre.y - 90) < 0.01)
    let east = snapshot.point(for: CLLocationCoordinate2D(latitude: helsinki.latitude, longitude: helsinki.longitude + 0.1))
    #expect(east.x > centre.x && abs(east.y - centre.y) < 0.01)
    if FileManager.default.isExecutableFile(atPath: "/usr/bin/rsvg-convert") {
      // pngData() blocks while rsvg-convert runs, as UIImage's: off the cooperative pool.
      let image = snapshot.image
      let png = try #require(await offPool { image.pngData() })
      #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }
  }

  @Test("LOC-MK-04: a snapshot's completion handler runs on the main queue; a size the renderer refuses is an MKError")
  func snapshotCompletionAndErrors() async throws {
    let options = MKMapSnapshotter.Options()
    options.size = CGSize(width: 0, height: 10)
    await #expect {
      _ = try await MKMapSnapshotter(options: options).start()
    } throws: {
      ($0 as? MKError)?.code == .unknown
    }
    options.size = CGSize(width: 64, height: 64)
    let onMain: Bool = await withCheckedContinuation { done in
      MKMapSnapshotter(options: options).start { snapshot, error in
        done.resume(returning: snapshot != nil && error == nil && isOnMainQueue)
      }
    }
    #expect(onMain)
  }

  @Test("LOC-MK-05: annotations: MKPointAnnotation, a custom MKAnnotation without title")
  func annotations() {
    let pin = MKPointAnnotation(coordinate: helsinki, title: "Rex", subtitle: "lost")
    #expect(pin.coordinate.latitude == helsinki.latitude && pin.title == "Rex" && pin.subtitle == "lost")
    pin.coordinate = CLLocationCoordinate2D(latitude: 1, longitude: 2)
    #expect(pin.coordinate.latitude == 1)
    final class Pet: NSObject, MKAnnotation {
      let coordinate = CLLocationCoordinate2D(latitude: 3, longitude: 4)
    }
    let pet: any MKAnnotation = Pet()
    #expect(pet.title == nil && pet.subtitle == nil && pet.coordinate.longitude == 4)
  }

  @Test("LOC-MK-06: MKDistanceFormatter: metric and imperial, abbreviated and full, and back")
  func distanceFormatter() {
    let formatter = MKDistanceFormatter()
    formatter.locale = Locale(identifier: "en_GB")
    #expect(formatter.string(fromDistance: 347) == "350 m")
    #expect(formatter.string(fromDistance: 1234) == "1.2 km")
    #expect(formatter.string(fromDistance: 15_400) == "15 km")
    formatter.unitStyle = .full
    #expect(formatter.string(fromDistance: 1234) == "1.2 kilometers")
    formatter.unitStyle = .abbreviated
    formatter.locale = Locale(identifier: "en_US")
    #expect(formatter.string(fromDistance: 1609.344) == "1 mi")
    #expect(formatter.string(fromDistance: 30) == "100 ft")
    formatter.units = .metric
    #expect(formatter.string(fromDistance: 30) == "30 m")
    #expect(formatter.distance(from: "1.5 km") == 1500)
    #expect(abs(formatter.distance(from: "2 mi") - 3218.688) < 1e-9)
    #expect(formatter.distance(from: "far away") == -1)
  }
}
