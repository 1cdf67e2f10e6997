// The submodule CoreLocation.CLBackgroundActivitySession: its declarations are in the Swift module CoreLocation.
