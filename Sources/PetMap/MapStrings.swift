public import MapRendering
/// The languages the map features are localized in.
public enum MapLanguage: String, Sendable, Hashable, CaseIterable {
  case english = "en"
  case polish = "pl"
}

/// The user-facing strings of the map features, by the iOS app's `Localizable.strings` keys.
public struct MapStrings: Sendable, Hashable {
  public var language: MapLanguage

  public init(_ language: MapLanguage = .english) { self.language = language }

  /// The string for `key` (the key itself when there is none, as `NSLocalizedString` does).
  public subscript(key: String) -> String {
    Self.table[language]?[key] ?? Self.table[.english]?[key] ?? key
  }

  public var fullscreenMapTitle: String { self["fullscreenMap.navigationTitle"] }
  public var legendMissing: String { self["mapSection.legend.missing"] }
  public var legendFound: String { self["mapSection.legend.found"] }
  public var permissionRequiredMessage: String { self["mapPreview.permission.message"] }
  public var goToSettings: String { self["mapPreview.permission.settings"] }
  public var loadErrorMessage: String { self["mapPreview.error.message"] }
  public var retry: String { self["mapPreview.error.retry"] }
  public var loading: String { self["mapPreview.loading"] }

  static let table: [MapLanguage: [String: String]] = [
    .english: [
      "fullscreenMap.navigationTitle": "Pet Locations",
      "mapSection.legend.missing": "Missing",
      "mapSection.legend.found": "Found",
      "mapPreview.permission.message": "Enable location access to see lost and found pets near you on the map.",
      "mapPreview.permission.settings": "Go to Settings",
      "mapPreview.error.message": "The map could not be loaded.",
      "mapPreview.error.retry": "Retry",
      "mapPreview.loading": "Loading map…",
    ],
    .polish: [
      "fullscreenMap.navigationTitle": "Lokalizacje zwierząt",
      "mapSection.legend.missing": "Zaginione",
      "mapSection.legend.found": "Znalezione",
      "mapPreview.permission.message": "Włącz dostęp do lokalizacji, aby zobaczyć na mapie zaginione i znalezione zwierzęta w pobliżu.",
      "mapPreview.permission.settings": "Przejdź do Ustawień",
      "mapPreview.error.message": "Nie udało się załadować mapy.",
      "mapPreview.error.retry": "Spróbuj ponownie",
      "mapPreview.loading": "Ładowanie mapy…",
    ],
  ]
}

/// One entry of the map legend: a pin colour and what it means.
public struct LegendItem: Sendable, Hashable, Identifiable {
  public enum Kind: String, Sendable, Hashable, CaseIterable {
    case missing, found
  }

  public var kind: Kind
  public var label: String
  /// The pin colour, `#RRGGBB`.
  public var colorHex: String
  public var id: Kind { kind }

  /// The pin colour of each kind: red for missing pets, green for found ones.
  public static func color(of kind: Kind) -> String {
    switch kind {
    case .missing: "#E53935"
    case .found: "#2E7D32"
    }
  }

  /// The legend kind that shows `status` (nil for `CLOSED`, which has no pin).
  public static func kind(of status: AnnouncementStatus) -> Kind? {
    switch status {
    case .active: .missing
    case .found: .found
    case .closed: nil
    }
  }

  /// The entry as the renderer draws it.
  public var entry: MapLegendEntry { MapLegendEntry(label: label, colorHex: colorHex) }

  /// The legend of the map features: Missing, Found.
  public static func legend(_ strings: MapStrings) -> [LegendItem] {
    [
      LegendItem(kind: .missing, label: strings.legendMissing, colorHex: color(of: .missing)),
      LegendItem(kind: .found, label: strings.legendFound, colorHex: color(of: .found)),
    ]
  }
}
