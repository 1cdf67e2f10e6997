import Foundation

/// A trace decoded once and held in memory: its epochs, shared by every replay of it (a fleet
/// of phones, a served phone's loops), so that nothing is read or parsed again.
public struct DecodedTrace: Sendable {
  /// The trace's name (its path, or an uploaded trace's name).
  public let name: String
  /// The format it was read in.
  public let format: Trace.Format
  /// Its epochs, in trace order.
  public let epochs: [TraceEpoch]
  /// What the reader skipped, in its words.
  public let summary: String

  /// Creates a decoded trace from epochs already read.
  /// - Parameters:
  ///   - name: the trace's name.
  ///   - format: the format it was read in.
  ///   - epochs: its epochs, in trace order.
  ///   - summary: what the reader skipped.
  public init(name: String, format: Trace.Format, epochs: [TraceEpoch], summary: String = "") {
    self.name = name
    self.format = format
    self.epochs = epochs
    self.summary = summary
  }

  /// Reads the whole of `trace`.
  /// - Parameters:
  ///   - trace: the trace to read.
  ///   - maxEpochs: more epochs than this end the read with a ``TraceFileError``.
  ///   - deadline: checked as the read goes; past it the read ends with a ``TraceFileError``
  ///     (a bound in time for input a server did not choose).
  /// - Throws: ``TraceFileError`` when it cannot be read, is not of its format, has no epoch,
  ///   or is over a bound; ``GPXError`` as the readers do.
  public static func decode(
    _ trace: Trace, maxEpochs: Int = .max, deadline: ContinuousClock.Instant? = nil
  ) throws -> DecodedTrace {
    let reader = try trace.makeReader()
    defer { reader.close() }
    var epochs: [TraceEpoch] = []
    while let epoch = try reader.next() {
      epochs.append(epoch)
      if epochs.count > maxEpochs {
        throw TraceFileError(path: trace.path, message: "over \(maxEpochs) epochs")
      }
      if let deadline, epochs.count % 1024 == 0, ContinuousClock.now > deadline {
        throw TraceFileError(path: trace.path, message: "took too long to read")
      }
    }
    guard !epochs.isEmpty else {
      throw TraceFileError(path: trace.path, message: "no epochs read as \(trace.format.displayName) (\(reader.summary))")
    }
    return DecodedTrace(name: trace.path, format: trace.format, epochs: epochs, summary: reader.summary)
  }

  /// A reader over the epochs, from the first.
  public func makeReader() -> any TraceReader { EpochListReader(epochs, summary: summary) }
}

/// A ``TraceReader`` over epochs already in memory (a ``DecodedTrace``'s, a test's list).
public final class EpochListReader: TraceReader {
  private let epochs: [TraceEpoch]
  private var index = 0
  /// The summary it was given, as the reader that read the epochs wrote it.
  public let summary: String

  /// Creates a reader over `epochs`, from the first.
  /// - Parameters:
  ///   - epochs: the epochs to return, in order.
  ///   - summary: what to report as ``summary``.
  public init(_ epochs: [TraceEpoch], summary: String = "") {
    self.epochs = epochs
    self.summary = summary
  }

  /// The next epoch of the list; nil after the last, or after ``close()``.
  /// - Returns: the next epoch, or nil.
  public func next() -> TraceEpoch? {
    guard index < epochs.count else { return nil }
    defer { index += 1 }
    return epochs[index]
  }

  /// Moves to the end of the list: ``next()`` returns nil from now on.
  public func close() { index = epochs.count }
}
