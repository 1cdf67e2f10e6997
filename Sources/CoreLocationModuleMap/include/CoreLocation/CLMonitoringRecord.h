// The submodule CoreLocation.CLMonitoringRecord: its declarations are in the Swift module CoreLocation.
