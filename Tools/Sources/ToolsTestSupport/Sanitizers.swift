#if canImport(Glibc)
  import Glibc
#endif

/// Whether this process (and so every binary of the same build, such as `locemu`) runs under
/// ThreadSanitizer (`swift build --sanitize=thread`): its runtime's entry point is linked in.
/// ThreadSanitizer's shadow memory adds to a process's resident size, so memory bounds that
/// hold for a plain build are scaled by ``memoryFactor`` there.
public enum Sanitizers {
  public static let threadSanitizer: Bool = dlsym(dlopen(nil, RTLD_NOW), "__tsan_init") != nil

  /// How much more resident memory a process of this build takes than a plain one's bound allows.
  public static var memoryFactor: Double { threadSanitizer ? 3 : 1 }
}
