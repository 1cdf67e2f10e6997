import Foundation
import Geo
import LocationModel

// The phone's source of fixes: a timeline played on the clock, paused, resumed and stopped.
extension EmulatedPhone {
  // MARK: The source

  /// Starts a timeline source (done by the initializer unless ``Configuration/startsSource`` is
  /// false): its first fix is due now plus its first offset. Idempotent.
  public func startSource() {
    core.withLock { s in
      guard !s.sourceStarted, !s.isShutDown else { return }
      s.sourceStarted = true
      guard case .timeline(let make) = configuration.source.kind else { return }
      engine.beginTimeline(make, startDate: configuration.startDate, &s)
    }
    clock.drive()
  }

  /// Plays `source` from now in place of the timeline source playing (whose file is closed):
  /// a trace run or a route given to a running phone. Its fixes are stamped from the phone's
  /// date now. A ``PhoneSource/live(_:)`` source cannot be played this way (it is read by
  /// ``run()``): the result is false and nothing changes.
  @discardableResult
  public func play(_ source: PhoneSource) -> Bool {
    guard case .timeline(let make) = source.kind else { return false }
    core.withLock { s in
      guard !s.isShutDown else { return }
      s.sourceStarted = true
      engine.closeTimeline(&s)
      engine.beginTimeline(make, startDate: date, &s)
    }
    clock.drive()
    return true
  }

  /// Stops a timeline source now: no further fix; its file is closed. (A live source stops
  /// with ``run()``.)
  public func stopSource() {
    core.withLock { s in
      s.sourceStarted = true
      engine.closeTimeline(&s)
    }
  }

  /// Pauses the timeline source playing (a trace, a route, a script, a fixed point): no fix
  /// comes until ``resumeSource()``, which carries on where it paused, the time paused added to
  /// the times and timestamps of the fixes still to come. (A live source cannot be paused.)
  /// - Returns: false when no timeline source is playing, or it is paused already.
  @discardableResult
  public func pauseSource() -> Bool {
    core.withLock { s in
      guard !s.isShutDown, s.timeline != nil, s.sourcePausedAt == nil else { return false }
      if let timer = s.sourceTimer { clock.cancel(timer) }
      s.sourceTimer = nil
      s.sourcePausedAt = clock.nowOffset
      return true
    }
  }

  /// Resumes a source paused by ``pauseSource()``: its next fix comes as long after now as it
  /// was due after the pause.
  /// - Returns: false when the source is not paused (or has been replaced since).
  @discardableResult
  public func resumeSource() -> Bool {
    let resumed = core.withLock { s -> Bool in
      guard !s.isShutDown, let pausedAt = s.sourcePausedAt else { return false }
      let paused = clock.nowOffset - pausedAt
      s.sourcePausedAt = nil
      s.sourceStart = s.sourceStart.map { $0 + paused }
      s.sourceShift += paused
      if s.pendingSourceFix != nil, let due = s.pendingSourceDue {
        s.pendingSourceDue = due + paused
        s.sourceTimer = clock.schedule(at: EmulatorClock.Instant(offset: due + paused), target: engine, tag: PhoneEngine.sourceTimer)
      }
      return true
    }
    if resumed { clock.drive() }
    return resumed
  }

  /// Whether ``pauseSource()`` paused the source playing.
  public var isSourcePaused: Bool { core.withLock { $0.sourcePausedAt != nil } }
}

// The source inside the phone's lock: a timeline begun, its next fix scheduled, its timer fired.
extension PhoneEngine {
  func beginTimeline(_ make: @Sendable (Date) throws -> any PhoneTimeline, startDate: Date, _ s: inout PhoneCore) {
    s.sourceStart = clock.nowOffset
    (s.sourcePausedAt, s.sourceShift) = (nil, .zero)
    do {
      s.timeline = try make(startDate)
      scheduleNextSourceFix(&s)
    } catch {
      emit(.sourceEnded(error: String(describing: error)), &s)
    }
  }

  func closeTimeline(_ s: inout PhoneCore) {
    if let timer = s.sourceTimer { clock.cancel(timer) }
    s.sourceTimer = nil
    s.pendingSourceFix = nil
    (s.sourcePausedAt, s.sourceShift) = (nil, .zero)
    s.timeline?.close()
    s.timeline = nil
  }

  func scheduleNextSourceFix(_ s: inout PhoneCore) {
    guard let timeline = s.timeline, let start = s.sourceStart else { return }
    do {
      let due: Duration?
      if let script = timeline as? ScriptTimeline {
        due = script.next(into: &s.pendingSourceFix)
      } else if let (at, fix) = try timeline.next() {
        s.pendingSourceFix = fix
        due = at
      } else {
        due = nil
      }
      if let at = due {
        s.pendingSourceDue = start + at
        s.sourceTimer = clock.schedule(at: EmulatorClock.Instant(offset: start + at), target: self, tag: Self.sourceTimer)
      } else {
        endSource(&s, error: nil)
      }
    } catch {
      endSource(&s, error: String(describing: error))
    }
  }

  func endSource(_ s: inout PhoneCore, error: String?) {
    s.timeline?.close()
    s.timeline = nil
    s.sourceTimer = nil
    emit(.sourceEnded(error: error), &s)
  }

  /// The source timer's action: the pending fix arrives, the next is scheduled; the fix's
  /// events, when the loop has nothing before them, are delivered last, outside the lock.
  func sourceFired() {
    let ready = core.withLock { s -> PhoneOutbox in
      guard !s.isShutDown, var fix = s.pendingSourceFix.take() else { return PhoneOutbox() }
      s.sourceTimer = nil
      // After a pause the fix is stamped as late as it comes.
      if s.sourceShift > .zero, let stamp = fix.timestamp { fix.timestamp = stamp + s.sourceShift.seconds }
      let ready = receive(fix, &s, asTimerAction: true)
      scheduleNextSourceFix(&s)
      return ready
    }
    ready.deliver()
  }
}
