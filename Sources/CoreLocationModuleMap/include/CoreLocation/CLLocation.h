// The submodule CoreLocation.CLLocation: its declarations are in the Swift module CoreLocation.
