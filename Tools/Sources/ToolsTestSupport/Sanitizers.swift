import EmulatorTesting

/// What ThreadSanitizer changes for the tools' tests (whether it runs is
/// `ThreadSanitizer.isActive` of EmulatorTesting, which every binary of the same build shares,
/// `locemu` included; a test of one thread's work through the binary is marked
/// `.notUnderThreadSanitizer`).
public enum Sanitizers {
  /// How much more resident memory a process of this build takes than a plain one's bound
  /// allows: ThreadSanitizer's shadow memory adds to a process's resident size.
  public static var memoryFactor: Double { ThreadSanitizer.isActive ? 3 : 1 }
}
