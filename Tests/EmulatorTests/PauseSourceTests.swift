import Emulator
import Foundation
import Geo
import LocationModel
import Testing

/// Pausing what a phone plays (the web page's and the server's pause): no fix while paused, then
/// the source carries on where it was, its fixes as late as the pause and stamped so.
@Suite struct PauseSourceTests {
  static let home = Coordinate(latitude: 60.1699, longitude: 24.9384)!

  @Test func aPausedSourceResumesWhereItWasStampedAsLateAsThePause() async throws {
    let seen = Locked<[(at: Double, stamp: Double)]>([])
    let start = EmulatedPhone.Configuration.defaultStartDate
    let configuration = EmulatedPhone.Configuration(source: .fixed(Self.home, interval: .seconds(1)))
    try await withEmulatedPhone(configuration, clock: makeClock()) { phone in
      let observation = phone.observe([.sourceFix]) { event in
        if case .sourceFix(let fix) = event {
          seen.withLock { $0.append((phone.elapsed.seconds, fix.timestamp!.timeIntervalSince(start))) }
        }
      }
      defer { observation.cancel() }
      try await phone.advance(by: .milliseconds(2500))
      #expect(seen.withLock { $0.map(\.at) } == [0, 1, 2])

      #expect(phone.pauseSource())
      #expect(!phone.pauseSource())
      #expect(phone.isSourcePaused)
      try await phone.advance(by: .seconds(10))
      #expect(seen.withLock { $0.count } == 3)

      // Resumed at 12.5 s: the fix due at 3 s comes half a second later, stamped 13 s.
      #expect(phone.resumeSource())
      #expect(!phone.resumeSource() && !phone.isSourcePaused)
      try await phone.advance(by: .milliseconds(1600))
      let after = seen.withLock { Array($0.dropFirst(3)) }
      #expect(after.map(\.at) == [13, 14] && after.map(\.stamp) == [13, 14], "\(after)")

      // Another source replaces a paused one, unpaused.
      #expect(phone.pauseSource())
      phone.play(.fixed(Self.home, interval: .seconds(1)))
      #expect(!phone.isSourcePaused)
      phone.stopSource()
      #expect(!phone.pauseSource())
    }
  }
}
