import Foundation
public import GNSS
import Geo
public import LocationModel

/// A GNSS receiver over a truth: what it reports, epoch by epoch, for a phone that is really
/// where the truth says.
///
/// Each epoch it sees the satellites of its almanac from the true position, gives each a signal
/// from its elevation and the environment (``ReceiverProfile``), picks the used set (elevation
/// mask, signal threshold, channels), keeps a fix state (off → acquiring for the time to first
/// fix → 2D/3D fix, degraded under poor geometry, lost without satellites, reacquired after a
/// hot start's time), and errs as a receiver errs: per axis, the dilution of precision times a
/// range error made of a first-order Gauss–Markov bias and white noise, plus the environment's
/// multipath jumps; velocity with white noise; the course held while stationary.
///
/// The accuracy it reports comes from the same covariance that made the error, times the
/// profile's ``ReceiverProfile/overconfidence``:
/// - `horizontalAccuracy`: the radius holding the horizontal error 68 % of the time (Android's
///   documented convention for `Location.getAccuracy()`; Apple does not state one for
///   `CLLocation.horizontalAccuracy`, and the same 68 % is used for it);
/// - `verticalAccuracy`: 68 % of the vertical error;
/// - gpsd's `epx`, `epy`: 1 σ per axis, what gpsd reports for this receiver's NMEA (it passes
///   GBS's errors through, which NMEA and gpsd's decoder define as one standard deviation,
///   though gpsd's documentation calls its members 95 %);
/// - gpsd's `sep` (the sphere holding 95 %), `eps`, `epc` (1.96 σ) and `epd` (the course's 95 %
///   angle), at gpsd's documented 95 %.
///
/// Every random draw comes from ``CounterRandom`` keyed by the epoch's time, so the same seed and
/// truth give the same epochs, whatever else runs; the Gauss–Markov step is the exact
/// discretisation (`φ = e^(−Δt/τ)`), so the error's variance and correlation time do not depend
/// on the update rate.
public struct GNSSReceiver: Sendable {
  /// How a receiver starts: what it knows of the sky and its position.
  public enum Start: String, Sendable, CaseIterable, Codable {
    /// Nothing: almanac and ephemerides to collect.
    case cold
    /// A valid almanac and rough position; ephemerides to collect.
    case warm
    /// Valid ephemerides: a fix within seconds.
    case hot
  }

  /// The receiver's setting.
  public struct Options: Hashable, Sendable {
    /// The environment and hardware that shape what the receiver reports.
    public var profile: ReceiverProfile
    /// The run's seed.
    public var seed: UInt64
    /// Which phone of the run: phones of one seed err independently.
    public var phone: UInt64
    /// How the receiver starts: cold, warm or hot.
    public var start: Start
    /// A phone's assisted GNSS (time to first fix of seconds) rather than a standalone receiver.
    public var assisted: Bool
    /// The satellites: each of the profile's systems (``ReceiverProfile/systems``) from the
    /// entries given for it here (a YUMA or SEM almanac gives GPS's), else from its nominal
    /// constellation (`NominalConstellation`).
    public var almanac: [AlmanacEntry]
    /// How often the sky and signals are recomputed, seconds (satellites move about 0.5° a minute).
    public var skyInterval: Double

    /// A setting; by default an assisted cold start under the open sky, with the nominal constellations.
    public init(
      profile: ReceiverProfile = .openSky, seed: UInt64 = 0, phone: UInt64 = 0, start: Start = .cold, assisted: Bool = true,
      almanac: [AlmanacEntry] = NominalConstellation.almanac, skyInterval: Double = 5
    ) {
      self.profile = profile
      self.seed = seed
      self.phone = phone
      self.start = start
      self.assisted = assisted
      self.almanac = almanac
      self.skyInterval = skyInterval
    }
  }

