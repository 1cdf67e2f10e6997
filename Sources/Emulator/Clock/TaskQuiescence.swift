import CConcurrencyHooks
import Dispatch
import Geo
import LocationModel
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whether the process's Swift tasks are idle: every job enqueued on the global concurrent
/// executor or the main actor has run.
///
/// A virtual ``EmulatorClock`` moves time only then (unless made with
/// `settlesUnstructuredTasks: false`), so that work the clock does not track — an app's
/// `Task {}`, a continuation resumed from a delegate callback, a hop through an actor, as iOS
/// code does them — finishes before time moves on, and a test checks right after an advance.
///
/// How: the runtime's enqueue hooks (`swift_task_enqueueGlobal_hook` and
/// `swift_task_enqueueMainExecutor_hook`, as swift-concurrency-extras uses the first) count each
/// job, and run it on the queues the default executors use (Dispatch's global queue, the main
/// queue), uncounting it once it returned. Installed once per process, at the first virtual
/// clock that settles; jobs on other executors (an actor's own, an event loop) are not counted.
/// The hooks' variables are reached by reference (the CConcurrencyHooks target), not looked up
/// with `dlsym`, so that an executable linked with `--static-swift-stdlib` settles too.
enum TaskQuiescence {
  private typealias Original = @convention(thin) (UnownedJob) -> Void
  private typealias Hook = @convention(thin) (UnownedJob, Original) -> Void
  private typealias GetMainOriginal = @convention(thin) () -> UnownedSerialExecutor
  private typealias GetMainHook = @convention(thin) (GetMainOriginal) -> UnownedSerialExecutor
  private typealias IsMainOriginal = @convention(thin) (UnownedSerialExecutor) -> Bool
  private typealias IsMainHook = @convention(thin) (UnownedSerialExecutor, IsMainOriginal) -> Bool

  private struct Job: @unchecked Sendable { let job: UnownedJob }

