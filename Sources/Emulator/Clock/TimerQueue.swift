import DequeModule
import HeapModule

/// What fires a timer set with a target (``EmulatorClock/schedule(at:target:tag:)``): the
/// target is called with the tag the timer was set with.
///
/// A phone's engine is the target of the phone's timers: held strongly by them while they are
/// pending, and by nothing else of the clock's, it needs no weak reference from its timers (a
/// weak reference gives an object a side table, and every retain and release of it then takes
/// the runtime's slow path: a tenth of a fleet's time) and no closure made per timer.
protocol ClockTimerTarget: AnyObject, Sendable {
  func clockTimerFired(_ tag: UInt64)
}

/// A timer's action, in a concrete type: a closure stored straight in a generic collection is
/// wrapped in a reabstraction thunk, and a closure that goes round such collections again and
/// again would pile up thunks.
enum TimerAction {
  case closure(@Sendable () -> Void)
  case target(any ClockTimerTarget, tag: UInt64)

  func run() {
    switch self {
    case .closure(let action): action()
    case .target(let target, let tag): target.clockTimerFired(tag)
    }
  }
}

/// The clock's timers, in firing order: by deadline, then by the order they were set.
///
/// A calendar queue: a heap of the distinct deadlines, and for each deadline a bucket of its
/// timers in the order they were set (sequence numbers only grow, so a bucket is sorted). Many
/// timers share a deadline — a fleet's phones all have a fix due on the second — so setting and
/// firing a timer are O(1) but for the first timer of a deadline; a cancellation finds its timer
/// by binary search and leaves a tombstone.
struct TimerQueue {
  private struct Entry {
    var sequence: UInt64
    var action: TimerAction?
  }

  /// Distinct deadlines (nanoseconds since the clock's zero) that have a bucket.
  private var deadlines = Heap<Int64>()
  private var buckets: [Int64: Deque<Entry>] = [:]
  /// The bucket being fired, taken out of `buckets` while it drains.
  private var current: (deadline: Int64, entries: Deque<Entry>)?
  /// The bucket a timer was last added to, held out of `buckets` (its deadline is in
  /// `deadlines`): a fleet's phones set their next timers for the same deadline one after
  /// another, and then each costs no hashing.
  private var recent: (deadline: Int64, entries: Deque<Entry>)?
  /// Timers set and neither fired nor cancelled.
  private(set) var count = 0
  private var nextSequence: UInt64 = 0

  /// Sets a timer; returns its sequence number.
  mutating func insert(deadline: Int64, action: consuming TimerAction) -> UInt64 {
    let sequence = nextSequence
    nextSequence &+= 1
    count += 1
    let entry = Entry(sequence: sequence, action: action)
    if current?.deadline == deadline {
      current!.entries.append(entry)
    } else if recent?.deadline == deadline {
      recent!.entries.append(entry)
    } else {
      if let parked = recent.take() { buckets[parked.deadline] = parked.entries }
      var entries = buckets.removeValue(forKey: deadline) ?? []
      if entries.isEmpty { deadlines.insert(deadline) }
      entries.append(entry)
      recent = (deadline, entries)
    }
    return sequence
  }

  /// The bucket of `deadline`, taken off the queue's tables (its deadline stays in `deadlines`).
  private mutating func takeBucket(_ deadline: Int64) -> Deque<Entry>? {
    if recent?.deadline == deadline { return recent.take()!.entries }
    return buckets.removeValue(forKey: deadline)
  }

  /// Whether the bucket of `deadline` holds no live timer (or there is none).
  private func bucketIsDead(_ deadline: Int64) -> Bool {
    let entries = recent?.deadline == deadline ? recent!.entries : buckets[deadline]
    return entries?.allSatisfy({ $0.action == nil }) ?? true
  }

  /// Cancels the timer `sequence` due at `deadline`; nothing when it fired or was cancelled.
  mutating func cancel(sequence: UInt64, deadline: Int64) {
    if current?.deadline == deadline {
      if Self.tombstone(sequence, in: &current!.entries) { count -= 1 }
    } else if recent?.deadline == deadline {
      if Self.tombstone(sequence, in: &recent!.entries) { count -= 1 }
    } else if buckets[deadline] != nil, Self.tombstone(sequence, in: &buckets[deadline]!) {
      count -= 1
    }
  }

  private static func tombstone(_ sequence: UInt64, in entries: inout Deque<Entry>) -> Bool {
    var low = 0
    var high = entries.count
    while low < high {
      let mid = (low + high) / 2
      if entries[mid].sequence < sequence { low = mid + 1 } else { high = mid }
    }
    guard low < entries.count, entries[low].sequence == sequence, entries[low].action != nil else { return false }
    entries[low].action = nil
    return true
  }

  /// The next timer due at or before `limit`, taken off the queue.
  mutating func pop(dueBy limit: Int64) -> (deadline: Int64, action: TimerAction)? {
    while true {
      if current == nil {
        guard let deadline = deadlines.min, deadline <= limit else {
          // Not due: but drop a bucket of tombstones at the front, so that `next` is right.
          if let deadline = deadlines.min, bucketIsDead(deadline) {
            _ = takeBucket(deadline)
            _ = deadlines.popMin()
            continue
          }
          return nil
        }
        _ = deadlines.popMin()
        current = (deadline, takeBucket(deadline) ?? [])
      }
      guard let deadline = current?.deadline, deadline <= limit else { return nil }
      while let entry = current!.entries.popFirst() {
        if let action = entry.action {
          count -= 1
          if current!.entries.isEmpty { current = nil }
          return (deadline, action)
        }
      }
      current = nil
    }
  }

  /// When the next timer is due, if any.
  mutating func next() -> Int64? {
    if let current {
      if current.entries.contains(where: { $0.action != nil }) { return current.deadline }
      self.current = nil
    }
    while let deadline = deadlines.min {
      if !bucketIsDead(deadline) { return deadline }
      _ = takeBucket(deadline)
      _ = deadlines.popMin()
    }
    return nil
  }
}
