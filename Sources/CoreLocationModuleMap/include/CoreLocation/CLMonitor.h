// The submodule CoreLocation.CLMonitor: its declarations are in the Swift module CoreLocation.
