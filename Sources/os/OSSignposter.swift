/// Apple's signposts (`OSSignposter`, iOS 15), for code that marks intervals for Instruments:
/// the same calls, which do nothing here (there is no Instruments to read them); the body of
/// ``OSSignposter/withIntervalSignpost(_:id:_:around:)`` runs as it does there.
public struct OSSignposter: @unchecked Sendable {
  public let isEnabled: Bool

  public init(subsystem: String, category: String) { isEnabled = false }
  public init(logHandle: OSLog) { isEnabled = false }
  public init(logger: Logger) { isEnabled = false }
  public init() { isEnabled = false }

  public static let disabled = OSSignposter()

  public func makeSignpostID() -> OSSignpostID { OSSignpostID(UInt64.random(in: 1..<UInt64.max)) }
  public func makeSignpostID(from object: AnyObject) -> OSSignpostID {
    OSSignpostID(UInt64(UInt(bitPattern: ObjectIdentifier(object).hashValue)))
  }

  public func beginInterval(_ name: StaticString, id: OSSignpostID = .exclusive) -> OSSignpostIntervalState {
    OSSignpostIntervalState(id: id)
  }
  public func beginInterval(
    _ name: StaticString, id: OSSignpostID = .exclusive, _ message: OSLogMessage
  )
    -> OSSignpostIntervalState
  { OSSignpostIntervalState(id: id) }
  public func endInterval(_ name: StaticString, _ state: OSSignpostIntervalState) {}
  public func endInterval(_ name: StaticString, _ state: OSSignpostIntervalState, _ message: OSLogMessage) {}
  public func emitEvent(_ name: StaticString, id: OSSignpostID = .exclusive) {}
  public func emitEvent(_ name: StaticString, id: OSSignpostID = .exclusive, _ message: OSLogMessage) {}

  public func withIntervalSignpost<T>(
    _ name: StaticString, id: OSSignpostID = .exclusive, _ message: OSLogMessage = "", around task: () throws -> T
  ) rethrows -> T { try task() }
}

/// A signpost's identity.
public struct OSSignpostID: Hashable, Sendable, Comparable {
  public let rawValue: UInt64

  public init(_ value: UInt64) { rawValue = value }
  public init(log: OSLog) { rawValue = UInt64.random(in: 1..<UInt64.max) }
  public init(log: OSLog, object: AnyObject) { rawValue = UInt64(UInt(bitPattern: ObjectIdentifier(object).hashValue)) }

  public static let exclusive = OSSignpostID(0xEEEE_B0B5_B2B2_EEEE)
  public static let invalid = OSSignpostID(UInt64.max)
  public static let null = OSSignpostID(0)

  public static func < (a: OSSignpostID, b: OSSignpostID) -> Bool { a.rawValue < b.rawValue }
}

/// What ``OSSignposter/beginInterval(_:id:)`` returns for ``OSSignposter/endInterval(_:_:)``.
public struct OSSignpostIntervalState: Sendable {
  public let signpostID: OSSignpostID
  init(id: OSSignpostID) { signpostID = id }
}

/// A signpost's kind, for `os_signpost`.
public struct OSSignpostType: RawRepresentable, Hashable, Sendable {
  public let rawValue: UInt8
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  public static let event = OSSignpostType(rawValue: 0)
  public static let begin = OSSignpostType(rawValue: 1)
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
