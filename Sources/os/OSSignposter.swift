/// Apple's signposts (`OSSignposter`, iOS 15), for code that marks intervals for Instruments:
/// the same calls, which do nothing here (there is no Instruments to read them); the body of
/// ``OSSignposter/withIntervalSignpost(_:id:_:around:)`` runs as it does there.
public struct OSSignposter: @unchecked Sendable {
  /// Whether signposts are recorded: always false here.
  public let isEnabled: Bool

  /// A signposter for a subsystem and category; disabled here.
  /// - Parameters:
  ///   - subsystem: the subsystem; ignored.
  ///   - category: the category; ignored.
  public init(subsystem: String, category: String) { isEnabled = false }
  /// A signposter writing through a log handle; disabled here.
  /// - Parameter logHandle: the log handle; ignored.
  public init(logHandle: OSLog) { isEnabled = false }
  /// A signposter writing through a logger's handle; disabled here.
  /// - Parameter logger: the logger; ignored.
  public init(logger: Logger) { isEnabled = false }
  /// A signposter that records nothing.
  public init() { isEnabled = false }

  /// A signposter that records nothing.
  public static let disabled = OSSignposter()

  /// A new signpost ID, to tell overlapping intervals of one name apart.
  /// - Returns: a random ID, never ``OSSignpostID/null`` or ``OSSignpostID/invalid``.
  public func makeSignpostID() -> OSSignpostID { OSSignpostID(UInt64.random(in: 1..<UInt64.max)) }
  /// A signpost ID derived from an object's identity: the same object gives the same ID.
  /// - Parameter object: the object.
  /// - Returns: the object's ID.
  public func makeSignpostID(from object: AnyObject) -> OSSignpostID {
    OSSignpostID(UInt64(UInt(bitPattern: ObjectIdentifier(object).hashValue)))
  }

  /// Marks the start of an interval; records nothing here.
  /// - Parameters:
  ///   - name: the interval's name; ignored.
  ///   - id: the signpost ID; ``OSSignpostID/exclusive`` by default.
  /// - Returns: the state to end the interval with, holding `id`.
  public func beginInterval(_ name: StaticString, id: OSSignpostID = .exclusive) -> OSSignpostIntervalState {
    OSSignpostIntervalState(id: id)
  }
  /// Marks the start of an interval with a message; records nothing here.
  /// - Parameters:
  ///   - name: the interval's name; ignored.
  ///   - id: the signpost ID; ``OSSignpostID/exclusive`` by default.
  ///   - message: the message; ignored.
  /// - Returns: the state to end the interval with, holding `id`.
  public func beginInterval(
    _ name: StaticString, id: OSSignpostID = .exclusive, _ message: OSLogMessage
  )
    -> OSSignpostIntervalState
  { OSSignpostIntervalState(id: id) }
  /// Marks the end of an interval; does nothing here.
  /// - Parameters:
  ///   - name: the interval's name; ignored.
  ///   - state: what `beginInterval` returned.
  public func endInterval(_ name: StaticString, _ state: OSSignpostIntervalState) {}
  /// Marks the end of an interval with a message; does nothing here.
  /// - Parameters:
  ///   - name: the interval's name; ignored.
  ///   - state: what `beginInterval` returned.
  ///   - message: the message; ignored.
  public func endInterval(_ name: StaticString, _ state: OSSignpostIntervalState, _ message: OSLogMessage) {}
  /// Marks a single point in time; does nothing here.
  /// - Parameters:
  ///   - name: the event's name; ignored.
  ///   - id: the signpost ID; ignored.
  public func emitEvent(_ name: StaticString, id: OSSignpostID = .exclusive) {}
  /// Marks a single point in time with a message; does nothing here.
  /// - Parameters:
  ///   - name: the event's name; ignored.
  ///   - id: the signpost ID; ignored.
  ///   - message: the message; ignored.
  public func emitEvent(_ name: StaticString, id: OSSignpostID = .exclusive, _ message: OSLogMessage) {}

  /// Runs `task` as an interval; only runs it here.
  /// - Parameters:
  ///   - name: the interval's name; ignored.
  ///   - id: the signpost ID; ignored.
  ///   - message: the message; ignored.
  ///   - task: the work the interval measures.
  /// - Returns: what `task` returns.
  /// - Throws: what `task` throws.
  public func withIntervalSignpost<T>(
    _ name: StaticString, id: OSSignpostID = .exclusive, _ message: OSLogMessage = "", around task: () throws -> T
  ) rethrows -> T { try task() }
}

/// A signpost's identity.
public struct OSSignpostID: Hashable, Sendable, Comparable {
  /// The ID's number.
  public let rawValue: UInt64

  /// An ID with a given number.
  /// - Parameter value: the number.
  public init(_ value: UInt64) { rawValue = value }
  /// A new random ID for a log handle.
  /// - Parameter log: the log handle; ignored.
  public init(log: OSLog) { rawValue = UInt64.random(in: 1..<UInt64.max) }
  /// An ID derived from an object's identity: the same object gives the same ID.
  /// - Parameters:
  ///   - log: the log handle; ignored.
  ///   - object: the object.
  public init(log: OSLog, object: AnyObject) { rawValue = UInt64(UInt(bitPattern: ObjectIdentifier(object).hashValue)) }

  /// The ID for intervals of a name that never overlap.
  public static let exclusive = OSSignpostID(0xEEEE_B0B5_B2B2_EEEE)
  /// An ID that stands for no signpost (all bits set).
  public static let invalid = OSSignpostID(UInt64.max)
  /// The zero ID.
  public static let null = OSSignpostID(0)

  /// Whether one ID's number is less than another's.
  /// - Parameters:
  ///   - a: the first ID.
  ///   - b: the second ID.
  /// - Returns: true when `a`'s raw value is less than `b`'s.
  public static func < (a: OSSignpostID, b: OSSignpostID) -> Bool { a.rawValue < b.rawValue }
}

/// What ``OSSignposter/beginInterval(_:id:)`` returns for ``OSSignposter/endInterval(_:_:)``.
public struct OSSignpostIntervalState: Sendable {
  /// The ID the interval began with.
  public let signpostID: OSSignpostID
  init(id: OSSignpostID) { signpostID = id }
}

/// A signpost's kind, for `os_signpost`.
public struct OSSignpostType: RawRepresentable, Hashable, Sendable {
  /// The raw value, as on Apple's platforms.
  public let rawValue: UInt8
  /// Creates a kind from its raw value.
  /// - Parameter rawValue: the kind's raw value.
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// A single point in time.
  public static let event = OSSignpostType(rawValue: 0)
  /// The start of an interval.
  public static let begin = OSSignpostType(rawValue: 1)
  /// The end of an interval.
  public static let end = OSSignpostType(rawValue: 2)
}

/// Apple's `os_signpost`: does nothing here (see ``OSSignposter``).
public func os_signpost(
  _ type: OSSignpostType, dso: UnsafeRawPointer? = nil, log: OSLog, name: StaticString, signpostID: OSSignpostID = .exclusive
) {}

/// Apple's `os_signpost` with a format and arguments: does nothing here.
public func os_signpost(
  _ type: OSSignpostType, dso: UnsafeRawPointer? = nil, log: OSLog, name: StaticString, signpostID: OSSignpostID = .exclusive,
  _ format: StaticString, _ arguments: any CVarArg...
) {}

extension OSLog {
  /// The category Apple's tools read as points of interest.
  public static let pointsOfInterest = OSLog(subsystem: "", category: "PointsOfInterest")
}
