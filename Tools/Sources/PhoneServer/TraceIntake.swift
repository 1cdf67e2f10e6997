import Foundation
import NIOPosix
package import Traces

/// Where a served phone's traces come from, and the bounds on them.
///
/// A request never names a file of the server's machine. A trace either comes in the request
/// (its body is the trace) or is a name resolved inside the directory the server was started
/// with (`--traces DIR`): the name's real path, links and `..` followed, must lie inside that
/// directory, and must be a regular file of at most ``maxBytes``. Any other name, whatever it
/// points to, is "no such trace", the same answer whether or not something exists there.
///
/// Reading and decoding run on NIO's blocking-I/O thread pool, never on the event loop or
/// the cooperative pool, bounded in bytes (``maxBytes``) and in time (``decodeTimeLimit``).
package struct TraceIntake: Sendable {
  /// The directory requests may name traces in, or nil when the server has none.
  package let directory: TraceDirectory?
  /// The largest trace accepted, in bytes, uploaded or read from the directory.
  package var maxBytes: Int
  /// How long decoding one trace may take.
  package var decodeTimeLimit: Duration = .seconds(10)

  /// The default limit on a trace: 16 MB (about nine hours of a receiver's NMEA at 1 Hz).
  package static let defaultMaxBytes = 16 << 20

  /// - Parameter directory: the traces a request may name, or nil for uploads only.
  /// - Throws: ``TraceFileError`` when `directory` is not a directory.
  package init(directory: String?, maxBytes: Int = defaultMaxBytes) throws(TraceFileError) {
    self.maxBytes = maxBytes
    self.directory = try directory.map { path throws(TraceFileError) in try TraceDirectory(path) }
  }

  /// The traces in the directory (see ``TraceDirectory/names(limit:)``); empty without one.
  package func names() -> [String] { directory?.names() ?? [] }

  /// The bytes of the trace `name` in the directory. Blocking: call it off the event loop
  /// (``load(name:format:)`` does).
  /// - Throws: ``TraceIntakeError``: 404 for a name that is not a trace in the directory
  ///   (outside it, missing, a link out) or without a directory, 400 for one that is not a
  ///   regular file, 413 for one over ``maxBytes``.
  package func read(name: String) throws(TraceIntakeError) -> TraceBytes {
    guard let directory else {
      throw TraceIntakeError(
        status: 404, message: "this server has no trace directory (start it with --traces DIR): send the trace as the request's body")
    }
    do {
      return try directory.read(name: name, maxBytes: maxBytes)
    } catch {
      switch error {
      case .notFound: throw TraceIntakeError(status: 404, message: "no trace \(Self.shown(name)) in the server's trace directory")
      case .notRegularFile: throw TraceIntakeError(status: 400, message: "\(Self.shown(name)) is not a regular file")
      case .tooLarge: throw tooLarge(Self.shown(name))
      case .unreadable(let message): throw TraceIntakeError(status: 400, message: "\(Self.shown(name)): \(message)")
      }
    }
  }

  /// The error for a trace over ``maxBytes``.
  package func tooLarge(_ what: String) -> TraceIntakeError {
    TraceIntakeError(status: 413, message: "\(what) is over this server's limit of \(maxBytes) bytes for a trace (--max-trace-bytes)")
  }

  /// Reads (from the directory) and decodes a trace on the blocking-I/O pool.
  package func load(name: String, format: Trace.Format?) async throws(TraceIntakeError) -> DecodedTrace {
    let intake = self
    return try await Self.offLoop { () throws(TraceIntakeError) in
      try intake.decode(intake.read(name: name), name: name, format: format)
    }
  }

  /// Decodes an uploaded trace on the blocking-I/O pool.
  package func load(bytes: TraceBytes, name: String, format: Trace.Format?) async throws(TraceIntakeError) -> DecodedTrace {
    let intake = self
    return try await Self.offLoop { () throws(TraceIntakeError) in try intake.decode(bytes, name: name, format: format) }
  }

  /// Decodes `bytes` whole (blocking), within ``decodeTimeLimit``.
  /// - Throws: ``TraceIntakeError`` 400 when it is not a trace of its format or has no epoch.
  package func decode(_ bytes: TraceBytes, name: String, format: Trace.Format?) throws(TraceIntakeError) -> DecodedTrace {
    guard bytes.bytes.count <= maxBytes else { throw tooLarge(Self.shown(name)) }
    let trace = Trace(bytes: bytes, name: name, format: format)
    do {
      return try DecodedTrace.decode(trace, deadline: .now + decodeTimeLimit)
    } catch let error as TraceFileError {
      throw TraceIntakeError(status: 400, message: "\(Self.shown(name)): \(error.message)")
    } catch {
      throw TraceIntakeError(status: 400, message: "\(Self.shown(name)): \(error)")
    }
  }

  private static func offLoop<T: Sendable>(_ body: @escaping @Sendable () throws(TraceIntakeError) -> T) async throws(TraceIntakeError) -> T
  {
    let result: Result<T, TraceIntakeError>
    do {
      result = try await NIOThreadPool.singleton.runIfActive { () -> Result<T, TraceIntakeError> in
        do throws(TraceIntakeError) { return .success(try body()) } catch { return .failure(error) }
      }
    } catch {
      throw TraceIntakeError(status: 503, message: "the server is stopping")
    }
    return try result.get()
  }

  /// A name as messages quote it: at most 100 characters, no control characters.
  static func shown(_ name: String) -> String {
    let clean = String(name.unicodeScalars.map { $0.properties.generalCategory == .control ? "?" : Character($0) })
    return "'" + (clean.count > 100 ? clean.prefix(100) + "…" : clean) + "'"
  }
}

/// Why a trace was refused, with the HTTP status that says so.
package struct TraceIntakeError: Error, Sendable, CustomStringConvertible {
  package var status: Int
  package var message: String
  package var description: String { message }
}
