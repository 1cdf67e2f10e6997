import Foundation
import GNSS
import GNSSReceiver
import LocationModel
import NMEA
import EmulatorTesting
import Testing

/// The receiver's statistics over long seeded runs on virtual time, with tolerances from the
/// effective sample size of a correlated process (N·Δt / 2τ for a Gauss–Markov error of
/// correlation time τ), and its determinism.
@Suite("GNSS receiver")
struct ReceiverTests {
  static let start = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z
  static let helsinki = Coordinate(latitude: 60.1699, longitude: 24.9384)!

  /// A truth standing at `coordinate` (or walking north at `speed`) every `step` seconds.
  static func truth(_ i: Int, step: Double = 1, speed: Double = 0, at coordinate: Coordinate = helsinki) -> LocationFix {
    let t = Double(i) * step
    let north = speed * t / 111_412
    return LocationFix(
      timestamp: start + t, mode: .threeD,
      coordinate: Coordinate(latitude: coordinate.latitude + north, longitude: coordinate.longitude),
      altitudeMSL: 20, altitudeHAE: 38, speed: speed, course: 0, geoidSeparation: 18)
  }

  static func run(_ options: GNSSReceiver.Options, epochs: Int, step: Double = 1, speed: Double = 0) -> [ReceiverEpoch] {
    var receiver = GNSSReceiver(options: options)
    return (0..<epochs).map { receiver.measure(truth($0, step: step, speed: speed)) }
  }

  /// Long-run figures of one axis' error, normalised by its DOP (so it is the range error).
  struct Figures {
    var mean: Double, variance: Double, correlationAtTau: Double, coverage68: Double, coverage95: Double, n: Int

    init(_ epochs: [ReceiverEpoch], tauEpochs: Int) {
      let fixed = epochs.filter { $0.error != nil }
      let z = fixed.map { $0.error!.east / $0.dop!.east }
      let n = z.count, mean = z.reduce(0, +) / Double(n)
      let variance = z.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(n - 1)
      var c = 0.0
      for i in 0..<(n - tauEpochs) { c += (z[i] - mean) * (z[i + tauEpochs] - mean) }
      self.n = n
      self.mean = mean
      self.variance = variance
      correlationAtTau = c / Double(n - tauEpochs) / variance
      coverage68 = Double(fixed.count { $0.error!.horizontal <= $0.fix.horizontalAccuracy! }) / Double(n)
      coverage95 = Double(fixed.count { abs($0.error!.east) <= GNSSReceiver.Confidence.linear95 * $0.fix.errors.epx! }) / Double(n)
    }
  }

  /// 10⁶ epochs at 1 Hz under the open sky: the error's mean is 0, its variance and
  /// correlation time are the profile's, and the reported accuracy holds the error 68 % of the
  /// time (and 1.96 epx, 95 %).
  @Test(.notUnderThreadSanitizer) func openSkyErrorIsWhatTheProfileSaysAndTheAccuracyCoversIt() {
    // GPS alone: the statistics are the range error's, whatever the systems (normalised by the
    // DOP), and one system keeps 10⁶ epochs' skies a quarter of the work.
    var profile = ReceiverProfile.openSky
    profile.systems = [.gps]
    let epochs = Self.run(.init(profile: profile, seed: 42, start: .hot), epochs: 1_000_000)
    let tau = Int(profile.biasCorrelationTime)
    let f = Figures(epochs, tauEpochs: tau)
    let effective = Double(f.n) / (2 * profile.biasCorrelationTime)
    let r2 = profile.rangeError * profile.rangeError
    print(
      "open-sky, 10^6 epochs: mean \(f.mean), variance \(f.variance) (want \(r2)), ρ(τ) \(f.correlationAtTau), 68 % coverage \(f.coverage68), 95 % coverage \(f.coverage95)"
    )
    #expect(abs(f.mean) < 4 * profile.rangeError / effective.squareRoot())
    #expect(abs(f.variance / r2 - 1) < 4 * (2 / effective).squareRoot())
    let rho = profile.rangeBias * profile.rangeBias * exp(-1) / r2
    #expect(abs(f.correlationAtTau - rho) < 4 / effective.squareRoot())
    #expect(abs(f.coverage68 - 0.68) < 4 * (0.68 * 0.32 / effective).squareRoot())
    #expect(abs(f.coverage95 - 0.95) < 4 * (0.95 * 0.05 / effective).squareRoot())
  }

