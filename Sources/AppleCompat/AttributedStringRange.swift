public import Foundation

extension Range where Bound == AttributedString.Index {
  /// The range of `string` that `range` (in UTF-16 offsets, as `NSRange`s count) covers, as
  /// Apple's Foundation gives it: search completions' highlight ranges (`NSValue`s of `NSRange`)
  /// applied to an `AttributedString`. Nil when `range` is `NSNotFound`, ends beyond the
  /// string, or starts or ends inside a character's surrogate pair. swift-corelibs-foundation
  /// has the `String` form only.
  ///
  /// - Parameters:
  ///   - range: A range of UTF-16 offsets from the string's start.
  ///   - string: The attributed string (or substring) the range indexes.
  public init?<S: AttributedStringProtocol>(_ range: NSRange, in string: S) {
    guard range.location != NSNotFound, range.location >= 0, range.length >= 0 else { return nil }
    let start = range.location, end = range.location + range.length
    let scalars = string.unicodeScalars
    var lower: AttributedString.Index?, upper: AttributedString.Index?
    var offset = 0
    var index = scalars.startIndex
    while true {
      if offset == start { lower = index }
      if offset == end {
        upper = index
        break
      }
      guard offset < end, index < scalars.endIndex else { break }
      offset += scalars[index].utf16.count
      index = scalars.index(after: index)
    }
    guard let lower, let upper else { return nil }
    self = lower..<upper
  }
}
