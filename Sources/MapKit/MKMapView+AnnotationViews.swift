public import CoreLocation
public import Foundation

/// A map view's annotation views: which class each reuse identifier makes, the views shown by
/// annotation, the views waiting for reuse by identifier, and the clusters shown.
struct AnnotationViews {
  var registered: [String: AnyClass] = [
    MKMapViewDefaultAnnotationViewReuseIdentifier: MKMarkerAnnotationView.self,
    MKMapViewDefaultClusterAnnotationViewReuseIdentifier: MKMarkerAnnotationView.self,
  ]
  var shown: [ObjectIdentifier: MKAnnotationView] = [:]
  var queue: [String: [MKAnnotationView]] = [:]
  var clusters: [(annotation: MKClusterAnnotation, view: MKAnnotationView)] = []
  /// App classes the map could not make an instance of (reported once each).
  var reported: Set<ObjectIdentifier> = []
}

extension MKMapView {
  // MARK: Registration and reuse

  /// Registers the class `dequeueReusableAnnotationView(withIdentifier:for:)` makes for
  /// `identifier` (nil: forgets it).
  public func register(_ viewClass: AnyClass?, forAnnotationViewWithReuseIdentifier identifier: String) {
    views.registered[identifier] = viewClass
  }

  /// A view no longer shown, queued under `identifier` for reuse (after its
  /// ``MKAnnotationView/prepareForReuse()``), or nil.
  public func dequeueReusableAnnotationView(withIdentifier identifier: String) -> MKAnnotationView? {
    guard var queued = views.queue[identifier], !queued.isEmpty else { return nil }
    let view = queued.removeLast()
    views.queue[identifier] = queued
    view.prepareForReuse()
    return view
  }

  /// A view for `annotation`: a queued one, or a new one of the class registered for
  /// `identifier`.
  ///
  /// Swift on Linux can make an instance from a class only through a `required` initializer,
  /// and `init(annotation:reuseIdentifier:)` is not one (apps override it without `required`,
  /// as on iOS); so a new view is of the nearest MapKit class the registered one inherits from
  /// (a marker for an app's subclass of `MKMarkerAnnotationView`), and the map says so once on
  /// standard error. Code that dequeues in `mapView(_:viewFor:)` and makes its own class when
  /// the queue is empty gets its class, as on iOS.
  public func dequeueReusableAnnotationView(withIdentifier identifier: String, for annotation: any MKAnnotation) -> MKAnnotationView {
    if let view = dequeueReusableAnnotationView(withIdentifier: identifier) {
      view.annotation = annotation
      return view
    }
    let registered: AnyClass = views.registered[identifier] ?? MKMarkerAnnotationView.self
    return makeView(of: registered, annotation: annotation, reuseIdentifier: identifier)
  }

  private func makeView(of viewClass: AnyClass, annotation: any MKAnnotation, reuseIdentifier: String) -> MKAnnotationView {
    let makeable = [ObjectIdentifier(MKMarkerAnnotationView.self), ObjectIdentifier(MKAnnotationView.self)]
    var ancestor: AnyClass? = viewClass
    while let current = ancestor, !makeable.contains(ObjectIdentifier(current)) { ancestor = _getSuperclass(current) }
    if ancestor.map({ ObjectIdentifier($0) }) != ObjectIdentifier(viewClass), views.reported.insert(ObjectIdentifier(viewClass)).inserted {
      let message =
        "MKMapView: cannot make an instance of \(viewClass) registered for \"\(reuseIdentifier)\" on Linux (its "
        + "init(annotation:reuseIdentifier:) is not required); made \(ancestor.map { "\($0)" } ?? "MKMarkerAnnotationView") instead. "
        + "Make the view in mapView(_:viewFor:) when the queue is empty.\n"
      FileHandle.standardError.write(Data(message.utf8))
    }
    if let ancestor, ObjectIdentifier(ancestor) == ObjectIdentifier(MKAnnotationView.self) {
      return MKAnnotationView(annotation: annotation, reuseIdentifier: reuseIdentifier)
    }
    return MKMarkerAnnotationView(annotation: annotation, reuseIdentifier: reuseIdentifier)
  }

