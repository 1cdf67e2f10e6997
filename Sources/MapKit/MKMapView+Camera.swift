public import CoreLocation
public import Foundation

/// Where overlays sit among the map's layers, with MapKit's cases: under the labels (above the
/// roads), or over everything.
public enum MKOverlayLevel: Int, Sendable {
  /// Above the roads, below the labels.
  case aboveRoads = 0
  /// Above the roads and the labels: the level of overlays added without one.
  case aboveLabels = 1
}

/// How a map follows the user, with MapKit's cases.
public enum MKUserTrackingMode: Int, Sendable {
  /// The map does not follow the user.
  case none = 0
  /// The map follows the user's location.
  case follow = 1
  /// The map follows the user's location and turns with the heading (headings are not emulated).
  case followWithHeading = 2
}

/// The kinds of map features a user may select, with MapKit's options.
public struct MKMapFeatureOptions: OptionSet, Sendable {
  /// The raw value: MapKit's bits.
  public let rawValue: Int
  /// Creates options from their raw value.
  ///
  /// - Parameter rawValue: MapKit's bits.
  public init(rawValue: Int) { self.rawValue = rawValue }
  /// Points of interest, such as shops and parks.
  public static let pointsOfInterest = MKMapFeatureOptions(rawValue: 1 << 0)
  /// Territories, such as countries and cities.
  public static let territories = MKMapFeatureOptions(rawValue: 1 << 1)
  /// Physical features, such as mountains and rivers.
  public static let physicalFeatures = MKMapFeatureOptions(rawValue: 1 << 2)
}

/// Insets from a rectangle's edges, in points: UIKit's, which map code passes as edge padding
/// (`import MapKit` brings UIKit on iOS; declared by MapKit here, as ``UIColor`` is).
public struct UIEdgeInsets: Equatable, Sendable {
  /// The inset from the top edge, points.
  public var top: CGFloat
  /// The inset from the left edge, points.
  public var left: CGFloat
  /// The inset from the bottom edge, points.
  public var bottom: CGFloat
  /// The inset from the right edge, points.
  public var right: CGFloat

  /// No insets: all four are 0.
  public init() { self.init(top: 0, left: 0, bottom: 0, right: 0) }
  /// Insets from each edge.
  ///
  /// - Parameters:
  ///   - top: The inset from the top edge, points.
  ///   - left: The inset from the left edge, points.
  ///   - bottom: The inset from the bottom edge, points.
  ///   - right: The inset from the right edge, points.
  public init(top: CGFloat, left: CGFloat, bottom: CGFloat, right: CGFloat) {
    (self.top, self.left, self.bottom, self.right) = (top, left, bottom, right)
  }

  /// No insets.
  public static let zero = UIEdgeInsets()
}

/// The default distance of a camera zoom range's bound: no bound.
public let MKMapCameraZoomDefault: CLLocationDistance = -1

extension MKMapView {
  /// The area the map's centre is kept within, as a map rect or a region.
  open class CameraBoundary: NSObject, @unchecked Sendable {
    /// The boundary as a map rect.
    public let mapRect: MKMapRect
    /// The boundary as a region.
    public let region: MKCoordinateRegion

    /// A boundary of `mapRect`; nil for a null or empty rect.
    ///
    /// - Parameter mapRect: The area the centre is kept within.
    public init?(mapRect: MKMapRect) {
      guard !mapRect.isNull, !mapRect.isEmpty else { return nil }
      self.mapRect = mapRect
      region = MKCoordinateRegion(mapRect)
      super.init()
    }

    /// A boundary of `region`; nil when a span is not positive.
    ///
    /// - Parameter region: The area the centre is kept within.
    public init?(coordinateRegion region: MKCoordinateRegion) {
      guard region.span.latitudeDelta > 0, region.span.longitudeDelta > 0 else { return nil }
      self.region = region
      mapRect = MKMapRect(region: region)
      super.init()
    }

