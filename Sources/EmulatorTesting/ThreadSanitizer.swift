#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// ThreadSanitizer in a test: whether it runs, and how many times to repeat a test under it.
public enum ThreadSanitizer {
  /// Whether this process runs under ThreadSanitizer (`swift build --sanitize=thread`): its
  /// runtime's entry point is linked in.
  public static let isActive: Bool = dlsym(dlopen(nil, RTLD_NOW), "__tsan_init") != nil

  /// How many times to run a repetition test: `full` in a plain build; under ThreadSanitizer,
  /// which runs code 5 to 15 times slower and checks every run for races, a tenth of it (at
  /// least `minimum`, and never more than `full`). The plain run keeps the full count.
  public static func repetitions(_ full: Int, minimum: Int = 10) -> Int {
    isActive ? min(full, max(minimum, full / 10)) : full
  }
}
