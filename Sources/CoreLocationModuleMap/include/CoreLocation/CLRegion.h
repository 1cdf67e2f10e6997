// The submodule CoreLocation.CLRegion: its declarations are in the Swift module CoreLocation.