  /// The receiver's setting (its seed and phone, and its shared `Setting`).
  public var options: Options {
    Options(
      profile: setting.profile, seed: random.seed, phone: random.phone, start: setting.start, assisted: setting.assisted,
      almanac: setting.sky.almanac, skyInterval: setting.skyInterval)
  }
  private let setting: Setting
  private let random: CounterRandom

  private var started: Date?
  private var firstFixAfter = 0.0
  private var lastTime: Date?
  private var bias = (east: 0.0, north: 0.0, up: 0.0)
  private var heldCourse: Double?
  private var outageUntil: Date?
  private var multipath: (until: Date, east: Double, north: Double, up: Double)?
  private var hadFix = false
  private var lostSince: Date?
  private var reacquireAt: Date?
  /// The last slot's view, and its slot and cell (slot `Int64.min` before the first).
  private var cachedSlot = Int64.min
  private var cachedCell = SkyGeometryCache.Key(almanac: 0, slot: 0, latitude: 0, longitude: 0, height: 0)
  private var cachedView = SkyView(satellites: [], usedCount: 0, dop: nil, metersPerDegreeLatitude: 1, metersPerDegreeLongitude: 1)
  private var lastStep = Step(dt: .nan, phi: 0, kick: 0, outage: 0, multipath: 0)

  /// A receiver with the setting `options`, before its first epoch.
  public init(options: Options) {
    setting = Setting.shared(options)
    random = CounterRandom(seed: options.seed, phone: options.phone)
  }

  /// What does not change in a receiver, shared by the receivers of one setting (a fleet's
  /// phones differ only by seed and phone), so that a fleet reads one copy that stays in cache
  /// and each receiver keeps only its state.
  final class Setting: Sendable {
    let profile: ReceiverProfile
    let start: Start
    let assisted: Bool
    let skyInterval: Double
    let sky: Sky
    /// Tells almanacs apart in the shared geometry cache.
    let almanacKey: Int
    /// The tangent of the profile's skyline.
    let skylineTangent: Double
    /// The street's direction, sine and cosine.
    let street: (sin: Double, cos: Double)

    private init(_ options: Options) {
      profile = options.profile
      start = options.start
      assisted = options.assisted
      skyInterval = options.skyInterval
      // Each system from the almanac given for it (a YUMA or SEM file is GPS's), else from its
      // nominal constellation.
      let entries = options.profile.systems.flatMap { system -> [AlmanacEntry] in
        let given = options.almanac.filter { $0.system == system }
        return given.isEmpty ? NominalConstellation.almanac(for: system) : given
      }
      sky = Sky(almanac: entries, elevationMask: 0)
      almanacKey = entries.hashValue
      skylineTangent = tan(options.profile.skyline * Double.pi / 180)
      street = (sin(options.profile.streetAzimuth * Double.pi / 180), cos(options.profile.streetAzimuth * Double.pi / 180))
    }

    /// Settings by their options without seed and phone.
    private static let known = SharedCache<Options, Setting>(limit: 1_024)

    static func shared(_ options: Options) -> Setting {
      var key = options
      (key.seed, key.phone) = (0, 0)
      return known.value(key) { Setting(key) }
    }
  }

  /// The time to first fix this receiver was given at its start, seconds; nil before its first epoch.
  public var timeToFirstFix: Double? { started == nil ? nil : firstFixAfter }

  /// What the receiver reports at the truth's time (the truth needs a timestamp, a coordinate
  /// and, for a 3D fix's altitude, an altitude; speed and course are 0 and none when missing).
  public mutating func measure(_ truth: LocationFix) -> ReceiverEpoch { epoch(truth, satellites: true) }

  /// ``measure(_:)``'s fix alone: what a phone's location source needs of an epoch (the same
  /// epoch, without the satellites, DOPs and errors beside it).
  package mutating func measureFix(_ truth: LocationFix) -> LocationFix { epoch(truth, satellites: false).fix }

