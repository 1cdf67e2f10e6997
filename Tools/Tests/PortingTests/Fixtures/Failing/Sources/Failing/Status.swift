import CoreLocation

public func currentStatus() -> CLAuthorizationStatus { CLLocationManager().authorizationStatus }
