// The submodule CoreLocation.CLVisit: its declarations are in the Swift module CoreLocation.
