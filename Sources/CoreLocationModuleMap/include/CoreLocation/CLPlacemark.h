// The submodule CoreLocation.CLPlacemark: its declarations are in the Swift module CoreLocation.
