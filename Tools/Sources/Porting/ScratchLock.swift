import Foundation

#if canImport(Glibc)
  import Glibc
  private typealias RecordLock = Glibc.flock
#elseif canImport(Darwin)
  import Darwin
  private typealias RecordLock = Darwin.flock
#endif

/// An exclusive hold on a build folder for one port's builds and test run, so that two ports
/// given the same `--scratch-path` (two terminals, or a test suite's parallel tests) take turns:
/// without it, one port's `swift build` could replace the modules the other's
/// `swift test --skip-build` then runs (seen: a port with the ServedPhone trait ran the test
/// binary another port had just built without it).
///
/// Two holds make one:
/// - **Between processes**, a POSIX record lock (`fcntl(2)`, `F_SETLK`) on a file beside the
///   folder (`FOLDER.lock`). The process owns it, not the descriptor, so a child the process
///   starts never holds it. A lock on the open file itself (`flock(2)`) did: a child between
///   `posix_spawn`'s clone and its `exec` holds a copy of every descriptor, and the lock with
///   it, so a port that let go while another thread started a process kept the folder a while
///   longer (seen in CI: a port that found a folder held just after it was let go). The process's
///   end lets go too, so a port that crashed leaves nothing held.
/// - **Within a process**, a queue per lock file: a record lock does not exclude its own process,
///   and closing any descriptor of the file lets it go, so a process opens the file once, and
///   its ports hand the open, locked file to one another in the order they asked.
///
/// Waiting for another process happens on a thread of its own, never on Swift's cooperative pool.
final class ScratchLock: Sendable {
  private let path: String
  private let descriptor: Int32

  private init(path: String, descriptor: Int32) {
    self.path = path
    self.descriptor = descriptor
  }

  /// What the port ahead in this process gives the next one: the locked file, or its turn to
  /// lock it (the one ahead could not).
  private enum Handover {
    case locked(Int32)
    case yourTurn
  }

  /// The lock files this process holds or is locking, each with the ports of this process
  /// waiting for it, in order. Behind `queuesLock`: an NSLock is a pthread mutex, which
  /// ThreadSanitizer sees (it does not see the futex under `Synchronization.Mutex`).
  private nonisolated(unsafe) static var _queues: [String: [CheckedContinuation<Handover, Never>]] = [:]
  private static let queuesLock = NSLock()
  private static func withQueues<T>(_ body: (inout [String: [CheckedContinuation<Handover, Never>]]) -> T) -> T {
    queuesLock.withLock { body(&_queues) }
  }

  /// Holds the lock on `folder`, waiting for another holder to let go (after `waiting` is
  /// called once with the lock file's path).
  static func acquire(_ folder: URL, waiting: @Sendable (String) -> Void) async throws -> ScratchLock {
    let path = folder.path + ".lock"
    try FileManager.default.createDirectory(at: folder.deletingLastPathComponent(), withIntermediateDirectories: true)
    let first = withQueues { queues in
      guard queues[path] == nil else { return false }
      queues[path] = []
      return true
    }
    if !first {
      waiting(path)
      let handover = await withCheckedContinuation { continuation in
        // The port ahead may have let go in between: then this one is first after all.
        let queued = withQueues { queues in
          guard queues[path] != nil else {
            queues[path] = []
            return false
          }
          queues[path]!.append(continuation)
          return true
        }
        if !queued { continuation.resume(returning: .yourTurn) }
      }
      if case .locked(let descriptor) = handover { return ScratchLock(path: path, descriptor: descriptor) }
    }
    do {
      return ScratchLock(path: path, descriptor: try await lockFile(path, saysItWaits: first, waiting: waiting))
    } catch {
      handOver(path, nil)
      throw error
    }
  }

  /// Opens and locks the file against other processes, waiting for them on a thread of its own
  /// (after calling `waiting`, unless the port said it waits already).
  private static func lockFile(_ path: String, saysItWaits: Bool, waiting: @Sendable (String) -> Void) async throws -> Int32 {
    let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw Porter.Failure.cannotRead("\(path): cannot open (\(String(cString: strerror(errno))))") }
    if recordLock(fd, wait: false) == 0 { return fd }
    if saysItWaits { waiting(path) }
    let status: Int32 = await withCheckedContinuation { continuation in
      let thread = Thread {
        var result: Int32
        repeat {
          result = recordLock(fd, wait: true)
          // The kernel finds deadlocks between processes, not ports: a process whose one port
          // holds a folder another process waits for, while its other port waits for that
          // process's folder, is told EDEADLK though each port's build ends on its own. Ask again.
          if result == EDEADLK { usleep(100_000) }
        } while result == EINTR || result == EDEADLK
        continuation.resume(returning: result)
      }
      thread.name = "locemu port: waiting for \(path)"
      thread.start()
    }
    guard status == 0 else {
      close(fd)
      throw Porter.Failure.cannotRead("\(path): cannot lock (\(String(cString: strerror(status))))")
    }
    return fd
  }

  /// A write lock on the whole file: 0, or the error.
  private static func recordLock(_ fd: Int32, wait: Bool) -> Int32 {
    var whole = RecordLock()
    whole.l_type = Int16(F_WRLCK)
    whole.l_whence = Int16(SEEK_SET)
    return fcntl(fd, wait ? F_SETLKW : F_SETLK, &whole) == 0 ? 0 : errno
  }

  /// Gives the next port of this process its turn, with the locked file if there is one, or lets
  /// go of the file. The file is closed under the queue's lock, so that no port of this process
  /// has opened it anew when it closes (closing any descriptor of the file would let go of that
  /// port's lock too).
  private static func handOver(_ path: String, _ descriptor: Int32?) {
    let next = withQueues { queues -> CheckedContinuation<Handover, Never>? in
      guard var waiting = queues[path], !waiting.isEmpty else {
        if let descriptor { close(descriptor) }
        queues[path] = nil
        return nil
      }
      let next = waiting.removeFirst()
      queues[path] = waiting
      return next
    }
    next?.resume(returning: descriptor.map(Handover.locked) ?? .yourTurn)
  }

  /// Lets the next port in; call it once.
  func release() { Self.handOver(path, descriptor) }
}