    /// Decoding is not supported here: always fails (nil).
    ///
    /// - Parameter coder: The archive, unused.
    public required init?(coder: NSCoder) { nil }

    /// `region` moved so that its centre is within the boundary.
    func keeping(_ region: MKCoordinateRegion) -> MKCoordinateRegion {
      let centre = MKMapPoint(region.center)
      let kept = MKMapPoint(
        x: Swift.min(Swift.max(centre.x, mapRect.minX), mapRect.maxX), y: Swift.min(Swift.max(centre.y, mapRect.minY), mapRect.maxY))
      guard kept.x != centre.x || kept.y != centre.y else { return region }
      return MKCoordinateRegion(center: kept.coordinate, span: region.span)
    }
  }

  /// How near and far from the centre the camera may be, in metres.
  open class CameraZoomRange: NSObject, @unchecked Sendable {
    /// The nearest the camera may be, metres; 0 for no bound.
    public let minCenterCoordinateDistance: CLLocationDistance
    /// The farthest the camera may be, metres; the greatest finite distance for no bound.
    public let maxCenterCoordinateDistance: CLLocationDistance

    /// A range between two distances; nil when a distance is negative or the maximum is below the minimum.
    /// `MKMapCameraZoomDefault` for either means no bound.
    ///
    /// - Parameters:
    ///   - minCenterCoordinateDistance: The nearest distance, metres.
    ///   - maxCenterCoordinateDistance: The farthest distance, metres.
    public init?(minCenterCoordinateDistance: CLLocationDistance, maxCenterCoordinateDistance: CLLocationDistance) {
      guard minCenterCoordinateDistance >= 0 || minCenterCoordinateDistance == MKMapCameraZoomDefault,
        maxCenterCoordinateDistance >= minCenterCoordinateDistance || maxCenterCoordinateDistance == MKMapCameraZoomDefault
      else { return nil }
      self.minCenterCoordinateDistance = Swift.max(minCenterCoordinateDistance, 0)
      self.maxCenterCoordinateDistance =
        maxCenterCoordinateDistance == MKMapCameraZoomDefault ? .greatestFiniteMagnitude : maxCenterCoordinateDistance
      super.init()
    }

    /// A range with only a nearest distance.
    ///
    /// - Parameter minCenterCoordinateDistance: The nearest distance, metres.
    public convenience init?(minCenterCoordinateDistance: CLLocationDistance) {
      self.init(minCenterCoordinateDistance: minCenterCoordinateDistance, maxCenterCoordinateDistance: MKMapCameraZoomDefault)
    }

    /// A range with only a farthest distance.
    ///
    /// - Parameter maxCenterCoordinateDistance: The farthest distance, metres.
    public convenience init?(maxCenterCoordinateDistance: CLLocationDistance) {
      self.init(minCenterCoordinateDistance: MKMapCameraZoomDefault, maxCenterCoordinateDistance: maxCenterCoordinateDistance)
    }
  }

  /// Keeps the map's centre within `cameraBoundary`, moving the region shown into it at once; nil removes the boundary.
  ///
  /// - Parameters:
  ///   - cameraBoundary: The area the centre is kept within, or nil.
  ///   - animated: Passed on to the delegate when the region is set again.
  public func setCameraBoundary(_ cameraBoundary: CameraBoundary?, animated: Bool) {
    boundary = cameraBoundary
    if cameraBoundary != nil { setRegion(region, animated: animated) }
  }

  /// Sets `cameraZoomRange`; nil sets a range without bounds. The range is kept: the region shown is not limited by it here.
  ///
  /// - Parameters:
  ///   - cameraZoomRange: The range, or nil.
  ///   - animated: Has no effect here.
  public func setCameraZoomRange(_ cameraZoomRange: CameraZoomRange?, animated: Bool) {
    zoomRange =
      cameraZoomRange ?? CameraZoomRange(minCenterCoordinateDistance: 0, maxCenterCoordinateDistance: .greatestFiniteMagnitude)!
  }

