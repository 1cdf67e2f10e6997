public import Foundation

/// Apple's `os.Logger` on Linux: the same initializers and levels, messages written with
/// ``OSLogMessage`` interpolation (privacy and format options accepted).
///
/// Apple's logger writes to the unified log, not to standard output; here messages go nowhere
/// unless the environment variable `LOCEMU_OS_LOG` names the lowest level to write to standard
/// error (`debug`, `info`, `default`, `error` or `fault`), one line each:
/// `[subsystem:category] level: message`. Private values are written as they are (there is no
/// redaction on a developer's machine either, where a debugger is attached).
public struct Logger: @unchecked Sendable {
  let log: OSLog

  public init(subsystem: String, category: String) { log = OSLog(subsystem: subsystem, category: category) }
  public init(_ logObj: OSLog) { log = logObj }
  public init() { log = .default }

  public func log(_ message: OSLogMessage) { log.write(.default, message.text) }
  public func log(level: OSLogType, _ message: OSLogMessage) { log.write(level, message.text) }
  public func trace(_ message: OSLogMessage) { log.write(.debug, message.text) }
  public func debug(_ message: OSLogMessage) { log.write(.debug, message.text) }
  public func info(_ message: OSLogMessage) { log.write(.info, message.text) }
  public func notice(_ message: OSLogMessage) { log.write(.default, message.text) }
  public func warning(_ message: OSLogMessage) { log.write(.error, message.text) }
  public func error(_ message: OSLogMessage) { log.write(.error, message.text) }
  public func critical(_ message: OSLogMessage) { log.write(.fault, message.text) }
  public func fault(_ message: OSLogMessage) { log.write(.fault, message.text) }
}

/// A log handle, as `os_log` takes it.
public final class OSLog: NSObject, @unchecked Sendable {
  public let subsystem: String
  public let category: String

  public init(subsystem: String, category: String) {
    self.subsystem = subsystem
    self.category = category
  }

  public static let `default` = OSLog(subsystem: "", category: "")
  public static let disabled = OSLog(subsystem: "", category: "disabled")

  /// Whether messages of `type` are written (see ``Logger``).
  public func isEnabled(type: OSLogType) -> Bool { self !== OSLog.disabled && type.rank >= OSLogType.threshold }

  func write(_ type: OSLogType, _ text: @autoclosure () -> String) {
    guard isEnabled(type: type) else { return }
    let line = "[\(subsystem):\(category)] \(type.name): \(text())\n"
    FileHandle.standardError.write(Data(line.utf8))
  }
}

/// A message's level; Apple's raw values.
public struct OSLogType: RawRepresentable, Equatable, Hashable, Sendable {
  public let rawValue: UInt8
  public init(rawValue: UInt8) { self.rawValue = rawValue }
  public init(_ rawValue: UInt8) { self.rawValue = rawValue }

  public static let `default` = OSLogType(0x00)
  public static let info = OSLogType(0x01)
  public static let debug = OSLogType(0x02)
  public static let error = OSLogType(0x10)
  public static let fault = OSLogType(0x11)

  var name: String {
    switch self {
    case .info: "info"
    case .debug: "debug"
    case .error: "error"
    case .fault: "fault"
    default: "default"
    }
  }

  /// Ordered for the threshold: debug < info < default < error < fault.
  var rank: Int {
    switch self {
    case .debug: 0
    case .info: 1
    case .error: 3
    case .fault: 4
    default: 2
    }
  }

  /// The lowest rank written, from `LOCEMU_OS_LOG` (none when unset).
  static let threshold: Int = {
    let names = ["debug": 0, "info": 1, "default": 2, "notice": 2, "error": 3, "fault": 4]
    guard let name = ProcessInfo.processInfo.environment["LOCEMU_OS_LOG"] else { return .max }
    return names[name.lowercased()] ?? .max
  }()
}
