import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An exclusive hold on a build folder for one port's builds and test run, so that two ports
/// given the same `--scratch-path` (two terminals, or a test suite's parallel tests) take turns:
/// without it, one port's `swift build` could replace the modules the other's
/// `swift test --skip-build` then runs (seen: a port with the ServedPhone trait ran the test
/// binary another port had just built without it).
///
/// The lock is `flock(2)` on a file beside the folder (`FOLDER.lock`), let go by ``release()``
/// or when the process ends, so a port that crashed leaves nothing held. Waiting happens on a thread of
/// its own, never on Swift's cooperative pool.
final class ScratchLock: Sendable {
  private let descriptor: Int32

  private init(descriptor: Int32) { self.descriptor = descriptor }

  /// Holds the lock on `folder`, waiting for another holder to let go (after `waiting` is
  /// called once with the lock file's path).
  static func acquire(_ folder: URL, waiting: @Sendable (String) -> Void) async throws -> ScratchLock {
    let path = folder.path + ".lock"
    try FileManager.default.createDirectory(at: folder.deletingLastPathComponent(), withIntermediateDirectories: true)
    let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw Porter.Failure.cannotRead("\(path): cannot open (\(String(cString: strerror(errno))))") }
    if flock(fd, LOCK_EX | LOCK_NB) == 0 { return ScratchLock(descriptor: fd) }
    waiting(path)
    let status: Int32 = await withCheckedContinuation { continuation in
      let thread = Thread {
        var result: Int32
        repeat { result = flock(fd, LOCK_EX) } while result != 0 && errno == EINTR
        continuation.resume(returning: result == 0 ? 0 : errno)
      }
      thread.name = "locemu port: waiting for \(path)"
      thread.start()
    }
    guard status == 0 else {
      close(fd)
      throw Porter.Failure.cannotRead("\(path): cannot lock (\(String(cString: strerror(status))))")
    }
    return ScratchLock(descriptor: fd)
  }

  /// Lets the next port in; call it once.
  func release() { close(descriptor) }
}
