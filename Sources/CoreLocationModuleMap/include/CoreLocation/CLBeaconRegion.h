// The submodule CoreLocation.CLBeaconRegion: its declarations are in the Swift module CoreLocation.
