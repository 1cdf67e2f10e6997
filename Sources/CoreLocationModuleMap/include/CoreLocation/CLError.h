// The submodule CoreLocation.CLError: its declarations are in the Swift module CoreLocation.