  /// The error's variance and correlation time do not depend on the update rate (exact
  /// discretisation): at 5 Hz they are the same as at 1 Hz.
  @Test(.notUnderThreadSanitizer) func theNoiseLevelDoesNotDependOnTheRate() {
    let profile = ReceiverProfile.openSky
    let epochs = Self.run(.init(profile: profile, seed: 7, start: .hot), epochs: 500_000, step: 0.2)
    let f = Figures(epochs, tauEpochs: Int(profile.biasCorrelationTime * 5))
    let effective = 100_000 / (2 * profile.biasCorrelationTime)
    let r2 = profile.rangeError * profile.rangeError
    print("open-sky at 5 Hz: variance \(f.variance) (want \(r2)), ρ(τ) \(f.correlationAtTau)")
    #expect(abs(f.variance / r2 - 1) < 4 * (2 / effective).squareRoot())
    let rho = profile.rangeBias * profile.rangeBias * exp(-1) / r2
    #expect(abs(f.correlationAtTau - rho) < 4 / effective.squareRoot())
  }

  /// The same seed gives the same bytes; another seed, or another phone, other bytes; a phone's
  /// output does not depend on which other phones run.
  @Test func theSameSeedGivesTheSameBytes() {
    func bytes(seed: UInt64, phone: UInt64 = 0) -> String {
      Self.run(.init(profile: .urbanCanyon, seed: seed, phone: phone), epochs: 600, speed: 1.4).flatMap(\.nmeaSentences).joined(
        separator: "\r\n")
    }
    let a = bytes(seed: 1)
    #expect(a == bytes(seed: 1))
    #expect(a != bytes(seed: 2))
    #expect(a != bytes(seed: 1, phone: 1))
    #expect(a.contains("$GNGST,") && a.contains("$GNGBS,") && a.contains("$GPGSV,") && a.contains("$GLGSV,"))
  }

  /// Time to first fix, over 300 receivers: a standalone receiver's cold start is the
  /// profile's 40 s (log-normal, median 40 s, 20 % spread), an assisted phone's about 5 s.
  @Test(.notUnderThreadSanitizer) func timeToFirstFixIsTheProfilesForAStandaloneReceiverAndAPhone() {
    func mean(assisted: Bool) -> Double {
      var sum = 0.0
      for phone in 0..<300 {
        var receiver = GNSSReceiver(options: .init(profile: .openSky, seed: 3, phone: UInt64(phone), assisted: assisted))
        var i = 0
        while receiver.measure(Self.truth(i)).fix.hasFix == false { i += 1 }
        sum += Double(i)
      }
      return sum / 300
    }
    let standalone = mean(assisted: false), assisted = mean(assisted: true)
    print("time to first fix: standalone \(standalone) s, assisted \(assisted) s")
    // Mean of the log-normal: median · e^(σ²/2); a fix comes at the next whole second. Within
    // four standard errors of the mean (σ · median / √300). Each term typed, as the compiler
    // took 10 s to infer the literals' types of the two comparisons written in one expression.
    let spread: Double = 0.2, samples: Double = 300, logNormalMean: Double = exp(0.02)
    let standaloneMedian: Double = 40, assistedMedian: Double = 5
    let standaloneBound: Double = 4 * standaloneMedian * spread / samples.squareRoot()
    let assistedBound: Double = 4 * assistedMedian * spread / samples.squareRoot() + 0.5
    #expect(abs(standalone - (standaloneMedian * logNormalMean + 0.5)) < standaloneBound)
    #expect(abs(assisted - (assistedMedian * logNormalMean + 0.5)) < assistedBound)
  }

  /// A road with tunnels: outages come at the profile's rate and last its mean length (plus a
  /// hot start to reacquire), and there is a fix between them.
  @Test(.notUnderThreadSanitizer) func tunnelsComeAndLastAsTheProfileSays() {
    let profile = ReceiverProfile.tunnel
    let epochs = Self.run(.init(profile: profile, seed: 11, start: .hot), epochs: 200_000, speed: 15)
    var outages: [Int] = [], length = 0
    for epoch in epochs.dropFirst(10) {
      if epoch.state == .lost {
        length += 1
      } else if length > 0 {
        outages.append(length)
        length = 0
      }
    }
    let mean = Double(outages.reduce(0, +)) / Double(outages.count)
    // Outages start only while there is none: at the profile's rate over the time between them.
    let expectedCount = Double(200_000 - outages.reduce(0, +)) / 3600 * profile.outagesPerHour
    print("tunnel: \(outages.count) outages in 200,000 s (want about \(expectedCount)), mean \(mean) s")
    #expect(abs(Double(outages.count) - expectedCount) < 4 * expectedCount.squareRoot() + 0.1 * expectedCount)
    #expect(abs(mean - (profile.outageLength + profile.hotStart + 0.5)) < 4 * profile.outageLength / Double(outages.count).squareRoot() + 1)
  }

