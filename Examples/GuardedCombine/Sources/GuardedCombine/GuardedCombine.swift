// Combine support behind `canImport`, as a library written for Apple platforms and Linux has it.
#if canImport(Combine)
  import Combine

  /// A store that publishes its count, when Combine is there.
  public final class CountStore: ObservableObject {
    @Published public var count = 0

    public init() {}
  }

  /// What the package compiled with.
  public enum GuardedCombine {
    /// Whether `canImport(Combine)` was true when this package compiled.
    public static let sawCombine = true

    /// The counts a subscriber to a store's `$count` receives while the store counts to `n`.
    public static func publishedCounts(upTo n: Int) -> [Int]? {
      let store = CountStore()
      var received: [Int] = []
      let subscription = store.$count.sink { received.append($0) }
      for value in 1...n { store.count = value }
      subscription.cancel()
      return received
    }
  }
#else
  /// What the package compiled with.
  public enum GuardedCombine {
    /// Whether `canImport(Combine)` was true when this package compiled.
    public static let sawCombine = false

    /// Nothing: without Combine there is no store to subscribe to.
    public static func publishedCounts(upTo n: Int) -> [Int]? { nil }
  }
#endif
