import Emulator
import Foundation
import GNSSReceiver
import Geo
import PhoneSources
import LocationModel
import Testing

/// A phone whose source is a realistic receiver over a truth (issue 25): a time to first fix,
/// then positions that err around the truth with the accuracy the receiver reports, the same
/// on every run of a seed.
@Suite struct RealisticSourceTests {
  static let home = Coordinate(latitude: 60.1699, longitude: 24.9384)!

  /// The fixes a phone's source gives over `seconds` of virtual time.
  static func fixes(_ options: GNSSReceiver.Options, seconds: Int) async throws -> [LocationFix] {
    let seen = Locked<[LocationFix]>([])
    let configuration = EmulatedPhone.Configuration(
      permission: PermissionState(appStatus: .authorizedWhenInUse), source: .realistic(.fixed(home), receiver: options))
    try await withEmulatedPhone(configuration, clock: makeClock()) { phone in
      let observation = phone.observe([.sourceFix]) { event in
        if case .sourceFix(let fix) = event { seen.withLock { $0.append(fix) } }
      }
      defer { observation.cancel() }
      try await phone.advance(by: .seconds(seconds))
    }
    return seen.withLock { $0 }
  }

  @Test func aPhoneGetsWhatAReceiverReports() async throws {
    let options = GNSSReceiver.Options(profile: .suburban, seed: 3, start: .cold, assisted: true)
    let fixes = try await Self.fixes(options, seconds: 120)
    #expect(fixes.count == 121)
    // An assisted cold start: seconds without a fix, then fixes.
    let first = try #require(fixes.firstIndex { $0.hasFix })
    #expect(first >= 2 && first <= 15)
    #expect(fixes[..<first].allSatisfy { $0.mode == .noFix })
    let located = fixes.filter(\.hasFix)
    let errors = located.map { $0.coordinate!.distance(to: Self.home) }
    // Not the truth, not far from it; the accuracy is the receiver's, not a constant.
    #expect(errors.allSatisfy { $0 > 0 && $0 < 100 })
    #expect(Set(located.compactMap(\.horizontalAccuracy)).count > 1)
    // The same seed, the same fixes; another phone of the seed, others.
    #expect(try await Self.fixes(options, seconds: 120) == fixes)
    var other = options
    other.phone = 1
    #expect(try await Self.fixes(other, seconds: 120) != fixes)
  }
}