  /// Jobs enqueued and not yet returned.
  private static let pending = Atomic<Int>(0)
  /// Jobs returned since the hooks went in (progress, for a stall watchdog).
  private static let completed = Atomic<UInt64>(0)
  /// Called once the count reaches zero (each once).
  private static let waiters = Locked<[@Sendable () -> Void]>([])
  /// Whether the hooks are in.
  private static let installed = Locked(false)
  /// Per thread: whether it runs a counted job now.
  private static let inJobKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
  }()

  /// The Swift toolchains the hooks are tested with (CI runs the newest); the self-test of
  /// ``installation`` names what fails on any other.
  static let testedToolchains = "Swift 6.3 (6.3.1 on CI)"

  /// Installs the hooks (once per process); returns whether they are in and behave.
  @discardableResult
  static func install() -> Bool { installation == nil }

  /// Why the hooks are not in, or nil when they are: installed once per process, then checked
  /// at once by a self-test (the runtime must call the hooks, or the clock cannot know about a
  /// plain `Task {}`: a runtime that ignores them would make settling tests flaky, so the clock
  /// refuses to move with ``EmulatorClockError/Code/cannotSettle`` instead).
  static let installation: String? = {
    func hook(_ which: locemu_concurrency_hook) -> UnsafeMutableRawPointer { locemu_concurrency_hook_address(which) }
    let global = hook(LOCEMU_HOOK_ENQUEUE_GLOBAL), main = hook(LOCEMU_HOOK_ENQUEUE_MAIN_EXECUTOR)
    let getMain = hook(LOCEMU_HOOK_GET_MAIN_EXECUTOR), isMain = hook(LOCEMU_HOOK_IS_MAIN_EXECUTOR)
    _ = inJobKey
    _ = CountingMainExecutor.shared
    // The main actor: since Swift 6.2 its jobs go to its executor object, not through the
    // enqueue hook; so the main actor's executor is one that counts, and runs each job on
    // the main queue as the default one does. The enqueue hook stays for older runtimes.
    getMain.assumingMemoryBound(to: GetMainHook?.self).pointee = { _ in CountingMainExecutor.unowned }
    isMain.assumingMemoryBound(to: IsMainHook?.self).pointee = { executor, original in
      CountingMainExecutor.isCounting(executor) || original(executor)
    }
    main.assumingMemoryBound(to: Hook?.self).pointee = { job, _ in TaskQuiescence.enqueueOnMain(job) }
    global.assumingMemoryBound(to: Hook?.self).pointee = { job, _ in
      TaskQuiescence.enqueued()
      let wrapped = Job(job: job)
      DispatchQueue.global().async {
        TaskQuiescence.run { wrapped.job.runSynchronously(on: globalConcurrentExecutor.asUnownedTaskExecutor()) }
      }
    }
    installed.withLock { $0 = true }
    return selfTest()
  }()

  /// Whether the runtime calls the hooks: the main actor's executor is the counting one, and a
  /// new task's first job is counted as it is enqueued (synchronously, so no wait).
  private static func selfTest() -> String? {
    guard CountingMainExecutor.isCounting(MainActor.sharedUnownedExecutor) else {
      return "the Swift runtime did not take the main executor from swift_task_getMainExecutor_hook"
    }
    let before = completed.load(ordering: .sequentiallyConsistent)
    Task.detached(priority: .low) {}
    let counted = pending.load(ordering: .sequentiallyConsistent) > 0 || completed.load(ordering: .sequentiallyConsistent) > before
    guard counted else { return "the Swift runtime did not enqueue a new task through swift_task_enqueueGlobal_hook" }
    return nil
  }

  /// Counts `job` and runs it on the main queue, as the main actor's (the hook's and the
  /// counting executor's one path).
  fileprivate static func enqueueOnMain(_ job: UnownedJob) {
    enqueued()
    let wrapped = Job(job: job)
    DispatchQueue.main.async { TaskQuiescence.run { wrapped.job.runSynchronously(on: CountingMainExecutor.unowned) } }
  }

  private static func enqueued() { pending.add(1, ordering: .sequentiallyConsistent) }

  private static func run(_ body: () -> Void) {
    let outer = pthread_getspecific(inJobKey)
    pthread_setspecific(inJobKey, UnsafeRawPointer(bitPattern: 1))
    body()
    pthread_setspecific(inJobKey, outer)
    completed.add(1, ordering: .relaxed)
    let left = pending.subtract(1, ordering: .sequentiallyConsistent).newValue
    if left == 0 { wake() }
  }

  private static func wake() {
    let callbacks = waiters.withLock { w in
      defer { w.removeAll() }
      return w
    }
    for callback in callbacks { callback() }
  }

  /// Jobs enqueued and not yet returned, besides the one running the caller.
  static var pendingJobs: Int {
    let count = pending.load(ordering: .sequentiallyConsistent)
    return pthread_getspecific(inJobKey) == nil ? count : count - 1
  }

  /// Whether the hooks are in (a settling virtual clock was made in this process).
  static var isInstalled: Bool { installed.withLock { $0 } }

  /// Suspends until no job of the process is pending (the caller's own is not, once it
  /// suspends here), runs `body` then, outside any job, and returns; at once when the hooks are
  /// not in.
  static func untilQuiet(then body: @escaping @Sendable () -> Void = {}) async {
    guard isInstalled else { return }
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let quiet: @Sendable () -> Void = {
        body()
        continuation.resume()
      }
      if !whenQuiet(quiet) { quiet() }
    }
  }

  /// Jobs that have returned so far: work in progress, as opposed to a job that never returns.
  static var completedJobs: UInt64 { completed.load(ordering: .relaxed) }

  /// Whether no job is pending but the caller's own.
  static var isQuiet: Bool { pendingJobs <= 0 }

  /// Whether no job is pending at all, the caller's own included.
  ///
  /// What a clock's loop asks before it fires a timer. Not ``isQuiet``: a loop that runs inside
  /// a job (an actor's, whose code called into the phone) must not count that job out, because
  /// jobs enqueued on the same actor meanwhile wait in the actor's queue behind it, not in the
  /// count: from inside, the process would look quiet while the actor still has work (a
  /// delegate's `Task { await service.update() }` whose turn comes after the loop's own job).
  static var isIdle: Bool { pending.load(ordering: .sequentiallyConsistent) == 0 }

  /// Calls `body` once no job is pending (from the thread that ran the last one, outside any
  /// job); returns false without registering it when none is pending now (``isIdle``).
  static func whenQuiet(_ body: @escaping @Sendable () -> Void) -> Bool {
    let registered = waiters.withLock { w -> Bool in
      guard !isIdle else { return false }
      w.append(body)
      return true
    }
    // The last job may have returned between the check and the registration.
    if registered, pending.load(ordering: .sequentiallyConsistent) == 0 { wake() }
    return registered
  }
}

/// The main actor's executor while a settling virtual clock exists: each job is counted (see
/// ``TaskQuiescence``) and run on the main queue, in order, as the default main executor runs it.
final class CountingMainExecutor: SerialExecutor, @unchecked Sendable {
  static let shared = CountingMainExecutor()
  static let unowned = UnownedSerialExecutor(ordinary: shared)

  /// Whether `executor` is this one (by identity: the reference's first word).
  static func isCounting(_ executor: UnownedSerialExecutor) -> Bool {
    unsafeBitCast(executor, to: (UInt, UInt).self).0 == unsafeBitCast(unowned, to: (UInt, UInt).self).0
  }

  func enqueue(_ job: consuming ExecutorJob) { TaskQuiescence.enqueueOnMain(UnownedJob(job)) }

  func asUnownedSerialExecutor() -> UnownedSerialExecutor { Self.unowned }

  func checkIsolated() { dispatchPrecondition(condition: .onQueue(.main)) }

  var isMainExecutor: Bool { true }
}
