import EmulatorTesting
import Foundation
import Synchronization
import Testing
import ToolsTestSupport

@testable import Porting

/// Two ports given one build folder: each package and set of traits builds in a folder of its
/// own, and two ports of the same one take turns (the shape of a failure seen in CI: a port with
/// the ServedPhone trait ran the test binary that a port without it had just built there), in one
/// process or in two.
@Suite("locemu port: build folders, one per package and traits, one port at a time")
struct ScratchLockTests {
  @Test("PORT-14: a served phone's port and the Combine trait each get a folder of their own")
  func traitsNameTheFolder() {
    var options = PortOptions(package: nil, library: repositoryRoot)
    #expect(Porter.traitNames(options).isEmpty)
    options.environment = ["LOCEMU_SERVER": "http://127.0.0.1:1"]
    #expect(Porter.traitNames(options) == ["ServedPhone"])
    options.combineTrait = true
    #expect(Porter.traitNames(options) == ["ServedPhone", "Combine"])
  }

  @Test("PORT-15: a second port of the folder waits, says so, and goes on when the first lets go")
  func theSecondWaits() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("scratch-lock-\(UUID().uuidString)/PlaceKit")
    defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
    let first = try await ScratchLock.acquire(folder) { _ in Issue.record("the first port waited") }
    let said = AsyncStream.makeStream(of: String.self)
    let held = Mutex(false)
    let second = Task {
      let lock = try await ScratchLock.acquire(folder) { said.continuation.yield($0) }
      held.withLock { $0 = true }
      lock.release()
    }
    // The second port has found the folder held (it said so) and has not got it.
    var waiting = said.stream.makeAsyncIterator()
    let path = await waiting.next()
    #expect(path == folder.path + ".lock")
    #expect(!held.withLock { $0 })
    first.release()
    try await bounded("the second port's lock", .seconds(600)) { try await second.value }
    #expect(held.withLock { $0 })
    // Let go, the folder is free again at once.
    let third = try await ScratchLock.acquire(folder) { _ in Issue.record("the third port waited") }
    third.release()
  }

  @Test("PORT-16: a port lets go at once, though its process starts other processes the while")
  func lettingGoWhileProcessesStart() async throws {
    // The shape of a failure seen in CI: a lock on the open file (flock) was held a while longer
    // by a child caught between posix_spawn's clone and its exec, which holds a copy of every
    // descriptor; the next port found the folder held. Here two threads start processes without
    // pause while ports take and let go of the folder, and no port may find it held.
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("scratch-lock-\(UUID().uuidString)/PlaceKit")
    defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
    let counts = Counts()
    let spawners = (0..<2).map { _ in
      Task.detached {
        try await offPool {
          while !counts.stop.load(ordering: .relaxed) {
            let child = Process()
            child.executableURL = URL(fileURLWithPath: "/bin/true")
            try child.run()
            counts.started.add(1, ordering: .relaxed)
            child.waitUntilExit()
          }
        }
      }
    }
    defer { counts.stop.store(true, ordering: .relaxed) }
    let turns = try await bounded("ports taking turns while 200 processes start", .seconds(600)) {
      var turns = 0
      while counts.started.load(ordering: .relaxed) < 200 {
        let lock = try await ScratchLock.acquire(folder) { _ in counts.waited.add(1, ordering: .relaxed) }
        lock.release()
        turns += 1
        await Task.yield()  // a turn for the other tests on the cooperative pool
      }
      return turns
    }
    counts.stop.store(true, ordering: .relaxed)
    for spawner in spawners { try await spawner.value }
    #expect(turns > 0)
    #expect(
      counts.waited.load(ordering: .relaxed) == 0, "of \(turns) turns, \(counts.waited.load(ordering: .relaxed)) found the folder held")
  }

  /// A port in another process: Python's `fcntl.lockf` takes the same record lock as any other
  /// tool that locks the file the POSIX way.
  @Test("PORT-17: a port in another process is kept out while one holds the folder, and waited for while it holds it")
  func anotherProcess() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("scratch-lock-\(UUID().uuidString)/PlaceKit")
    defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
    let path = folder.path + ".lock"
    let script = """
      import fcntl, sys, time
      f = open(sys.argv[1], "a")
      try:
          fcntl.lockf(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
      except OSError:
          sys.exit(3)
      if sys.argv[2] == "hold":
          print("holding", sys.argv[1], flush=True)
          while True:
              time.sleep(3600)
      """
    // Held here: the other process is refused; let go: it gets the lock.
    let ours = try await ScratchLock.acquire(folder) { _ in Issue.record("the folder was held before the test") }
    let refused = try await offPool { try runProcess("/usr/bin/env", ["python3", "-c", script, path, "try"]) }
    #expect(refused.status == 3, "python3: \(refused.stderr)")
    ours.release()
    let admitted = try await offPool { try runProcess("/usr/bin/env", ["python3", "-c", script, path, "try"]) }
    #expect(admitted.status == 0, "python3: \(admitted.stderr)")

    // Held there: a port here says it waits, and goes on when the other process ends.
    let other = try await ServerProcess.start(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, path, "hold"])
    defer { other.stop() }
    #expect(other.url == path)
    let said = AsyncStream.makeStream(of: String.self)
    let port = Task { try await ScratchLock.acquire(folder) { said.continuation.yield($0) } }
    var waiting = said.stream.makeAsyncIterator()
    #expect(await waiting.next() == path)
    other.stop()
    let lock = try await bounded("the port's lock after the other process ended", .seconds(600)) { try await port.value }
    lock.release()
  }
}

/// What PORT-16's threads and its ports count, and the word that stops the threads.
private final class Counts: Sendable {
  let started = Atomic(0)
  let waited = Atomic(0)
  let stop = Atomic(false)
}
