// The submodule CoreLocation.CLLocationUpdate: its declarations are in the Swift module CoreLocation.