  /// The fix a phone's source delivers: measured whole and handed to `epochs` when someone
  /// wants the epochs (`--nmea-listen`), else the fix alone (``measureFix(_:)``).
  package mutating func measureFix(_ truth: LocationFix, epochs: (@Sendable (ReceiverEpoch) -> Void)?) -> LocationFix {
    guard let epochs else { return measureFix(truth) }
    let epoch = measure(truth)
    epochs(epoch)
    return epoch.fix
  }

  /// The epoch, with its satellites listed when `satellites` is true (the receiver's state
  /// evolves the same either way: listing them only keeps a copy per receiver).
  @inline(__always) private mutating func epoch(_ truth: LocationFix, satellites listed: Bool) -> ReceiverEpoch {
    guard let time = truth.timestamp, let coordinate = truth.coordinate else {
      return ReceiverEpoch(fix: LocationFix(timestamp: truth.timestamp, mode: .noFix), state: .off, satellites: [])
    }
    let key = Int64((time.timeIntervalSince1970 * 1000).rounded())
    let dt = lastTime.map { time.timeIntervalSince($0) }.flatMap { $0 > 0 ? $0 : nil }
    if started == nil {
      started = time
      firstFixAfter = startTime(key: key)
    }
    lastTime = time

    // Outages: a Poisson process in time; none while one lasts.
    if let until = outageUntil, until <= time { outageUntil = nil }
    var step: Step?
    if let dt { step = steps(dt) }
    if outageUntil == nil, let step, setting.profile.outagesPerHour > 0, random.uniform(.outageStart, epoch: key) < step.outage {
      outageUntil = time + max(1, random.exponential(.outageLength, epoch: key, mean: setting.profile.outageLength))
    }
    let inOutage = outageUntil != nil

    // The sky and the used set.
    let height = truth.altitudeHAE ?? truth.altitudeMSL ?? 0
    let view = skyView(at: time, latitude: coordinate.latitude, longitude: coordinate.longitude, height: height, listed: listed)
    let (metersPerDegreeLatitude, metersPerDegreeLongitude) = (view.metersPerDegreeLatitude, view.metersPerDegreeLongitude)
    let satellites = inOutage ? dark(view.satellites ?? []) : view.satellites ?? []
    let usedCount = inOutage ? 0 : view.usedCount

    // The errors evolve whether or not there is a fix, so a fix after an outage is not fresh.
    // Six normals from three Box–Muller pairs: the bias's three kicks and the white noise.
    let (be, bn) = random.gaussianPair(.bias, epoch: key)
    let (bu, ne) = random.gaussianPair(.biasUpAndNoiseEast, epoch: key)
    let (nn, nu) = random.gaussianPair(.noise, epoch: key)
    stepBias(draws: (be, bn, bu), step: step)
    let noise = (east: setting.profile.rangeNoise * ne, north: setting.profile.rangeNoise * nn, up: setting.profile.rangeNoise * nu)
    if let m = multipath, m.until <= time { multipath = nil }
    if multipath == nil, !inOutage, let step, setting.profile.multipathPerMinute > 0,
      random.uniform(.multipathStart, epoch: key) < step.multipath
    {
      let length = max(0.5, random.exponential(.multipathLength, epoch: key, mean: setting.profile.multipathLength))
      multipath = (
        time + length, setting.profile.multipathSize * random.gaussian(.multipathEast, epoch: key),
        setting.profile.multipathSize * random.gaussian(.multipathNorth, epoch: key),
        1.5 * setting.profile.multipathSize * random.gaussian(.multipathUp, epoch: key)
      )
    }

    // The fix state.
    var state: FixState
    let dop = inOutage ? nil : view.dop
    if time.timeIntervalSince(started!) < firstFixAfter {
      state = .acquiring
    } else if dop == nil {
      state = hadFix ? .lost : .acquiring
      if hadFix, lostSince == nil { lostSince = time }
      reacquireAt = nil
    } else if lostSince != nil {
      if reacquireAt == nil { reacquireAt = time + setting.profile.hotStart * jitter(.timeToFirstFix, key: key) }
      if time < reacquireAt! {
        state = .lost
      } else {
        lostSince = nil
        reacquireAt = nil
        state = usedCount >= 4 ? .fix3D : .fix2D
      }
    } else {
      state = usedCount >= 4 ? .fix3D : .fix2D
    }
    if state == .fix3D || state == .fix2D, let d = dop, d.position > 6 { state = .degraded }
    let fixed = state == .fix3D || state == .fix2D || state == .degraded
    guard fixed, let dop else {
      return ReceiverEpoch(fix: LocationFix(timestamp: time, mode: .noFix), state: state, satellites: satellites)
    }
    hadFix = true
    let threeD = usedCount >= 4

    // Position.
    let mp: (east: Double, north: Double, up: Double) = multipath.map { ($0.east, $0.north, $0.up) } ?? (0, 0, 0)
    let error = PositionError(
      east: dop.east * (bias.east + noise.east) + mp.east, north: dop.north * (bias.north + noise.north) + mp.north,
      up: threeD ? dop.vertical * (bias.up + noise.up) + mp.up : 0)
    var longitude = coordinate.longitude + error.east / metersPerDegreeLongitude
    if longitude > 180 { longitude -= 360 } else if longitude < -180 { longitude += 360 }
    let latitude = min(90, max(-90, coordinate.latitude + error.north / metersPerDegreeLatitude))

    // Velocity: the truth's, with white noise per axis; the course held when stationary.
    let trueSpeed = truth.speed ?? 0
    let trueCourse = (truth.course ?? 0) * Double.pi / 180
    let (dve, dvn) = random.gaussianPair(.velocity, epoch: key)
    let ve = (trueSpeed == 0 ? 0 : trueSpeed * sin(trueCourse)) + setting.profile.velocityNoise * dve
    let vn = (trueSpeed == 0 ? 0 : trueSpeed * cos(trueCourse)) + setting.profile.velocityNoise * dvn
    let speed = (ve * ve + vn * vn).squareRoot()
    if speed >= setting.profile.stationarySpeed {
      var course = atan2(ve, vn) * 180 / Double.pi
      if course < 0 { course += 360 }
      heldCourse = course
    }
    let climb = threeD ? (truth.climb ?? 0) + setting.profile.velocityNoise * 1.5 * random.gaussian(.velocityUp, epoch: key) : nil

    // What it reports: the covariance that made the error, scaled by the over-confidence.
    let scale = setting.profile.overconfidence * setting.profile.rangeError
    let sigma = ErrorSigma(
      east: scale * dop.east, north: scale * dop.north, up: threeD ? scale * dop.vertical : nil,
      velocity: setting.profile.overconfidence * setting.profile.velocityNoise)
    let horizontalSigma = ((sigma.east * sigma.east + sigma.north * sigma.north) / 2).squareRoot()
    let spherical = (sigma.east * sigma.east + sigma.north * sigma.north + (sigma.up ?? 0) * (sigma.up ?? 0)).squareRoot()
    // A truth without an altitude stands at sea level.
    let trueMSL = truth.altitudeMSL ?? (truth.altitudeHAE == nil ? 0 : nil)
    let msl = threeD ? trueMSL.map { $0 + error.up } : nil
    let hae = threeD ? truth.altitudeHAE.map { $0 + error.up } : nil
    let fix = LocationFix(
      timestamp: time, mode: threeD ? .threeD : .twoD, coordinate: Coordinate(latitude: latitude, longitude: longitude),
      altitudeMSL: msl, altitudeHAE: hae, speed: speed, course: heldCourse,
      horizontalAccuracy: Confidence.radius68 * horizontalSigma, verticalAccuracy: sigma.up.map { Confidence.linear68 * $0 },
      climb: climb, geoidSeparation: truth.geoidSeparation, status: .gnss,
      errors: .init(
        epx: sigma.east, epy: sigma.north,
        eps: Confidence.linear95 * sigma.velocity,
        epd: speed >= setting.profile.stationarySpeed
          ? min(180, atan2(Confidence.linear95 * sigma.velocity, speed) * 180 / Double.pi) : nil,
        epc: threeD ? Confidence.linear95 * 1.5 * sigma.velocity : nil, ept: 0.005,
        sep: threeD ? Confidence.spherical95 * spherical / 3.0.squareRoot() : nil))
    return ReceiverEpoch(fix: fix, state: state, satellites: satellites, dop: dop, sigma: sigma, error: error)
  }

