public import Testing

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

extension Trait where Self == ConditionTrait {
  /// For a test of one thread's computation (statistics over simulated days, a corpus of logs,
  /// a fuzzer's inputs): it runs in the plain build only. ThreadSanitizer runs such a
  /// test 5 to 15 times slower and can find nothing in it; the sanitized run keeps the tests of
  /// clocks, phones, streams and servers, where races can be.
  public static var notUnderThreadSanitizer: Self {
    .disabled(if: ThreadSanitizer.isActive, "one thread's computation: the plain build runs it")
  }
}
