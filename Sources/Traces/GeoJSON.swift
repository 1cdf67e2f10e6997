import Foundation
import Geo
import LocationModel

/// The GeoJSON (RFC 7946) that ``TracePointList/geoJSON(_:)`` reads: the members it uses of a
/// `FeatureCollection`, a `Feature` and the geometries with points, and nothing else.
///
/// Decoding is lenient everywhere below the top: a member of another type than expected counts as
/// absent, members not listed in ``Member`` are ignored, and an array's elements of another type
/// are left out (a position's numbers, `features`, `geometries`) or kept as empty positions, which
/// the reader counts as invalid points (`coordinates`). Only a document that is no JSON at all
/// fails to decode.
enum GeoJSON {
  /// The members read, of whichever object.
  enum Member: String, CodingKey {
    case type, features, geometry, properties, coordinates, geometries, coordTimes, times, time
  }

  /// A document's top-level value.
  enum Document: Decodable {
    /// A `FeatureCollection`: those of its `features` that are objects, in order.
    case featureCollection([Feature])
    /// A `Feature` alone.
    case feature(Feature)
    /// A geometry alone, of one of the types ``Geometry/Kind`` lists (its `properties`, if any, unread).
    case geometry(Geometry)
    /// An object whose `type` is neither a feature nor a geometry read: a polygon, say.
    case unknownType(String)
    /// An array, or an object without a string `type`.
    case untyped
    /// A string, number, boolean or null alone: no JSON document here, as the reader always had it.
    case scalar

    init(from decoder: any Decoder) {
      guard let object = try? decoder.container(keyedBy: Member.self) else {
        self = (try? decoder.unkeyedContainer()) == nil ? .scalar : .untyped
        return
      }
      guard let type = try? object.decode(String.self, forKey: .type) else {
        self = .untyped
        return
      }
      switch type {
      case "FeatureCollection":
        let features = (try? object.decode([Lenient<Feature>].self, forKey: .features)) ?? []
        self = .featureCollection(features.compactMap(\.value))
      case "Feature": self = .feature(Feature(object))
      case _ where Geometry.Kind(rawValue: type) != nil: self = .geometry(Geometry(object))
      default: self = .unknownType(type)
      }
    }
  }

  /// A feature (its `type` unchecked: any object in `features` is one): its geometry, timed by its properties.
  struct Feature: Decodable {
    /// `geometry`; nil (no points) when it is null, absent or no object.
    var geometry: Geometry?
    /// `properties`; none when they are absent or no object.
    var properties: Properties

    init(from decoder: any Decoder) throws { self.init(try decoder.container(keyedBy: Member.self)) }

    init(_ object: KeyedDecodingContainer<Member>) {
      geometry = try? object.decode(Geometry.self, forKey: .geometry)
      properties = (try? object.decode(Properties.self, forKey: .properties)) ?? Properties()
    }
  }

  /// The members of a feature's `properties` that time its positions.
  struct Properties: Decodable {
    /// `coordTimes` when the properties have that member, whatever its value, else `times`: one
    /// entry per position (per line of a `MultiLineString`); nil when the member is no array.
    var times: [TimeEntry]?
    /// A `Point`'s time: `time` when the properties have that member (nil when it is no string),
    /// else the first of ``times`` when that is a string.
    var pointTime: String?

    init(times: [TimeEntry]? = nil, pointTime: String? = nil) {
      self.times = times
      self.pointTime = pointTime
    }

    init(from decoder: any Decoder) throws {
      let object = try decoder.container(keyedBy: Member.self)
      let times = try? object.decode([TimeEntry].self, forKey: object.contains(.coordTimes) ? .coordTimes : .times)
      self.times = times
      pointTime = object.contains(.time) ? (try? object.decode(String.self, forKey: .time)) : times?.first?.time
    }
  }

  /// An element of `coordTimes` or `times`: a position's time, or the times of a `MultiLineString`'s line.
  struct TimeEntry: Decodable {
    /// The element, when it is a string.
    var time: String?
    /// The element's elements, when it is an array (a line's times): its strings, nil for anything else in it.
    var lineTimes: [String?]?

    init(from decoder: any Decoder) {
      if let time = try? decoder.singleValueContainer().decode(String.self) {
        self.time = time
      } else {
        lineTimes = (try? [Lenient<String>](from: decoder))?.map(\.value)
      }
    }
  }

  /// A geometry: its positions, by type.
  enum Geometry: Decodable {
    /// `coordinates`, empty when absent or no array.
    case point(Position)
    /// `coordinates` (none when absent or no array), each element a position.
    case multiPoint([Position])
    /// `coordinates` (none when absent or no array), each element a position.
    case lineString([Position])
    /// `coordinates` (none when absent or no array), each element a line (empty when it is no array).
    case multiLineString([[Position]])
    /// Those of `geometries` that are objects.
    case collection([Geometry])
    /// A geometry of another type, a polygon's say, or without one: no points.
    case other

    /// The geometry types read.
    enum Kind: String {
      case point = "Point"
      case multiPoint = "MultiPoint"
      case lineString = "LineString"
      case multiLineString = "MultiLineString"
      case collection = "GeometryCollection"
    }

    init(from decoder: any Decoder) throws { self.init(try decoder.container(keyedBy: Member.self)) }

    init(_ object: KeyedDecodingContainer<Member>) {
      switch (try? object.decode(String.self, forKey: .type)).flatMap(Kind.init(rawValue:)) {
      case .point: self = .point((try? object.decode(Position.self, forKey: .coordinates)) ?? Position(numbers: []))
      case .multiPoint: self = .multiPoint(Self.positions(object))
      case .lineString: self = .lineString(Self.positions(object))
      case .multiLineString:
        let lines = (try? object.decode([Lenient<[Position]>].self, forKey: .coordinates)) ?? []
        self = .multiLineString(lines.map { $0.value ?? [] })
      case .collection:
        let members = (try? object.decode([Lenient<Geometry>].self, forKey: .geometries)) ?? []
        self = .collection(members.compactMap(\.value))
      case nil: self = .other
      }
    }

