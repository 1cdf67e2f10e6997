import AppleCompat
import Foundation
import Testing

/// `Range(_: NSRange, in: AttributedString)`, as a search-completion model applies its highlight
/// ranges (the shape of MapKitSwiftSearch, stopped on Linux by its absence).
@Suite("Apple's Foundation: an NSRange in an AttributedString")
struct AttributedStringRangeTests {
  @Test("COMPAT-FOUNDATION-10: UTF-16 offsets become the attributed string's indices; styling the range styles those characters")
  func highlight() throws {
    var text = AttributedString("Coffee shops near 🏠 home")
    let coffee = try #require(Range(NSRange(location: 0, length: 6), in: text))
    #expect(String(text[coffee].characters) == "Coffee")
    text[coffee].link = URL(string: "https://example.com")
    #expect(text.runs.count == 2)
    // After the house (two UTF-16 units), offsets count both.
    let home = try #require(Range(NSRange(location: 21, length: 4), in: text))
    #expect(String(text[home].characters) == "home")
    let house = try #require(Range(NSRange(location: 18, length: 2), in: text))
    #expect(String(text[house].characters) == "🏠")
    let all = try #require(Range(NSRange(location: 0, length: 25), in: text))
    #expect(all == text.startIndex..<text.endIndex)
    let empty = try #require(Range(NSRange(location: 25, length: 0), in: text))
    #expect(text[empty].characters.isEmpty)
  }

  @Test("COMPAT-FOUNDATION-11: nil for NSNotFound, a range past the end, and one that splits a surrogate pair")
  func outside() {
    let text = AttributedString("ab🏠")
    #expect(Range(NSRange(location: NSNotFound, length: 0), in: text) == nil)
    #expect(Range(NSRange(location: 1, length: 4), in: text) == nil)
    #expect(Range(NSRange(location: 3, length: 1), in: text) == nil)
    #expect(Range(NSRange(location: 2, length: 2), in: text) != nil)
  }
}
