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

  /// A logger for a subsystem (an app's or package's reverse-DNS name) and a category within it.
  /// - Parameters:
  ///   - subsystem: the subsystem, written in each line's brackets.
  ///   - category: the category, written after the subsystem.
  public init(subsystem: String, category: String) { log = OSLog(subsystem: subsystem, category: category) }
  /// A logger writing through a log handle (`OSLog.disabled` writes nothing).
  /// - Parameter logObj: the log handle.
  public init(_ logObj: OSLog) { log = logObj }
  /// A logger without subsystem or category (`OSLog.default`).
  public init() { log = .default }

  /// Logs a message at the default level.
  /// - Parameter message: the message; its interpolated values are written as they are.
  public func log(_ message: OSLogMessage) { log.write(.default, message.text) }
  /// Logs a message at a given level.
  /// - Parameters:
  ///   - level: the message's level.
  ///   - message: the message; its interpolated values are written as they are.
  public func log(level: OSLogType, _ message: OSLogMessage) { log.write(level, message.text) }
  /// Logs a trace message: at the debug level, as on iOS.
  /// - Parameter message: the message; its interpolated values are written as they are.
  public func trace(_ message: OSLogMessage) { log.write(.debug, message.text) }
  /// Logs a message at the debug level.
  /// - Parameter message: the message; its interpolated values are written as they are.
  public func debug(_ message: OSLogMessage) { log.write(.debug, message.text) }
  /// Logs a message at the info level.
  /// - Parameter message: the message; its interpolated values are written as they are.
  public func info(_ message: OSLogMessage) { log.write(.info, message.text) }
  /// Logs a notice: at the default level, as on iOS.
  /// - Parameter message: the message; its interpolated values are written as they are.
  public func notice(_ message: OSLogMessage) { log.write(.default, message.text) }
  /// Logs a warning: at the error level, as on iOS.
  /// - Parameter message: the message; its interpolated values are written as they are.
  public func warning(_ message: OSLogMessage) { log.write(.error, message.text) }
  /// Logs a message at the error level.
  /// - Parameter message: the message; its interpolated values are written as they are.
  public func error(_ message: OSLogMessage) { log.write(.error, message.text) }
  /// Logs a critical message: at the fault level, as on iOS.
  /// - Parameter message: the message; its interpolated values are written as they are.
  public func critical(_ message: OSLogMessage) { log.write(.fault, message.text) }
  /// Logs a message at the fault level.
  /// - Parameter message: the message; its interpolated values are written as they are.
  public func fault(_ message: OSLogMessage) { log.write(.fault, message.text) }
}

/// A log handle, as `os_log` takes it.
public final class OSLog: NSObject, @unchecked Sendable {
  /// The subsystem messages are logged under (an app's or package's reverse-DNS name).
  public let subsystem: String
  /// The category within the subsystem.
  public let category: String

  /// A log handle for a subsystem and a category within it.
  /// - Parameters:
  ///   - subsystem: the subsystem, written in each line's brackets.
  ///   - category: the category, written after the subsystem.
  public init(subsystem: String, category: String) {
    self.subsystem = subsystem
    self.category = category
  }

  /// The shared handle without subsystem or category.
  public static let `default` = OSLog(subsystem: "", category: "")
  /// A handle that writes nothing, whatever the level.
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
  /// The raw value, as on Apple's platforms.
  public let rawValue: UInt8
  /// Creates a level from its raw value.
  /// - Parameter rawValue: the level's raw value.
  public init(rawValue: UInt8) { self.rawValue = rawValue }
  /// Creates a level from its raw value.
  /// - Parameter rawValue: the level's raw value.
  public init(_ rawValue: UInt8) { self.rawValue = rawValue }

  /// The default level: what `log(_:)` and `notice(_:)` use.
  public static let `default` = OSLogType(0x00)
  /// Information that may help to trace a problem.
  public static let info = OSLogType(0x01)
  /// Detail for debugging; the lowest level.
  public static let debug = OSLogType(0x02)
  /// An error in the process.
  public static let error = OSLogType(0x10)
  /// A fault: a bug in the process or the system; the highest level.
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
