// Fleet benchmark (prints figures; run by scripts/bench-fleet.sh):
//
//   fleet-benchmark [PHONES] [TRACE] [PROFILE]
//
// PHONES phones (default 10,000) on one virtual EmulatorClock, each replaying TRACE (default the
// bundled city walk: 973 one-second epochs, decoded and scheduled once, ReplaySchedule, and
// shared by every phone) through a permission scenario: the app asks for permission (a task on
// the clock), the scripted user answers "Allow Once" after 2 s, the app goes to the background
// (the grant lapses) and comes back, the user allows it in Settings, switches to approximate
// location, Location Services off and on, precise again. Each phone's app observes its locations
// synchronously.
//
// Prints: a hash of the delivered stream (every phone's fixes, in the order the apps got them:
// a change that keeps the hash keeps the events and their order); the events the clock ran
// (timers fired, effects, task wake-ups) and events/s; the epochs and deliveries; resident
// memory per phone after the phones were made, and at the end of the run (the shared trace is
// loaded before the first measure).
//
// With PROFILE (open-sky, urban-canyon, …) each phone's trace is the truth under a seeded GNSS
// receiver of that profile (its own phone number, one seed): what realism costs a fleet.
import Emulator
import Foundation
import GNSSReceiver
import Geo
import Synchronization
import Traces
import LocationModel
import PhoneSources

/// Resident memory now, bytes (/proc/self/statm).
func residentBytes() -> Int {
  guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
  let fields = text.split(separator: " ")
  return fields.count > 1 ? (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) : 0
}

let arguments = Array(CommandLine.arguments.dropFirst())
let phoneCount = arguments.first.flatMap(Int.init) ?? 10_000
let tracePath = arguments.dropFirst().first ?? "traces/city-walk.nmea"
let profile = arguments.dropFirst(2).first.map { name -> ReceiverProfile in
  guard let profile = ReceiverProfile.named(name) else { fatalError("no profile \(name)") }
  return profile
}

// The epochs of the trace decoded once, read by many phones.
let trace = try DecodedTrace.decode(Trace(path: tracePath))
let epochs = trace.epochs
let traceSeconds = (epochs.last?.traceTime ?? 0) - (epochs.first?.traceTime ?? 0)

// Its replay scheduled once too: each phone's timeline is an index into the same array.
let schedule = try ReplaySchedule(options: ReplayOptions(speed: 1)) { trace.makeReader() }
let before = residentBytes()
let clock = EmulatorClock()
let deliveries = Atomic<Int>(0)
/// A hash of (phone, timestamp, latitude, longitude) of each delivery, in delivery order: each
/// word is mixed in with a multiply and a shift (FNV's prime, 64-bit words).
let streamHash = Mutex<UInt64>(0xcbf2_9ce4_8422_2325)
func fold(_ hash: inout UInt64, _ word: UInt64) {
  hash = (hash ^ word) &* 0x0000_0100_0000_01b3
  hash ^= hash >> 29
}
let made = ContinuousClock.now
var phones: [EmulatedPhone] = []
var observations: [PhoneObservation] = []
phones.reserveCapacity(phoneCount)
observations.reserveCapacity(phoneCount)
for i in 0..<phoneCount {
  let truth = PhoneSource.replay(schedule)
  let phone = EmulatedPhone(
    .init(
      name: "phone \(i)", permission: PermissionState(appStatus: .notDetermined), promptAnswer: .allowOnce, promptDelay: .seconds(2),
      source: profile.map { .realistic(truth, receiver: .init(profile: $0, seed: 1, phone: UInt64(i))) } ?? truth),
    clock: clock)
  observations.append(
    phone.observe(.location) { event in
      deliveries.add(1, ordering: .relaxed)
      guard case .location(let fix) = event else { return }
      streamHash.withLock { hash in
        fold(&hash, UInt64(i))
        fold(&hash, (fix.timestamp?.timeIntervalSinceReferenceDate ?? 0).bitPattern)
        fold(&hash, (fix.coordinate?.latitude ?? 0).bitPattern)
        fold(&hash, (fix.coordinate?.longitude ?? 0).bitPattern)
      }
    })
  // The scenario, staggered over a minute so that the phones do not all act at once.
  let offset = Duration.seconds(i % 60)
  func at(_ seconds: Int64, _ action: @escaping @Sendable () -> Void) {
    clock.schedule(at: EmulatorClock.Instant(offset: .seconds(seconds) + offset), action)
  }
  at(5) { _ = phone.start("ask") { await phone.requestWhenInUseAuthorization() } }
  at(300) { phone.apply(.background) }
  at(330) { phone.apply(.foreground) }
  at(340) { phone.apply(.permission(.authorizedWhenInUse)) }
  at(500) { phone.apply(.accuracy(.reduced)) }
  at(600) { phone.apply(.services(false)) }
  at(630) { phone.apply(.services(true)) }
  at(700) { phone.apply(.accuracy(.full)) }
  phones.append(phone)
}
let madeSeconds = (ContinuousClock.now - made) / .seconds(1)
let afterMaking = residentBytes()

let started = ContinuousClock.now
try await clock.advance(by: .seconds(Int64(traceSeconds.rounded()) + 61))
let runSeconds = (ContinuousClock.now - started) / .seconds(1)
let afterRun = residentBytes()
let events = clock.stepsRun
let delivered = deliveries.load(ordering: .relaxed)
let waiting = phones.reduce(0) { $0 + $1.waitingCallCount }

print(
  String(
    format: "fleet: %d phones on one virtual clock, each replaying %@ (%d epochs, %.0f s)%@ through a permission scenario",
    phoneCount, (tracePath as NSString).lastPathComponent, epochs.count, traceSeconds,
    profile.map { " under a \($0.name) receiver" } ?? ""))
print(String(format: "  made in %.2f s; run of %.0f virtual seconds in %.2f s", madeSeconds, (clock.now.offset / .seconds(1)), runSeconds))
print(
  String(
    format: "  %llu events (timers fired, effects, task wake-ups): %.2f M events/s; %d epochs replayed, %d fixes delivered to the apps",
    events, Double(events) / runSeconds / 1e6, phoneCount * epochs.count, delivered))
print(
  String(
    format:
      "  resident memory per phone: %.1f KB after making them, %.1f KB after the run (the process before the phones, shared trace included: %.1f MB)",
    Double(afterMaking - before) / Double(phoneCount) / 1024, Double(afterRun - before) / Double(phoneCount) / 1024,
    Double(before) / 1_048_576))
print(String(format: "  delivered stream hash (phone, time and place, in order): %016llx", streamHash.withLock { $0 }))
for phone in phones { phone.shutdown() }
try await clock.runUntilIdle()
print(
  String(
    format: "  after shutdown: %d timers, %d tasks, %d calls waiting", clock.pendingTimerCount, clock.activeTaskCount, waiting))
_ = observations
