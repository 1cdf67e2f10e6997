import Geo

extension EmulatorClock {
  /// Runs `body` on the main actor, after every call queued here before it.
  ///
  /// For code that calls an app on the main actor as iOS does (a `CLLocationManager` made on
  /// the main thread calls its delegate there). On a virtual clock each call counts as running
  /// work, so time does not move past it and an advance returns after it; the calls queued at
  /// one instant run in one main-actor job, not a job (and a thread's wake-up) each.
  public func runOnMainActor(_ body: @escaping @Sendable () -> Void) {
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
