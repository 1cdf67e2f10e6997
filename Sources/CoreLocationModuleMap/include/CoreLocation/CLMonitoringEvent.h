// The submodule CoreLocation.CLMonitoringEvent: its declarations are in the Swift module CoreLocation.
