import Foundation
import Synchronization
import Testing
import ToolsTestSupport

@testable import Porting

/// Two ports given one build folder: each package and set of traits builds in a folder of its
/// own, and two ports of the same one take turns (the shape of a failure seen in CI: a port with
/// the ServedPhone trait ran the test binary that a port without it had just built there).
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
}
