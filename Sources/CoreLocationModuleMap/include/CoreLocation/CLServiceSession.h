// The submodule CoreLocation.CLServiceSession: its declarations are in the Swift module CoreLocation.
