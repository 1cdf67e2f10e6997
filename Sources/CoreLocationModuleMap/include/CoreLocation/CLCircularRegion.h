// The submodule CoreLocation.CLCircularRegion: its declarations are in the Swift module CoreLocation.
