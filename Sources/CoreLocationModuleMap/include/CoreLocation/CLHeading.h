// The submodule CoreLocation.CLHeading: its declarations are in the Swift module CoreLocation.
