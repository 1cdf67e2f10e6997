public import Foundation

extension NSObject {
  /// The class's name, qualified by its module ("MyApp.Tracker"), as Apple's `+[NSObject
  /// description]` gives it for a Swift class; swift-corelibs-foundation has only the
  /// instance's `description`. Code that logs `type(of: self).description()` builds with it.
  public class func description() -> String { String(reflecting: self) }
}
