// The submodule CoreLocation.CLGeocoder: its declarations are in the Swift module CoreLocation.
