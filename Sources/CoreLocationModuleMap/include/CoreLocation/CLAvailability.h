// The submodule CoreLocation.CLAvailability: its declarations are in the Swift module CoreLocation.