  /// Follows the user as `mode` says (following starts showing the user's place); the delegate
  /// hears of a change.
  public func setUserTrackingMode(_ mode: MKUserTrackingMode, animated: Bool) {
    guard mode != tracking else { return }
    tracking = mode
    if mode != .none { showsUserLocation = true }
    delegate?.mapView(self, didChange: mode, animated: animated)
  }

  /// The part of the view annotations are shown in: the whole view here.
  public var annotationVisibleRect: CGRect { bounds }

  // MARK: Fitting rects

  /// `mapRect` widened to the view's aspect ratio.
  public func mapRectThatFits(_ mapRect: MKMapRect) -> MKMapRect { mapRectThatFits(mapRect, edgePadding: .zero) }

  /// `mapRect` widened to the view's aspect ratio with `insets` points of padding around it.
  public func mapRectThatFits(_ mapRect: MKMapRect, edgePadding insets: UIEdgeInsets) -> MKMapRect {
    let inner = CGSize(width: frame.width - insets.left - insets.right, height: frame.height - insets.top - insets.bottom)
    guard inner.width > 0, inner.height > 0, mapRect.size.width > 0 || mapRect.size.height > 0 else { return mapRect }
    // Points per map point, so that the rect fills the inner area in its tighter direction.
    let scale = Swift.min(
      Double(inner.width) / Swift.max(mapRect.size.width, .leastNonzeroMagnitude),
      Double(inner.height) / Swift.max(mapRect.size.height, .leastNonzeroMagnitude))
    let width = Double(frame.width) / scale, height = Double(frame.height) / scale
    let x = mapRect.origin.x - Double(insets.left) / scale - (Double(inner.width) / scale - mapRect.size.width) / 2
    let y = mapRect.origin.y - Double(insets.top) / scale - (Double(inner.height) / scale - mapRect.size.height) / 2
    return MKMapRect(x: x, y: y, width: width, height: height)
  }

  /// Shows `mapRect` with `insets` points of padding around it, widened to the view's aspect ratio.
  ///
  /// - Parameters:
  ///   - mapRect: The area to show.
  ///   - insets: The padding around it, points.
  ///   - animated: Passed on to the delegate; the change is immediate.
  public func setVisibleMapRect(_ mapRect: MKMapRect, edgePadding insets: UIEdgeInsets, animated: Bool) {
    setVisibleMapRect(mapRectThatFits(mapRect, edgePadding: insets), animated: animated)
  }

  /// `region` as a rectangle of the map view, in points.
  public func convert(_ region: MKCoordinateRegion, toRectTo view: AnyObject?) -> CGRect {
    let rect = MKMapRect(region: region)
    let topLeft = convert(MKMapPoint(x: rect.minX, y: rect.minY).coordinate, toPointTo: view)
    let bottomRight = convert(MKMapPoint(x: rect.maxX, y: rect.maxY).coordinate, toPointTo: view)
    return CGRect(x: topLeft.x, y: topLeft.y, width: bottomRight.x - topLeft.x, height: bottomRight.y - topLeft.y)
  }

  /// The region a rectangle of the map view shows.
  public func convert(_ rect: CGRect, toRegionFrom view: AnyObject?) -> MKCoordinateRegion {
    let topLeft = MKMapPoint(convert(CGPoint(x: rect.minX, y: rect.minY), toCoordinateFrom: view))
    let bottomRight = MKMapPoint(convert(CGPoint(x: rect.maxX, y: rect.maxY), toCoordinateFrom: view))
    return MKCoordinateRegion(MKMapRect(x: topLeft.x, y: topLeft.y, width: bottomRight.x - topLeft.x, height: bottomRight.y - topLeft.y))
  }

  // MARK: Overlays by level

  /// Adds `overlay` on `level`: after the overlays of its level and below, before those above.
  public func addOverlay(_ overlay: any MKOverlay, level: MKOverlayLevel) { addOverlays([overlay], level: level) }

