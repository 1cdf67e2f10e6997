// The submodule CoreLocation.CLErrorDomain: its declarations are in the Swift module CoreLocation.