  /// Multipliers from 1 σ to a confidence.
  public enum Confidence {
    /// The radius holding 68 % of a circular 2D Gaussian error, in σ per axis: √(−2 ln 0.32).
    public static let radius68 = (-2 * log(0.32)).squareRoot()
    /// The half-width holding 68 % of a 1D Gaussian error, in σ.
    public static let linear68 = 0.994_457_883_209_753
    /// The half-width holding 95 % of a 1D Gaussian error, in σ.
    public static let linear95 = 1.959_963_984_540_054
    /// The radius holding 95 % of a spherical 3D Gaussian error, in σ per axis (√ of χ²₃'s 95 % point).
    public static let spherical95 = 2.795_483_482_915_108
  }

  // MARK: Parts

  private mutating func stepBias(draws: (Double, Double, Double), step: Step?) {
    guard let step else {
      let sigma = setting.profile.rangeBias
      bias = (sigma * draws.0, sigma * draws.1, sigma * draws.2)  // stationary from the start
      return
    }
    let (phi, kick) = (step.phi, step.kick)
    bias = (phi * bias.east + kick * draws.0, phi * bias.north + kick * draws.1, phi * bias.up + kick * draws.2)
  }

  /// What a time step does, for a step of `dt` seconds: the Gauss–Markov factor and kick, and
  /// the chances that an outage and a multipath jump start within it.
  struct Step {
    var dt: Double
    var phi: Double
    var kick: Double
    var outage: Double
    var multipath: Double
  }