  // MARK: Views shown

  /// The view shown for `annotation`: nil while it is outside the visible region, or is a
  /// member of a cluster (its cluster's view is ``MKAnnotationView/cluster``).
  public func view(for annotation: any MKAnnotation) -> MKAnnotationView? {
    if let cluster = annotation as? MKClusterAnnotation {
      return views.clusters.first { $0.annotation === cluster }?.view
    }
    guard let view = views.shown[ObjectIdentifier(annotation)], view.cluster == nil else { return nil }
    return view
  }

  /// The renderer made for `overlay` when it was added.
  public func renderer(for overlay: any MKOverlay) -> MKOverlayRenderer? { renderers[ObjectIdentifier(overlay)] }

  /// `coordinate` as a point in the map view (or `view`, which here is the map view).
  public func convert(_ coordinate: CLLocationCoordinate2D, toPointTo view: AnyObject?) -> CGPoint {
    let rect = visibleMapRect, point = MKMapPoint(coordinate)
    guard rect.size.width > 0, rect.size.height > 0 else { return CGPoint(x: CGFloat.nan, y: .nan) }
    return CGPoint(
      x: (point.x - rect.origin.x) / rect.size.width * Double(frame.width),
      y: (point.y - rect.origin.y) / rect.size.height * Double(frame.height))
  }

  /// The coordinate at `point` of the map view.
  public func convert(_ point: CGPoint, toCoordinateFrom view: AnyObject?) -> CLLocationCoordinate2D {
    let rect = visibleMapRect
    guard frame.width > 0, frame.height > 0 else { return kCLLocationCoordinate2DInvalid }
    return MKMapPoint(
      x: rect.origin.x + Double(point.x / frame.width) * rect.size.width,
      y: rect.origin.y + Double(point.y / frame.height) * rect.size.height
    ).coordinate
  }

  /// Adds the annotations that are not on the map yet, and shows a region that holds them all.
  public func showAnnotations(_ annotations: [any MKAnnotation], animated: Bool) {
    let new = annotations.filter { a in !self.annotations.contains { $0 === a } }
    if !new.isEmpty { addAnnotations(new) }
    let points = annotations.map { MKMapPoint($0.coordinate) }
    guard let first = points.first else { return }
    var rect = MKMapRect(origin: first, size: MKMapSize(width: 0, height: 0))
    for p in points.dropFirst() { rect = rect.union(MKMapRect(origin: p, size: MKMapSize(width: 0, height: 0))) }
    // A margin of a tenth on each side, and a street's width at least, as MapKit leaves.
    let width = Swift.max(rect.size.width * 1.2, 2_000), height = Swift.max(rect.size.height * 1.2, 2_000)
    setVisibleMapRect(MKMapRect(x: rect.midX - width / 2, y: rect.midY - height / 2, width: width, height: height), animated: animated)
  }

  // MARK: Selection

  /// Selects `annotation` (one at a time, as MapKit): its view is selected and the delegate hears of it.
  public func selectAnnotation(_ annotation: any MKAnnotation, animated: Bool) {
    for selected in selectedAnnotations where selected !== annotation { deselectAnnotation(selected, animated: animated) }
    guard !selectedAnnotations.contains(where: { $0 === annotation }) else { return }
    selectedAnnotations = [annotation]
    if let view = view(for: annotation) {
      view.setSelected(true, animated: animated)
      delegate?.mapView(self, didSelect: view)
    }
    delegate?.mapView(self, didSelect: annotation)
  }

  /// Deselects `annotation` if it is selected: its view is deselected and the delegate hears of it.
  /// - Parameters:
  ///   - annotation: The annotation to deselect; nil does nothing.
  ///   - animated: Whether to animate (nothing is animated here).
  public func deselectAnnotation(_ annotation: (any MKAnnotation)?, animated: Bool) {
    guard let annotation, selectedAnnotations.contains(where: { $0 === annotation }) else { return }
    selectedAnnotations.removeAll { $0 === annotation }
    if let view = view(for: annotation) {
      view.setSelected(false, animated: animated)
      delegate?.mapView(self, didDeselect: view)
    }
    delegate?.mapView(self, didDeselect: annotation)
  }

