import Foundation
import GuardedCombine
import Testing

/// A package that never names LocationEmulator and guards `import Combine` with `canImport`
/// builds beside LocationEmulator's Combine module (the Combine trait on), and its Combine code runs when it saw the
/// module. scripts/test.sh rebuilds it once that module exists and sets
/// LOCEMU_GUARDED_COMBINE_REBUILT, so that the package must have seen it.
@Suite("A package guarding import Combine with canImport (the Combine trait on)")
struct GuardedCombineTests {
  @Test("it builds, and when it saw Combine its store publishes every count")
  func aPackageGuardingCombineBuildsAndWorks() {
    if ProcessInfo.processInfo.environment["LOCEMU_GUARDED_COMBINE_REBUILT"] != nil {
      #expect(GuardedCombine.sawCombine, "rebuilt after the Combine module was, the package saw no Combine")
    }
    if GuardedCombine.sawCombine {
      #expect(GuardedCombine.publishedCounts(upTo: 3) == [0, 1, 2, 3])
    } else {
      #expect(GuardedCombine.publishedCounts(upTo: 3) == nil)
    }
  }
}
