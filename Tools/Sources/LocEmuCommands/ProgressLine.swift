import Foundation
import Geo

#if canImport(Glibc)
  import Glibc
#endif

/// What a long command has done and how much is left, on one line of standard error redrawn in
/// place, as `git clone` and `apt` show theirs: only when standard error is a terminal and the
/// command was not given `--quiet`, so that pipes, files and tests see nothing of it. The line
/// is redrawn when the percentage changes (without a total, each time the count has grown by a
/// fiftieth), so at most about a hundred times whatever the input's size, and erased by
/// ``finish()``, before the command's summary. Any thread may update it (a recording's task does).
final class ProgressLine: Sendable {
  /// What the figures count.
  enum Unit {
    case bytes, seconds, epochs
  }

  private let label: String
  private let unit: Unit
  private let fd: Int32
  /// Whether anything is drawn at all.
  let isShown: Bool
  /// Whether the line is on the terminal, and the count at which it is next redrawn. In Geo's
  /// `Locked` (a pthread mutex): Synchronization.Mutex is a futex on Linux, which ThreadSanitizer
  /// (the tools' suite runs under it) does not model.
  private let state = Locked<(drawn: Bool, nextDraw: Int64)>((false, 0))

  /// - Parameters:
  ///   - label: the command, as the line starts (`decode`).
  ///   - unit: what the updates count.
  ///   - quiet: the command's `--quiet`: nothing is drawn.
  init(_ label: String, unit: Unit, quiet: Bool) {
    self.label = label
    self.unit = unit
    fd = StandardStreams.current.error
    isShown = !quiet && isatty(fd) == 1
  }

  /// Shows `done` of `total` (how much there is in all, when known), when it moved the line on
  /// enough to redraw it.
  func update(_ done: Int64, of total: Int64?) {
    guard isShown else { return }
    state.withLock { state in
      guard done >= state.nextDraw else { return }
      var text = "\r\u{1B}[K\(label): \(Self.amount(done, unit))"
      if let total, total > 0 {
        let percent = min(100, done * 100 / total)
        text += " of \(Self.amount(total, unit)) (\(percent) %)"
        state.nextDraw = ((percent + 1) * total + 99) / 100  // the first count of the next percent
      } else {
        state.nextDraw = done + max(1, done / 50)
      }
      write(text)
      state.drawn = true
    }
  }

  /// Erases the line (the command's own output follows on a clean line).
  func finish() {
    state.withLock { state in
      guard state.drawn else { return }
      write("\r\u{1B}[K")
      state.drawn = false
    }
  }

  private func write(_ text: String) {
    var text = text
    text.withUTF8 { _ = StandardStreams.write(UnsafeRawBufferPointer($0), to: fd) }
  }

  /// `n` as the line shows it: bytes in kB/MB/GB, seconds as h:mm:ss, epochs counted.
  static func amount(_ n: Int64, _ unit: Unit) -> String {
    switch unit {
    case .bytes:
      let value = Double(n)
      if value >= 1e9 { return String(format: "%.2f GB", value / 1e9) }
      if value >= 1e6 { return String(format: "%.1f MB", value / 1e6) }
      return String(format: "%.0f kB", value / 1e3)
    case .seconds: return String(format: "%d:%02d:%02d", n / 3600, n / 60 % 60, n % 60)
    case .epochs: return n == 1 ? "1 epoch" : "\(n) epochs"
    }
  }
}