  /// The step for `dt`, computed once while the rate stays the same.
  private mutating func steps(_ dt: Double) -> Step {
    if lastStep.dt == dt { return lastStep }
    let phi = exp(-dt / setting.profile.biasCorrelationTime)
    lastStep = Step(
      dt: dt, phi: phi, kick: setting.profile.rangeBias * (1 - phi * phi).squareRoot(),
      outage: 1 - exp(-setting.profile.outagesPerHour / 3600 * dt), multipath: 1 - exp(-setting.profile.multipathPerMinute / 60 * dt))
    return lastStep
  }

  private func startTime(key: Int64) -> Double {
    let nominal: Double =
      switch (setting.start, setting.assisted) {
      case (.cold, false): setting.profile.coldStart
      case (.warm, false): setting.profile.warmStart
      case (.cold, true): setting.profile.assistedColdStart
      case (.warm, true): setting.profile.assistedWarmStart
      case (.hot, _): setting.profile.hotStart
      }
    return nominal * jitter(.timeToFirstFix, key: key)
  }

  /// A log-normal factor with median 1 and 20 % spread.
  private func jitter(_ stream: CounterRandom.Stream, key: Int64) -> Double {
    exp(0.2 * random.gaussian(stream, epoch: key))
  }

  /// The satellites of a sky slot, how many are used, and their DOPs (the used set changes
  /// only from slot to slot, so its DOPs are computed once per slot).
  struct SkyView {
    /// Nil when the receiver was not asked for them.
    var satellites: [TrackedSatellite]?
    var usedCount: Int
    var dop: DilutionOfPrecision?
    /// At the cell's latitude (within 0.005° of the truth's: a relative difference below 10⁻⁴
    /// tan φ, a tenth of a millimetre on a metre of error).
    var metersPerDegreeLatitude: Double
    var metersPerDegreeLongitude: Double
  }

