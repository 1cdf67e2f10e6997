public import Foundation

/// A JSON value, as JSON has it: for documents whose members differ from one object to the next
/// (a transcript line's, a gpsd report's, a scenario file's), decoded with `JSONDecoder` and
/// read member by member. Numbers and booleans stay apart: `1` is a number, `true` a boolean.
public enum JSONValue: Sendable, Hashable, Codable {
  /// `null`.
  case null
  /// `true` or `false`.
  case bool(Bool)
  /// A number.
  case number(Double)
  /// A string.
  case string(String)
  /// An array of values.
  case array([JSONValue])
  /// An object: its members by name.
  case object([String: JSONValue])

  /// Decodes whatever JSON value the decoder holds.
  /// - Parameter decoder: the decoder to read from.
  /// - Throws: `DecodingError` when the value is none of JSON's kinds.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let bool = try? container.decode(Bool.self) {
      self = .bool(bool)
    } else if let number = try? container.decode(Double.self) {
      self = .number(number)
    } else if let string = try? container.decode(String.self) {
      self = .string(string)
    } else if let array = try? container.decode([JSONValue].self) {
      self = .array(array)
    } else {
      self = .object(try container.decode([String: JSONValue].self))
    }
  }

  /// Encodes the value as the JSON it stands for.
  /// - Parameter encoder: the encoder to write to.
  /// - Throws: `EncodingError` when the encoder refuses a value (a number that is not finite, say).
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .null: try container.encodeNil()
    case .bool(let value): try container.encode(value)
    case .number(let value): try container.encode(value)
    case .string(let value): try container.encode(value)
    case .array(let value): try container.encode(value)
    case .object(let value): try container.encode(value)
    }
  }

  /// A JSON document's value; nil when the bytes are not JSON.
  public init?(parsing data: Data) {
    guard let value = try? JSONDecoder().decode(JSONValue.self, from: data) else { return nil }
    self = value
  }

  /// The string, when it is one.
  public var string: String? { if case .string(let s) = self { s } else { nil } }
  /// The number, when it is one (a boolean is not).
  public var number: Double? { if case .number(let n) = self { n } else { nil } }
  /// The boolean, when it is one (a number is not).
  public var bool: Bool? { if case .bool(let b) = self { b } else { nil } }
  /// The members, when it is an object.
  public var object: [String: JSONValue]? { if case .object(let o) = self { o } else { nil } }
  /// The elements, when it is an array.
  public var array: [JSONValue]? { if case .array(let a) = self { a } else { nil } }
  /// Whether it is `null`.
  public var isNull: Bool { self == .null }

  /// A member of an object (nil for anything else, or when it has no such member).
  public subscript(_ key: String) -> JSONValue? { object?[key] }
}
