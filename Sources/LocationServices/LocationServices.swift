// The module's name until 0.1.0, kept so that code written against it builds: `LocationModel`
// holds its types now (`Coordinate`, `LocationFix`, `LocationPermissionStatus`, …), and this
// module only re-exports it. Deprecated: import `LocationModel` instead; the alias goes in a
// later minor version, named in CHANGELOG.md.
@_exported public import LocationModel
