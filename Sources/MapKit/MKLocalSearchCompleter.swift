import CoreLocation
public import Foundation
import Geo

/// Completes what the user types in a search field (Apple's `MKLocalSearchCompleter`), from the
/// placemarks a test registered with `LocationEmulatorGeocoding` (there is no map service here).
/// Setting ``queryFragment`` starts a search; its ``results`` come on the main queue, and the
/// delegate hears of them (`completerDidUpdateResults`), also when nothing matched (no results)
/// and when the fragment is emptied. Each word of the fragment must begin a word of a placemark's
/// name or address, or be part of it, and the placemark be in ``region`` unless its span is zero.
open class MKLocalSearchCompleter: NSObject, @unchecked Sendable {
  /// The kinds of result a completer returns (Apple's raw values).
  public struct ResultType: OptionSet, Sendable {
    /// The raw value: Apple's bits.
    public let rawValue: UInt
    /// Creates result types from their raw value.
    ///
    /// - Parameter rawValue: Apple's bits.
    public init(rawValue: UInt) { self.rawValue = rawValue }
    /// Addresses.
    public static let address = ResultType(rawValue: 1 << 0)
    /// Points of interest, such as shops and parks.
    public static let pointOfInterest = ResultType(rawValue: 1 << 1)
    /// Search queries to complete, such as "coffee".
    public static let query = ResultType(rawValue: 1 << 2)
    /// Physical features, such as mountains and lakes.
    public static let physicalFeature = ResultType(rawValue: 1 << 3)
  }

  private let run = MapSearchRun()
  private let state = Locked<(fragment: String, results: [MKLocalSearchCompletion])>(("", []))

  /// What the user typed so far; setting it starts a search (and cancels one under way).
  open var queryFragment: String {
    get { state.withLock { $0.fragment } }
    set {
      state.withLock { $0.fragment = newValue }
      search(newValue)
    }
  }

  /// Where to look; a region with a zero span (the default) is everywhere.
  open var region = MKCoordinateRegion()
  /// The kinds of result wanted; addresses, points of interest and queries by default. Has no effect here.
  open var resultTypes: ResultType = [.address, .pointOfInterest, .query]
  /// Which categories of points of interest are wanted. Kept for source compatibility: has no effect here.
  open var pointOfInterestFilter: MKPointOfInterestFilter?
  /// Told of each search's results, on the main queue.
  open weak var delegate: (any MKLocalSearchCompleterDelegate)?

  /// The completions of the last search that finished, best first.
  open var results: [MKLocalSearchCompletion] { state.withLock { $0.results } }
  /// Whether a search is under way.
  open var isSearching: Bool { run.isRunning }

  /// Creates a completer with an empty fragment and a region that is everywhere.
  public override init() { super.init() }

  /// Cancels the search under way: its results do not come.
  open func cancel() { run.cancel() }

  private func search(_ fragment: String) {
    let region = self.region
    let found: @Sendable () -> Result<[CompletionText], any Error> = {
      let trimmed = fragment.trimmingCharacters(in: .whitespacesAndNewlines)
      guard !trimmed.isEmpty else { return .success([]) }
      return .success(MKLocalSearch.placemarks(matching: trimmed, in: region).map { CompletionText($0, fragment: trimmed) })
    }
    run.start(found) { [weak self] texts, error in
      guard let self else { return }
      if let error {
        self.delegate?.completer(self, didFailWithError: error)
        return
      }
      // Completions are made on the main queue, where they are delivered (they are not Sendable).
      let completions = (texts ?? []).map(MKLocalSearchCompletion.init)
      self.state.withLock { $0.results = completions }
      self.delegate?.completerDidUpdateResults(self)
    }
  }
}