  /// Adds `overlays` on `level`: after the overlays of its level and below, before those above.
  ///
  /// - Parameters:
  ///   - overlays: The overlays to add.
  ///   - level: The level to add them on.
  public func addOverlays(_ overlays: [any MKOverlay], level: MKOverlayLevel) {
    let index = self.overlays.lastIndex { (levels[ObjectIdentifier($0)] ?? .aboveLabels).rawValue <= level.rawValue }.map { $0 + 1 } ?? 0
    insert(overlays, at: index, level: level)
  }

  /// The overlays on `level`, bottom first.
  public func overlays(in level: MKOverlayLevel) -> [any MKOverlay] {
    overlays.filter { (levels[ObjectIdentifier($0)] ?? .aboveLabels) == level }
  }

  /// Inserts `overlay` at `index` of `overlays` (clamped to the list), on the level above the labels.
  ///
  /// - Parameters:
  ///   - overlay: The overlay to insert.
  ///   - index: Its position, 0 at the bottom.
  public func insertOverlay(_ overlay: any MKOverlay, at index: Int) { insert([overlay], at: index, level: .aboveLabels) }

  /// Inserts `overlay` at `index` among the overlays of `level`; past their end, it is added on top of them.
  ///
  /// - Parameters:
  ///   - overlay: The overlay to insert.
  ///   - index: Its position within the level, 0 at the bottom.
  ///   - level: The level to insert it on.
  public func insertOverlay(_ overlay: any MKOverlay, at index: Int, level: MKOverlayLevel) {
    let onLevel = overlays(in: level)
    let position = index < onLevel.count ? overlays.firstIndex { $0 === onLevel[index] } : nil
    if let position {
      insert([overlay], at: position, level: level)
    } else {
      addOverlay(overlay, level: level)
    }
  }

  /// Inserts `overlay` just above `sibling`, on its level; at the top when `sibling` is not on the map.
  ///
  /// - Parameters:
  ///   - overlay: The overlay to insert.
  ///   - sibling: The overlay to put it above.
  public func insertOverlay(_ overlay: any MKOverlay, above sibling: any MKOverlay) {
    let position = overlays.firstIndex { $0 === sibling }.map { $0 + 1 } ?? overlays.count
    insert([overlay], at: position, level: levels[ObjectIdentifier(sibling)] ?? .aboveLabels)
  }

  /// Inserts `overlay` just below `sibling`, on its level; at the bottom when `sibling` is not on the map.
  ///
  /// - Parameters:
  ///   - overlay: The overlay to insert.
  ///   - sibling: The overlay to put it below.
  public func insertOverlay(_ overlay: any MKOverlay, below sibling: any MKOverlay) {
    let position = overlays.firstIndex { $0 === sibling } ?? 0
    insert([overlay], at: position, level: levels[ObjectIdentifier(sibling)] ?? .aboveLabels)
  }

  /// Swaps the positions (and levels) of two overlays; nothing when either is not on the map.
  ///
  /// - Parameters:
  ///   - overlay1: One overlay.
  ///   - overlay2: The other overlay.
  public func exchangeOverlay(_ overlay1: any MKOverlay, with overlay2: any MKOverlay) {
    guard let first = overlays.firstIndex(where: { $0 === overlay1 }), let second = overlays.firstIndex(where: { $0 === overlay2 }) else {
      return
    }
    exchangeOverlay(at: first, withOverlayAt: second)
  }

  /// Swaps the overlays at two positions of `overlays`, with their levels; nothing when an index is out of range.
  ///
  /// - Parameters:
  ///   - index1: One position.
  ///   - index2: The other position.
  public func exchangeOverlay(at index1: Int, withOverlayAt index2: Int) {
    guard overlays.indices.contains(index1), overlays.indices.contains(index2) else { return }
    let (a, b) = (ObjectIdentifier(overlays[index1]), ObjectIdentifier(overlays[index2]))
    (levels[a], levels[b]) = (levels[b], levels[a])
    replaceOverlays { $0.swapAt(index1, index2) }
  }
}
