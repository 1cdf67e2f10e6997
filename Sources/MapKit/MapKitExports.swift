// MapKit re-exports CoreLocation, as the framework does: `import MapKit` alone gives
// CLLocationCoordinate2D and the rest.
@_exported public import CoreLocation