/// What a completer's delegate is told (Apple's `MKLocalSearchCompleterDelegate`); both optional.
public protocol MKLocalSearchCompleterDelegate: NSObjectProtocol {
  /// Called on the main queue when a search finished and `results` changed.
  ///
  /// - Parameter completer: The completer whose results changed.
  func completerDidUpdateResults(_ completer: MKLocalSearchCompleter)
  /// Called on the main queue when a search failed.
  ///
  /// - Parameters:
  ///   - completer: The completer whose search failed.
  ///   - error: Why the search failed.
  func completer(_ completer: MKLocalSearchCompleter, didFailWithError error: any Error)
}

extension MKLocalSearchCompleterDelegate {
  /// By default, nothing.
  ///
  /// - Parameter completer: The completer whose results changed.
  public func completerDidUpdateResults(_ completer: MKLocalSearchCompleter) {}
  /// By default, nothing.
  ///
  /// - Parameters:
  ///   - completer: The completer whose search failed.
  ///   - error: Why the search failed.
  public func completer(_ completer: MKLocalSearchCompleter, didFailWithError error: any Error) {}
}

/// One completion: a title (the place's name, or its street address), a subtitle (the rest of
/// the address), and where the typed words are in each (Apple's `MKLocalSearchCompletion`).
open class MKLocalSearchCompletion: NSObject, @unchecked Sendable {
  /// The place's name, or its street address.
  open private(set) var title: String
  /// The rest of the address, comma-separated; may be empty.
  open private(set) var subtitle: String
  /// The ranges of `title` that match the typed words, as `NSValue(range:)`.
  open private(set) var titleHighlightRanges: [NSValue]
  /// The ranges of `subtitle` that match the typed words, as `NSValue(range:)`.
  open private(set) var subtitleHighlightRanges: [NSValue]

  init(_ text: CompletionText) {
    title = text.title
    subtitle = text.subtitle
    titleHighlightRanges = text.titleRanges.map { NSValue(range: $0) }
    subtitleHighlightRanges = text.subtitleRanges.map { NSValue(range: $0) }
    super.init()
  }

  /// The completion as "title, subtitle".
  open override var description: String { "\(title), \(subtitle)" }
}

extension MKLocalSearch.Request {
  /// A search for what a completion names (its title and subtitle).
  public convenience init(completion: MKLocalSearchCompletion) {
    let query = completion.subtitle.isEmpty ? completion.title : "\(completion.title) \(completion.subtitle)"
    self.init(naturalLanguageQuery: query)
  }
}

/// A completion's text, made where the search runs (a value, so it crosses to the main queue).
struct CompletionText: Sendable {
  var title: String
  var subtitle: String
  var titleRanges: [NSRange]
  var subtitleRanges: [NSRange]

  init(_ placemark: CLPlacemark, fragment: String) {
    let street = [placemark.subThoroughfare, placemark.thoroughfare].compactMap { $0 }.joined(separator: " ")
    let place = [placemark.locality, placemark.administrativeArea, placemark.country].compactMap { $0 }.filter { !$0.isEmpty }
    if let name = placemark.name, !name.isEmpty, name != street {
      title = name
      subtitle = ([street].filter { !$0.isEmpty } + place).joined(separator: ", ")
    } else {
      title = street.isEmpty ? place.first ?? "" : street
      subtitle = (street.isEmpty ? Array(place.dropFirst()) : place).joined(separator: ", ")
    }
    let words = fragment.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init)
    titleRanges = Self.ranges(of: words, in: title)
    subtitleRanges = Self.ranges(of: words, in: subtitle)
  }

  /// Where each word first occurs in `text` (case ignored), in UTF-16 offsets as NSRange counts.
  static func ranges(of words: [String], in text: String) -> [NSRange] {
    let lowered = text.lowercased()
    guard lowered.utf16.count == text.utf16.count else { return [] }
    return words.compactMap { word in
      guard let range = lowered.range(of: word) else { return nil }
      return NSRange(range, in: lowered)
    }
    .sorted { $0.location < $1.location }
  }
}
