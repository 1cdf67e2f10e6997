// The submodule CoreLocation.CLLocationManagerDelegate: its declarations are in the Swift module CoreLocation.
