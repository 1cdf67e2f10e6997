import EmulatorTesting
package import Testing

/// What ThreadSanitizer changes for the tools' tests (whether it runs: `ThreadSanitizer.isActive`
/// of EmulatorTesting, which every binary of the same build shares, `locemu` included).
public enum Sanitizers {
  /// How much more resident memory a process of this build takes than a plain one's bound
  /// allows: ThreadSanitizer's shadow memory adds to a process's resident size.
  public static var memoryFactor: Double { ThreadSanitizer.isActive ? 3 : 1 }

  /// For a test of one thread's work through the `locemu` binary (argument and file errors,
  /// file formats, help): it runs in the plain suite only. Under ThreadSanitizer each `locemu`
  /// process is several times slower, and such a test checks no concurrent code: the sanitized
  /// suite runs the tests of servers, feeds, gpsd and phones, where races can be.
  package static var plainBuildOnly: ConditionTrait {
    .disabled(if: ThreadSanitizer.isActive, "one thread's work through the binary: the plain suite runs it")
  }
}