  private mutating func skyView(at time: Date, latitude: Double, longitude: Double, height: Double, listed: Bool) -> SkyView {
    let slot = Int64((time.timeIntervalSince1970 / setting.skyInterval).rounded(.down))
    // The geometry of a slot is seen from a 0.01° grid (about a kilometre: directions within
    // 0.01°) at the slot's start, so it is a pure function of the slot and the cell, shared by
    // every receiver there (a fleet in one city computes each sky once).
    let cell = SkyGeometryCache.Key(
      almanac: setting.almanacKey, slot: slot, latitude: Int32((latitude * 100).rounded()), longitude: Int32((longitude * 100).rounded()),
      height: Int32((height / 100).rounded()))
    if cachedSlot == slot, cachedCell == cell, !listed || cachedView.satellites != nil { return cachedView }
    let geometry = SkyGeometryCache.shared.value(cell) {
      SkyGeometry(
        setting.sky.satellites(
          at: GPSTime(Date(timeIntervalSince1970: Double(slot) * setting.skyInterval)),
          from: ReceiverPosition(
            latitude: Double(cell.latitude) / 100, longitude: Double(cell.longitude) / 100, height: Double(cell.height) * 100)),
        latitude: Double(cell.latitude) / 100)
    }
    // Each satellite's signal flickers by a standard normal of the slot; PRNs 2k and 2k + 1 of a
    // system share one normal pair (the sky lists satellites by system and PRN, so a pair is
    // drawn once; GPS's draws are those of a GPS-only receiver).
    var pair: (draw: UInt64, normals: (Double, Double)) = (.max, (0, 0))
    var views = geometry.satellites.map { satellite -> TrackedSatellite in
      let view = satellite.view, sinElevation = satellite.sinElevation
      let draw = UInt64(view.system.nmeaSystemID - 1) << 32 | UInt64(view.prn / 2)
      if pair.draw != draw { pair = (draw, random.gaussianPair(.signal, epoch: slot, draw: draw)) }
      let flicker = view.prn % 2 == 0 ? pair.normals.0 : pair.normals.1
      let hidden = isBehindSkyline(satellite)
      let signal =
        setting.profile.zenithSignal - setting.profile.horizonLoss * (1 - sinElevation) - setting.profile.attenuation
        - (hidden ? setting.profile.blockedLoss : 0)
        + setting.profile.signalFlicker * flicker
      return TrackedSatellite(
        view: view, signal: signal >= setting.profile.trackingThreshold ? (signal * 10).rounded() / 10 : nil, used: false)
    }
    let candidates = views.indices.filter { i in
      (views[i].signal ?? 0) >= setting.profile.usedThreshold && views[i].elevation >= setting.profile.elevationMask
    }.sorted { (views[$0].signal ?? 0, -views[$0].prn) > (views[$1].signal ?? 0, -views[$1].prn) }
    let usedIndices = candidates.prefix(setting.profile.channels)
    for i in usedIndices { views[i].used = true }
    // The used satellites' directions, from the sines and cosines the shared geometry holds.
    var directions = usedIndices.sorted().map { i in
      let g = geometry.satellites[i]
      return (east: g.sinAzimuth * g.cosElevation, north: g.cosAzimuth * g.cosElevation, up: g.sinElevation)
    }
    let usedCount = directions.count
    // A 2D fix holds the altitude: as if a fourth measurement came from the Earth's centre.
    if usedCount == 3 { directions.append((0, 0, -1)) }
    let dop = usedCount >= 3 ? DilutionOfPrecision(lineOfSight: directions) : nil
    let view = SkyView(
      satellites: listed ? views : nil, usedCount: usedCount, dop: dop, metersPerDegreeLatitude: geometry.metersPerDegreeLatitude,
      metersPerDegreeLongitude: geometry.metersPerDegreeLongitude)
    (cachedSlot, cachedCell, cachedView) = (slot, cell, view)
    return view
  }

