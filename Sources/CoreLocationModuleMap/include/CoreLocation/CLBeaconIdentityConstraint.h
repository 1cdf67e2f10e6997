// The submodule CoreLocation.CLBeaconIdentityConstraint: its declarations are in the Swift module CoreLocation.
