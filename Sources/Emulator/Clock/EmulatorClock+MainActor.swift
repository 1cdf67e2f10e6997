import Dispatch
import Foundation
import Geo
import LocationModel

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension EmulatorClock {
  /// Whether ``runOnMainActor(_:)`` runs a call at once: the loop runs on the main actor on
  /// this thread, and no call waits for it.
  package var runsOnMainActorNow: Bool {
    LoopThread.isRunning(self) && MainQueue.isCurrent && storage.withLock { $0.mainActorCalls.isEmpty }
  }

  /// Runs `body` on the main actor, after every call queued here before it.
  ///
  /// For code that calls an app on the main actor as iOS does (a `CLLocationManager` made on
  /// the main thread calls its delegate there). On a virtual clock each call counts as running
  /// work, so time does not move past it and an advance returns after it. When the clock's loop
  /// itself runs on the main queue (an advance made on the main actor) and nothing is queued,
  /// the call runs there and then, as one more step of the loop; otherwise the calls queued at
  /// one instant run in one main-actor job.
  public func runOnMainActor(_ body: @escaping @Sendable () -> Void) {
    if runsOnMainActorNow {
      body()
      return
    }
    let schedule = storage.withLock { s -> Bool in
      s.mainActorCalls.append(body)
      guard !s.mainActorJobScheduled else { return false }
      s.mainActorJobScheduled = true
      if mode == .virtual { s.running += 1 }
      return true
    }
    guard schedule else { return }
    Task { @MainActor in self.runMainActorCalls() }
  }

  /// Runs the queued main-actor calls, those queued meanwhile included, then lets the loop go on.
  @MainActor private func runMainActorCalls() {
    while true {
      let calls = storage.withLock { s -> [@Sendable () -> Void] in
        guard !s.mainActorCalls.isEmpty else {
          s.mainActorJobScheduled = false
          if mode == .virtual { s.running -= 1 }
          return []
        }
        defer { s.mainActorCalls.removeAll(keepingCapacity: true) }
        return s.mainActorCalls
      }
      if calls.isEmpty { break }
      for call in calls { call() }
    }
    drive()
  }
}

/// Which clock's loop the current thread runs, if any.
enum LoopThread {
  private static let key: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
  }()

  /// Marks the thread as running `clock`'s loop; returns the mark it had, for ``leave(_:)``.
  static func enter(_ clock: EmulatorClock) -> UnsafeMutableRawPointer? {
    let outer = pthread_getspecific(key)
    pthread_setspecific(key, Unmanaged.passUnretained(clock).toOpaque())
    return outer
  }

  static func leave(_ outer: UnsafeMutableRawPointer?) { pthread_setspecific(key, outer) }

  static func isRunning(_ clock: EmulatorClock) -> Bool {
    pthread_getspecific(key) == Unmanaged.passUnretained(clock).toOpaque()
  }
}

/// Whether the current code runs on the main actor. On Linux the main actor's jobs run on the
/// main dispatch queue, and not always on the main thread (under `dispatchMain()`, as an `async`
/// main runs, a worker thread drains that queue), so the queue is what is asked.
package enum MainQueue {
  private static let key = DispatchSpecificKey<UInt8>()
  private static let marked: Bool = {
    DispatchQueue.main.setSpecific(key: key, value: 1)
    return true
  }()

  package static var isCurrent: Bool {
    _ = marked
    return DispatchQueue.getSpecific(key: key) == 1 || Thread.isMainThread
  }
}