  private func dark(_ satellites: [TrackedSatellite]) -> [TrackedSatellite] {
    satellites.map { TrackedSatellite(view: $0.view, signal: nil, used: false) }
  }

  /// Whether buildings hide the satellite: the skyline's elevation is the profile's across the
  /// street and none along it, `atan(tan(skyline) · |sin(azimuth − street)|)`, compared here by
  /// its tangent.
  private func isBehindSkyline(_ satellite: SkyGeometry.Satellite) -> Bool {
    guard setting.profile.skyline > 0 else { return false }
    let across = abs(satellite.sinAzimuth * setting.street.cos - satellite.cosAzimuth * setting.street.sin)
    return satellite.tanElevation < setting.skylineTangent * across
  }

  /// Metres per degree of latitude and of longitude on the WGS 84 ellipsoid.
  static func metersPerDegree(latitude: Double) -> (Double, Double) {
    let a = 6_378_137.0, e2 = 6.694_379_990_14e-3
    let s = sin(latitude * Double.pi / 180)
    let w = (1 - e2 * s * s).squareRoot()
    let meridian = a * (1 - e2) / (w * w * w)
    let normal = a / w
    return (meridian * Double.pi / 180, max(1e-6, normal * cos(latitude * Double.pi / 180) * Double.pi / 180))
  }
}

/// Satellite geometry by sky slot and grid cell, shared by the receivers of a process: it
/// depends on nothing else, so sharing changes no result. Bounded: emptied past 65,536 skies.
enum SkyGeometryCache {
  struct Key: Hashable, Sendable {
    var almanac: Int
    var slot: Int64
    var latitude: Int32
    var longitude: Int32
    var height: Int32
  }

  static let shared = SharedCache<Key, SkyGeometry>(limit: 65_536)
}

/// What receivers of a process share because it is a pure function of its key: looked up, or
/// computed outside the lock and kept (two receivers asking at once may both compute it; either
/// value is the same). Bounded: emptied whole when it reaches `limit` entries. Behind a pthread
/// lock (`Locked`), which ThreadSanitizer sees, unlike `Mutex`'s futex path.
final class SharedCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
  private let entries = Locked<[Key: Value]>([:])
  let limit: Int

  init(limit: Int) { self.limit = limit }

  func value(_ key: Key, compute: () -> Value) -> Value {
    if let known = entries.withLock({ $0[key] }) { return known }
    let computed = compute()
    entries.withLock { entries in
      if entries.count >= limit { entries.removeAll(keepingCapacity: true) }
      entries[key] = computed
    }
    return computed
  }
}

/// The satellites of a sky slot from a grid cell, with the trigonometry every receiver there
/// needs, computed once.
struct SkyGeometry: Sendable {
  struct Satellite: Sendable {
    var view: SatelliteView
    var sinElevation: Double
    var cosElevation: Double
    var tanElevation: Double
    var sinAzimuth: Double
    var cosAzimuth: Double
  }

  var satellites: [Satellite]
  var metersPerDegreeLatitude: Double
  var metersPerDegreeLongitude: Double

  init(_ views: [SatelliteView], latitude: Double) {
    satellites = views.map { view in
      let elevation = view.elevation * Double.pi / 180, azimuth = view.azimuth * Double.pi / 180
      return Satellite(
        view: view, sinElevation: sin(elevation), cosElevation: cos(elevation), tanElevation: tan(elevation), sinAzimuth: sin(azimuth),
        cosAzimuth: cos(azimuth))
    }
    (metersPerDegreeLatitude, metersPerDegreeLongitude) = GNSSReceiver.metersPerDegree(latitude: latitude)
  }
}
