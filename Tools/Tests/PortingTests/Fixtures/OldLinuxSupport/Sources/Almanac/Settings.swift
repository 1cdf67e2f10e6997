import Foundation.NSUserDefaults

/// Where the almanac is for, kept between launches (a submodule import, as ZamzamKit writes it).
public enum AlmanacSettings {
  public static func remember(latitude: Double, in defaults: UserDefaults) { defaults.set(latitude, forKey: "almanac.latitude") }
  public static func latitude(in defaults: UserDefaults) -> Double { defaults.double(forKey: "almanac.latitude") }
}
