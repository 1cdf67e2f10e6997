// Geo works on the app seam's values (Coordinate, LocationFix): whoever imports Geo has them.
@_exported public import LocationServices