  /// In a street canyon fewer satellites are used, DOPs are worse, and the phone is
  /// over-confident: its accuracy holds the error less often than it says.
  @Test func anUrbanCanyonSeesLessAndIsOverConfident() {
    let open = Self.run(.init(profile: .openSky, seed: 5, start: .hot), epochs: 20_000)
    let canyon = Self.run(.init(profile: .urbanCanyon, seed: 5, start: .hot), epochs: 20_000)
    func averageUsed(_ e: [ReceiverEpoch]) -> Double { Double(e.map(\.used.count).reduce(0, +)) / Double(e.count) }
    func coverage(_ e: [ReceiverEpoch]) -> Double {
      let fixed = e.filter { $0.error != nil }
      return Double(fixed.count { $0.error!.horizontal <= $0.fix.horizontalAccuracy! }) / Double(fixed.count)
    }
    print("used: open sky \(averageUsed(open)), canyon \(averageUsed(canyon)); 68 % coverage in the canyon \(coverage(canyon))")
    #expect(averageUsed(canyon) < averageUsed(open) - 2)
    #expect(coverage(canyon) < 0.6)
    #expect(canyon.contains { $0.state == .lost })
  }

  /// Standing still after walking north, the receiver holds the course it had (speed about
  /// 0, course still north) instead of a course that spins with the noise.
  @Test func aStationaryReceiverHoldsItsCourse() {
    var receiver = GNSSReceiver(options: .init(profile: .openSky, seed: 9, start: .hot))
    var courses: [Double?] = []
    for i in 0..<120 { courses.append(receiver.measure(Self.truth(i, speed: i < 60 ? 3 : 0)).fix.course) }
    let stopped = courses.suffix(50)
    #expect(stopped.allSatisfy { $0 == stopped.first! && $0 != nil })
    let held = stopped.first!!
    #expect(min(held, 360 - held) < 10)
  }

  /// What gpsd's decoder makes of the receiver's NMEA (our port of gpsd 3.27.6): the mode,
  /// satellites, DOPs, and epx/epy/epv from GBS are the receiver's own.
  @Test func gpsdReadsTheReceiversErrorModelFromItsNMEA() {
    let epochs = Self.run(.init(profile: .suburban, seed: 21, start: .hot), epochs: 120, speed: 1.4)
    var decoder = NMEADecoder()
    var fixes: [NMEAFix] = []
    decoder.decode(Array(epochs.flatMap { $0.nmeaSentences.map { $0 + "\r\n" } }.joined().utf8)) { fixes.append($0) }
    decoder.finish { fixes.append($0) }
    let withFix = epochs.filter { $0.fix.hasFix }
    let decoded = fixes.filter { $0.mode >= .twoD }
    #expect(decoded.count == withFix.count)
    // From the second epoch: gpsd learns from the first that GBS ends the epoch.
    for (ours, theirs) in zip(withFix, decoded).dropFirst() {
      #expect(abs(theirs.latitude! - ours.fix.coordinate!.latitude) < 1e-7)
      #expect(abs(theirs.errors.epx! - ours.fix.errors.epx!) < 0.006)
      #expect(abs(theirs.errors.epy! - ours.fix.errors.epy!) < 0.006)
      #expect(abs(theirs.verticalError! - Double(ours.sigma!.up!)) < 0.006)
    }
  }

  /// A profile of one's own: a built-in base and the members to change; mistakes are named.
  @Test func aUsersProfileIsABaseAndChanges() throws {
    let profile = try ReceiverProfile.decode(json: Data(#"{"base": "urban-canyon", "streetAzimuth": 90, "channels": 8}"#.utf8))
    #expect(profile.streetAzimuth == 90 && profile.channels == 8 && profile.rangeBias == ReceiverProfile.urbanCanyon.rangeBias)
    #expect(throws: ReceiverProfileError(message: "unknown member 'rangebias'")) {
      try ReceiverProfile.decode(json: Data(#"{"rangebias": 3}"#.utf8))
    }
    #expect(throws: ReceiverProfileError(message: "overconfidence must be a number from 0.01 to 100.0")) {
      try ReceiverProfile.decode(json: Data(#"{"overconfidence": -1}"#.utf8))
    }
    // JSON's true is not a number, 8.5 channels not a whole number, an array not a profile.
    #expect(throws: ReceiverProfileError(message: "rangeNoise must be a number from 0.0 to 1000.0")) {
      try ReceiverProfile.decode(json: Data(#"{"rangeNoise": true}"#.utf8))
    }
    #expect(throws: ReceiverProfileError(message: "channels must be a whole number from 4 to 64")) {
      try ReceiverProfile.decode(json: Data(#"{"channels": 8.5}"#.utf8))
    }
    #expect(throws: ReceiverProfileError(message: "a profile is a JSON object")) { try ReceiverProfile.decode(json: Data("[1]".utf8)) }
    #expect(throws: ReceiverProfileError(message: "base must be a profile's name")) {
      try ReceiverProfile.decode(json: Data(#"{"base": 3}"#.utf8))
    }
    #expect(throws: ReceiverProfileError.self) { try ReceiverProfile.decode(json: Data("{".utf8)) }
    #expect(try ReceiverProfile.decode(json: Data(#"{"name": "mine", "rangeNoise": 2}"#.utf8)).name == "mine")
    #expect(throws: ReceiverProfileError.self) { try ReceiverProfile.resolve("downtown") }
  }
}
