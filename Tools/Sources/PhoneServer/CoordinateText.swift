import Foundation
import Geo
package import LocationModel

/// Coordinates as people type and paste them, for the map page's search:
/// - decimal degrees, latitude first: `60.1699, 24.9384`, `60.1699 24.9384`, `-33.8688,151.2093`;
/// - with hemispheres, before or after, in either order: `60.1699N 24.9384E`, `S 33.8688 E 151.2093`,
///   `151.2093 E, 33.8688 S`;
/// - degrees and minutes, or degrees, minutes and seconds, with or without the marks
///   (`°`, `'`, `"`, and the typographic `′` `″`): `60°10.194'N 24°56.304'E`,
///   `60 10 11.6 N 24 56 18.2 E`, `33°52′7.7″S 151°12′33.5″E`.
///
/// Anything else (a word other than a hemisphere, a minute or second of 60 or more, three
/// numbers without marks) is not a coordinate: the search then looks for a name.
package enum CoordinateText {
  private enum Token: Equatable {
    case number(Double, negative: Bool)
    case hemisphere(Character)
    case comma
  }

  package static func parse(_ text: String) -> Coordinate? {
    guard let tokens = tokens(text) else { return nil }
    let numbers = tokens.filter { if case .number = $0 { true } else { false } }.count
    guard numbers >= 2 else { return nil }
    var parts: [[Token]] = []
    let hemispheres = tokens.filter { if case .hemisphere = $0 { true } else { false } }.count
    if hemispheres == 2 {
      // Prefix style (`N 60 …`) when the text starts with one, else suffix style (`60 … N`).
      var current: [Token] = []
      let prefix = { if case .hemisphere = tokens.first { true } else { false } }()
      for token in tokens where token != .comma {
        if case .hemisphere = token, prefix, !current.isEmpty {
          parts.append(current)
          current = []
        }
        current.append(token)
        if case .hemisphere = token, !prefix {
          parts.append(current)
          current = []
        }
      }
      if !current.isEmpty { parts.append(current) }
    } else if hemispheres == 0 {
      if let comma = tokens.firstIndex(of: .comma), tokens.filter({ $0 == .comma }).count == 1 {
        parts = [Array(tokens[..<comma]), Array(tokens[(comma + 1)...])]
      } else {
        let all = tokens.filter { $0 != .comma }
        guard all.count == 2 || all.count == 4 || all.count == 6 else { return nil }
        parts = [Array(all[..<(all.count / 2)]), Array(all[(all.count / 2)...])]
      }
    } else {
      return nil
    }
    guard parts.count == 2, let first = component(parts[0]), let second = component(parts[1]) else { return nil }
    var (lat, lon) = (first.value, second.value)
    switch (first.axis, second.axis) {
    case (nil, nil), ("N", "E"): break
    case ("E", "N"): (lat, lon) = (second.value, first.value)
    default: return nil
    }
    guard abs(lat) <= 90, abs(lon) <= 180 else { return nil }
    return Coordinate(latitude: lat, longitude: lon)
  }

  /// Degrees from `[sign] D [M [S]]` with an optional hemisphere; the axis ("N" for latitude,
  /// "E" for longitude) when a hemisphere names it.
  private static func component(_ tokens: [Token]) -> (value: Double, axis: Character?)? {
    var numbers: [(Double, Bool)] = []
    var hemisphere: Character?
    for token in tokens {
      switch token {
      case .number(let value, let negative): numbers.append((value, negative))
      case .hemisphere(let h):
        guard hemisphere == nil else { return nil }
        hemisphere = h
      case .comma: return nil
      }
    }
    guard (1...3).contains(numbers.count), !numbers.dropFirst().contains(where: { $0.1 || $0.0 >= 60 }) else { return nil }
    if numbers.count > 1, numbers[0].0 != numbers[0].0.rounded() { return nil }
    var value = numbers[0].0
    if numbers.count > 1 { value += numbers[1].0 / 60 }
    if numbers.count > 2 { value += numbers[2].0 / 3600 }
    var negative = numbers[0].1
    var axis: Character?
    if let hemisphere {
      if negative { return nil }
      negative = hemisphere == "S" || hemisphere == "W"
      axis = hemisphere == "N" || hemisphere == "S" ? "N" : "E"
    }
    return (negative ? -value : value, axis)
  }

  /// The text as numbers, hemispheres and commas (marks and spaces separate); nil when it holds
  /// anything else.
  private static func tokens(_ text: String) -> [Token]? {
    var tokens: [Token] = []
    var number = ""
    func flush() -> Bool {
      guard !number.isEmpty else { return true }
      defer { number = "" }
      let negative = number.hasPrefix("-")
      let digits = number.hasPrefix("-") || number.hasPrefix("+") ? String(number.dropFirst()) : number
      guard let value = Double(digits), value >= 0, !digits.hasPrefix(".") || digits.count > 1 else { return false }
      tokens.append(.number(value, negative: negative))
      return true
    }
    for character in text.uppercased() {
      switch character {
      case "0"..."9", ".":
        number.append(character)
      case "-", "+", "−":
        guard flush() else { return nil }
        number = character == "+" ? "+" : "-"
      case "N", "S", "E", "W":
        guard flush() else { return nil }
        tokens.append(.hemisphere(character))
      case ",", ";":
        guard flush() else { return nil }
        tokens.append(.comma)
      case " ", "\t", "°", "º", "'", "\"", "′", "″", "’", "”":
        guard flush() else { return nil }
      default:
        return nil
      }
    }
    guard flush() else { return nil }
    return tokens
  }
}
