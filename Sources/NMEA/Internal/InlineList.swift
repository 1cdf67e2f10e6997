/// Up to `N` elements stored inline, any more in an array: a sentence's list of satellites
/// without a heap allocation for each sentence (a GSA names at most 12, a GSV at most 4 as
/// NMEA writes them; an array for each was a tenth of the decoder's time).
struct InlineList<let N: Int, Element: Hashable & Sendable>: Sendable, RandomAccessCollection {
  private var inline: InlineArray<N, Element>
  private var overflow: [Element] = []
  private(set) var count = 0

  /// An empty list; `filler` stands in the unused inline places and is never read.
  init(filler: Element) { inline = InlineArray(repeating: filler) }

  init(_ elements: some Sequence<Element>, filler: Element) {
    self.init(filler: filler)
    for element in elements { append(element) }
  }

  mutating func append(_ element: Element) {
    if count < N { inline[count] = element } else { overflow.append(element) }
    count += 1
  }

  var startIndex: Int { 0 }
  var endIndex: Int { count }

  subscript(position: Int) -> Element {
    precondition(position >= 0 && position < count, "index out of range")
    return position < N ? inline[position] : overflow[position - N]
  }
}

extension InlineList: Hashable {
  static func == (a: Self, b: Self) -> Bool { a.elementsEqual(b) }

  func hash(into hasher: inout Hasher) {
    hasher.combine(count)
    for element in self { hasher.combine(element) }
  }
}

extension InlineList: CustomReflectable {
  /// The elements only: the unused inline places hold leftovers that are not part of the value.
  var customMirror: Mirror { Mirror(self, unlabeledChildren: Array(self), displayStyle: .collection) }
}