  // MARK: Layout

  /// Makes views for the annotations in the visible region (the delegate's, else the default
  /// registration's), queues the views of those that left it, places each view on its
  /// annotation's point, and clusters colliding views that share a clustering identifier.
  func layoutAnnotationViews() {
    guard frame.width > 0, frame.height > 0 else { return }
    let visible = visibleMapRect
    let inView = annotations.filter { visible.contains(MKMapPoint($0.coordinate)) }
    let keep = Set(inView.map { ObjectIdentifier($0) })
    for (id, view) in views.shown where !keep.contains(id) {
      views.shown[id] = nil
      enqueue(view)
    }
    var added: [MKAnnotationView] = []
    for annotation in inView where views.shown[ObjectIdentifier(annotation)] == nil {
      guard let view = makeView(for: annotation) else { continue }
      views.shown[ObjectIdentifier(annotation)] = view
      added.append(view)
    }
    for annotation in inView {
      guard let view = views.shown[ObjectIdentifier(annotation)] else { continue }
      place(view, at: annotation.coordinate)
    }
    cluster()
    for view in added { view.prepareForDisplay() }
    if !added.isEmpty { delegate?.mapView(self, didAdd: added) }
  }

  private func makeView(for annotation: any MKAnnotation) -> MKAnnotationView? {
    if let view = delegate?.mapView(self, viewFor: annotation) {
      if view.annotation !== annotation { view.annotation = annotation }
      return view
    }
    if annotation is MKUserLocation { return nil }  // MapKit's own blue dot: no view of the app's
    let identifier =
      annotation is MKClusterAnnotation
      ? MKMapViewDefaultClusterAnnotationViewReuseIdentifier : MKMapViewDefaultAnnotationViewReuseIdentifier
    return dequeueReusableAnnotationView(withIdentifier: identifier, for: annotation)
  }

  private func enqueue(_ view: MKAnnotationView) {
    view.cluster = nil
    view.setSelected(false, animated: false)
    guard let identifier = view.reuseIdentifier else { return }
    views.queue[identifier, default: []].append(view)
  }

  private func place(_ view: MKAnnotationView, at coordinate: CLLocationCoordinate2D) {
    let point = convert(coordinate, toPointTo: nil)
    view.center = CGPoint(x: point.x + view.centerOffset.x, y: point.y + view.centerOffset.y)
  }

  /// Groups the shown views that share a clustering identifier and whose frames meet, the
  /// higher display priority first: each group of two or more is shown as one cluster view,
  /// and its members' views point to it (``MKAnnotationView/cluster``).
  private func cluster() {
    for old in views.clusters { enqueue(old.view) }
    views.clusters.removeAll()
    let candidates = views.shown.values.filter { $0.clusteringIdentifier != nil && $0.annotation != nil }
      .sorted { $0.displayPriority.rawValue > $1.displayPriority.rawValue }
    for view in views.shown.values { view.cluster = nil }
    var taken = Set<ObjectIdentifier>()
    for view in candidates where !taken.contains(ObjectIdentifier(view)) {
      let members = candidates.filter {
        !taken.contains(ObjectIdentifier($0)) && $0.clusteringIdentifier == view.clusteringIdentifier && $0.frame.intersects(view.frame)
      }
      guard members.count > 1 else { continue }
      let annotations = members.compactMap(\.annotation)
      let clusterAnnotation =
        delegate?.mapView(self, clusterAnnotationForMemberAnnotations: annotations) ?? MKClusterAnnotation(memberAnnotations: annotations)
      guard let clusterView = makeView(for: clusterAnnotation) else { continue }
      place(clusterView, at: clusterAnnotation.coordinate)
      for member in members {
        taken.insert(ObjectIdentifier(member))
        member.cluster = clusterView
      }
      views.clusters.append((clusterAnnotation, clusterView))
    }
  }
}
