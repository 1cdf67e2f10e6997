import AppleCompat
import Testing

@Suite("autoreleasepool(invoking:)")
struct AutoreleasepoolTests {
  struct Failure: Error {}

  @Test("runs its body once, returns its value and rethrows its error")
  func passThrough() throws {
    var runs = 0
    let value = autoreleasepool { () -> Int in
      runs += 1
      return 42
    }
    #expect(value == 42 && runs == 1)
    #expect(throws: Failure.self) { try autoreleasepool { () throws -> Int in throw Failure() } }
  }
}
