import Foundation

/// Work done once per token, under the class's lock, as Objective-C-era Swift writes it.
public final class Once {
  nonisolated(unsafe) private static var done: Set<String> = []

  public class func run(token: String, _ block: () -> Void) {
    objc_sync_enter(self)
    defer { objc_sync_exit(self) }
    guard done.insert(token).inserted else { return }
    block()
  }
}
