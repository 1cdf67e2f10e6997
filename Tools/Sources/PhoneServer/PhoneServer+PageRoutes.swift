import Emulator
import Foundation
import GNSSReceiver
import Geo
import Hummingbird
import LocationEmulatorClient
import Logging
import NIOCore
import PermissionHandling
import Scenarios
import MapRendering
import Basemap
import Traces
import ServiceLifecycle
import UnixSignals
import NIOPosix
import LocationModel

#if canImport(Glibc)
  import Glibc
#endif

// The web pages and what they load: the controls page, the world map, Leaflet, place search,
// map tiles and a phone's map as SVG.
extension PhoneServer {
  func pageRoutes(_ body: JSONBody) -> RouteCollection<BasicRequestContext> {
    let routes = RouteCollection(context: BasicRequestContext.self)
    let hub = self.hub, basemaps = self.basemaps
    let page = WebPage.html(defaultCenter: StreetMap.center(basemaps: basemaps), streetTiles: streetTiles)
    routes.get("/") { _, _ in
      Response(
        status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-cache"],
        body: ResponseBody(byteBuffer: ByteBuffer(string: page)))
    }
    routes.get("phones/:id/map.svg") { request, context in
      try await Self.guarded {
        let phone = try Self.phone(hub, context)
        let view = request.uri.queryParameters.get("view") ?? "preview"
        guard view == "preview" || view == "street" else { throw APIError.bad("view must be preview or street") }
        let radius = request.uri.queryParameters.get("radius", as: Double.self) ?? (view == "street" ? 250 : 10_000)
        guard radius >= 100, radius <= 1_000_000 else { throw APIError.bad("radius must be 100 to 1000000 metres") }
        let svg =
          view == "street"
          ? StreetMap.render(phone, radius: radius, basemaps: basemaps) : Self.map(of: phone.phone, radius: radius, basemaps: basemaps)
        return Response(
          status: .ok, headers: [.contentType: "image/svg+xml", .cacheControl: "no-cache"],
          body: ResponseBody(byteBuffer: ByteBuffer(string: svg)))
      }
    }
    let worldPage = WorldMapPage.html(defaultCenter: StreetMap.center(basemaps: basemaps), streetTiles: streetTiles)
    routes.get("map") { _, _ in
      Response(
        status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-cache"],
        body: ResponseBody(byteBuffer: ByteBuffer(string: worldPage)))
    }
    @Sendable func leaflet(_ name: String) throws -> Response {
      guard let (data, type) = WorldMapPage.leafletFile(name) else {
        throw APIError.notFound(
          "no Leaflet file \(name): /map needs Debian's libjs-leaflet in \(WorldMapPage.leafletDirectory) (apt-get install libjs-leaflet)")
      }
      return Response(
        status: .ok, headers: [.contentType: type, .cacheControl: "public, max-age=86400"],
        body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
    routes.get("leaflet/:file") { _, context in
      try await Self.guarded { try leaflet(try context.parameters.require("file")) }
    }
    routes.get("leaflet/images/:file") { _, context in
      try await Self.guarded { try leaflet("images/" + (try context.parameters.require("file"))) }
    }
    routes.get("places") { request, _ in
      try await Self.guarded {
        let text = request.uri.queryParameters.get("q") ?? ""
        guard !text.isEmpty, text.count <= 200 else { throw APIError.bad("q must be 1 to 200 characters: a name or a coordinate") }
        let limit = request.uri.queryParameters.get("limit", as: Int.self) ?? 20
        guard (1...100).contains(limit) else { throw APIError.bad("limit must be 1 to 100") }
        let places = try await Self.offLoop(nil) { try Self.places(text, limit: limit, basemaps: basemaps) }
        return Self.json(Wire.PlaceList(places: places))
      }
    }
    let tiles = MapTiles(basemaps: basemaps)
    routes.get("tiles/:z/:x/:y") { _, context in
      try await Self.guarded {
        // y is "Y.svg" (or bare Y).
        let name = try context.parameters.require("y")
        let yText = name.hasSuffix(".svg") ? String(name.dropLast(4)) : name
        guard let z = Int(try context.parameters.require("z")), let x = Int(try context.parameters.require("x")), let y = Int(yText),
          MapTiles.isValid(z: z, x: x, y: y)
        else {
          throw APIError.notFound("no such tile: zoom 0 to \(MapTiles.maximumZoom), x and y 0 to 2^zoom - 1 (/tiles/Z/X/Y.svg)")
        }
        let data = try await Self.offLoop("tile \(z)/\(x)/\(y)") { try tiles.tile(z: z, x: x, y: y) }
        return Response(
          status: .ok, headers: [.contentType: "image/svg+xml", .cacheControl: "public, max-age=3600"],
          body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
      }
    }
    return routes
  }
}
