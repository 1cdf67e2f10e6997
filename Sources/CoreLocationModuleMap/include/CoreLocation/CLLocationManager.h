// The submodule CoreLocation.CLLocationManager: its declarations are in the Swift module CoreLocation.