    private static func positions(_ object: KeyedDecodingContainer<Member>) -> [Position] {
      (try? object.decode([Position].self, forKey: .coordinates)) ?? []
    }
  }

  /// A position, `[longitude, latitude, altitude?]`: the numbers of the array, in order.
  ///
  /// Its elements that are no numbers are left out, except `true` and `false`, which count as 1
  /// and 0 (as they did when the reader took JSON through `JSONSerialization`, whose `NSNumber`s
  /// they were). A value that is no array is a position without numbers, an invalid point.
  struct Position: Decodable {
    var numbers: [Double]

    init(numbers: [Double]) { self.numbers = numbers }

    init(from decoder: any Decoder) {
      numbers = ((try? [Lenient<Number>](from: decoder)) ?? []).compactMap { $0.value?.value }
    }

    /// A JSON number, or a boolean as one.
    private struct Number: Decodable {
      var value: Double

      init(from decoder: any Decoder) throws {
        let single = try decoder.singleValueContainer()
        if let number = try? single.decode(Double.self) {
          value = number
        } else {
          value = try single.decode(Bool.self) ? 1 : 0
        }
      }
    }
  }

  /// A value decoded when it can be, nil when it is of another type: never an error, so that
  /// one odd element leaves the rest of its array as it is.
  struct Lenient<Value: Decodable>: Decodable {
    var value: Value?

    init(from decoder: any Decoder) { value = try? Value(from: decoder) }
  }
}

extension TracePointList {
  /// The points of a GeoJSON document.
  /// - Throws: ``TraceFileError`` when it is not GeoJSON.
  static func geoJSON(_ input: ByteInput) throws -> TracePointList {
    let bytes = try readAll(input, what: "a GeoJSON document")
    func notGeoJSON(_ reason: String) -> TraceFileError { TraceFileError(path: input.path, message: "not GeoJSON: \(reason)") }
    // The message JSONSerialization gave, on each platform, for any document it could not parse (a
    // scalar alone included); JSONDecoder's own error tells no more.
    let unreadable = NSError(domain: NSCocoaErrorDomain, code: CocoaError.propertyListReadCorrupt.rawValue, userInfo: nil)
    let document: GeoJSON.Document
    do {
      document = try JSONDecoder().decode(GeoJSON.Document.self, from: Data(bytes))
    } catch {
      throw notGeoJSON(unreadable.localizedDescription)
    }
    var points = GeoJSONPoints()
    switch document {
    case .featureCollection(let features): for feature in features { points.feature(feature) }
    case .feature(let feature): points.feature(feature)
    case .geometry(let geometry): points.geometry(geometry, properties: GeoJSON.Properties())
    case .unknownType(let type): throw notGeoJSON("type \"\(type)\" is no geometry or feature")
    case .untyped: throw notGeoJSON("no \"type\" at the top")
    case .scalar: throw notGeoJSON(unreadable.localizedDescription)
    }
    return TracePointList(items: points.items, invalidPoints: points.invalid)
  }
}

/// The items of a GeoJSON document's points, in document order.
private struct GeoJSONPoints {
  var items: [GPXPointStream.Item] = []
  /// Positions with fewer than two numbers or out of range.
  var invalid = 0

  /// A feature's points: none without a geometry.
  mutating func feature(_ feature: GeoJSON.Feature) {
    guard let geometry = feature.geometry else { return }
    self.geometry(geometry, properties: feature.properties)
  }

  /// A geometry's points: a point's or a multipoint's are waypoints, a line's a track segment.
  mutating func geometry(_ geometry: GeoJSON.Geometry, properties: GeoJSON.Properties) {
    switch geometry {
    case .point(let position): add(position, time: properties.pointTime, kind: .waypoint)
    case .multiPoint(let positions):
      let times = properties.times?.map(\.time)
      for (i, position) in positions.enumerated() { add(position, time: Self.element(i, of: times), kind: .waypoint) }
    case .lineString(let positions): line(positions, times: properties.times?.map(\.time))
    case .multiLineString(let lines):
      let times = properties.times?.map(\.lineTimes)
      for (i, positions) in lines.enumerated() { line(positions, times: Self.element(i, of: times)) }
    case .collection(let members): for member in members { self.geometry(member, properties: properties) }
    case .other: break  // polygons are no path
    }
  }

  /// A track segment, even an empty one, its `i`th position timed by `times[i]` where that is a string.
  private mutating func line(_ positions: [GeoJSON.Position], times: [String?]?) {
    items.append(.startTrackSegment)
    for (i, position) in positions.enumerated() { add(position, time: Self.element(i, of: times), kind: .track) }
  }

  private static func element<Element>(_ i: Int, of array: [Element?]?) -> Element? {
    guard let array, i < array.count else { return nil }
    return array[i]
  }

  private mutating func add(_ position: GeoJSON.Position, time: String?, kind: GPXPointStream.Kind) {
    let numbers = position.numbers
    guard numbers.count >= 2, let coordinate = Coordinate(latitude: numbers[1], longitude: numbers[0]) else {
      invalid += 1
      return
    }
    items.append(
      .point(
        GPXPoint(coordinate: coordinate, elevation: numbers.count > 2 ? numbers[2] : nil, time: time.flatMap(ISO8601Time.parse)),
        kind))
  }
}
