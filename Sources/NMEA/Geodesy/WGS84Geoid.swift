import Foundation

/// The height of the geoid above the WGS 84 ellipsoid, as gpsd computes it where a receiver gives none.
///
/// gpsd fills a fix's geoid separation from a 5° × 5° grid of EGM2008 values
/// (`separationCentimetres`), interpolated bilinearly between the four grid points around the
/// position, and derives the height above the ellipsoid from the altitude above sea level with it.
/// The grid is coarse (it differs from EGM2008 by up to about 12 m); it is used here for
/// agreement with gpsd, not for surveying.
public enum WGS84Geoid {
  /// Metres of geoid above the ellipsoid at a position in degrees; 0 for a position off the grid
  /// or not finite, as gpsd answers.
  public static func separation(latitude: Double, longitude: Double) -> Double {
    FiveDegreeGrid.interpolate(separationCentimetres, latitude: latitude, longitude: longitude) / 100
  }
}

/// The magnetic variation (declination) where a receiver gives none, as gpsd computes it.
///
/// gpsd fills it from a 5° × 5° grid of WMM2015 values (`hundredthsOfADegree`), interpolated
/// bilinearly, and derives a true track from a magnetic one with it.
public enum MagneticVariation {
  /// Degrees, east positive, at a position in degrees; 0 off the grid or for a position not finite.
  public static func degrees(latitude: Double, longitude: Double) -> Double {
    FiveDegreeGrid.interpolate(hundredthsOfADegree, latitude: latitude, longitude: longitude) / 100
  }
}

/// Bilinear interpolation in a whole-planet grid of 37 × 73 values, 5° apart, row 0 at 90° S,
/// column 0 at 180° W (the layout of gpsd's tables).
enum FiveDegreeGrid {
  static let rows = 37
  static let columns = 73
  static let spacing = 5

  static func interpolate(_ table: [Int16], latitude: Double, longitude: Double) -> Double {
    guard latitude.isFinite, longitude.isFinite else { return 0 }
    let row = Int(((90 + latitude) / Double(spacing)).rounded(.down))
    let column = Int(((180 + longitude) / Double(spacing)).rounded(.down))
    guard (0..<rows).contains(row), (0..<columns).contains(column) else { return 0 }
    // The cell's corners; on the last row or column the cell collapses to a line or a point.
    let row2 = min(row + 1, rows - 1)
    let column2 = min(column + 1, columns - 1)
    func value(_ r: Int, _ c: Int) -> Double { Double(table[r * columns + c]) }
    let south = Double(row * spacing - 90), north = Double(row2 * spacing - 90)
    let west = Double(column * spacing - 180), east = Double(column2 * spacing - 180)
    switch (row == row2, column == column2) {
    case (true, true):
      return value(row, column)
    case (true, false):
      return (value(row2, column2) * (longitude - west) + value(row, column) * (east - longitude)) / (east - west)
    case (false, true):
      return (value(row2, column2) * (latitude - south) + value(row, column) * (north - latitude)) / (north - south)
    case (false, false):
      // Each corner weighted by the area of the opposite sub-rectangle.
      let fromWest = longitude - west, toEast = east - longitude
      let fromSouth = latitude - south, toNorth = north - latitude
      return
        (value(row2, column2) * fromSouth * fromWest + value(row, column2) * toNorth * fromWest
        + value(row2, column) * fromSouth * toEast + value(row, column) * toNorth * toEast)
        / ((north - south) * (east - west))
    }
  }
}
