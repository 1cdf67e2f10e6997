import Foundation
import GNSS
import Geo
import LocationModel
import NMEA
import Traces

extension ReceiverEpoch {
  /// The epoch as the receiver sends it. GGA, GSA (the used set and its DOPs), GSV (every
  /// satellite above the horizon, with its signal when tracked), GST (the reported errors, 1 σ),
  /// RMC, VTG and GBS (the same errors, which gpsd takes as its `epy`, `epx`, `epv`). Without a
  /// fix: the same sentences empty, the satellites still in view. Empty without a timestamp.
  ///
  /// A GPS-only receiver writes them with talker GP, as such receivers do. One that tracks
  /// several systems writes them as multi-GNSS receivers do: GGA, RMC, VTG, GST and GBS with
  /// talker GN; one GSA per system with the system's talker (GP, GL, GA, GB: its used
  /// satellites and the common DOPs); GSV per system with its talker and NMEA 4.10's signal ID
  /// last; GLONASS's satellites as 65–96.
  ///
  /// The GSAs name their system by talker, as NMEA 4.0 receivers (MediaTek, Quectel, SiRF) write
  /// them, not by NMEA 4.10's system-ID field after the DOPs (u-blox's `$GNGSA,…,3`): gpsd 3.22,
  /// the gpsd of Debian 12 and Ubuntu 24.04, reads that field's GSA one field too far and takes
  /// the PDOP for a satellite number, and takes GN's Galileo and BeiDou numbers for GPS's.
  /// gpsd 3.25 and later, and our decoder, read both forms.
  public var nmeaSentences: [String] {
    let hasFix = fix.hasFix
    let used = hasFix ? self.used : []
    let systems = Set(satellites.map(\.system))
    let multi = systems.count > 1 || systems.contains { $0 != .gps }
    let talker = multi ? "GN" : "GP"
    let base = NMEAWriter.sentences(
      for: fix, receiver: ReceiverDetails(satellitesUsed: used.count, quality: hasFix ? 1 : 0, hdop: hasFix ? dop?.horizontal : nil),
      talker: talker)
    guard base.count == 2 else { return [] }
    let time = base[0].split(separator: ",", omittingEmptySubsequences: false)[1]
    func f(_ value: Double?, _ decimals: Int) -> String { value.map { FixRecord.fixed($0, decimals) } ?? "" }
    let pad = NMEAWriter.pad
    let mode = hasFix ? (fix.mode == .threeD ? 3 : 2) : 1
    let dops = hasFix ? [f(dop?.position, 2), f(dop?.horizontal, 2), f(fix.mode == .threeD ? dop?.vertical : nil, 2)] : ["", "", ""]
    func gsa(_ satellites: [TrackedSatellite], system: GNSSSystem?) -> String {
      let numbers = satellites.prefix(12).map { pad($0.system.nmeaNumber($0.prn), 2) }
      let fields = (0..<12).map { $0 < numbers.count ? numbers[$0] : "" }
      return NMEAWriter.framed(
        "\(system?.talker ?? "GP")GSA,A,\(mode)," + fields.joined(separator: ",") + "," + dops.joined(separator: ","))
    }
    func gsv(_ satellites: [TrackedSatellite], system: GNSSSystem?) -> [String] {
      NMEAWriter.gsv(
        satellites.map {
          (
            $0.system.nmeaNumber($0.prn), max(0, min(90, Int($0.elevation.rounded()))), Int($0.azimuth.rounded()) % 360,
            $0.signal.map { Int($0.rounded()) }
          )
        }, talker: system?.talker ?? "GP", signalID: system?.signalID)
    }
    var out = [base[0]]
    if multi {
      let order = systems.sorted()
      out += order.map { system in gsa(used.filter { $0.system == system }, system: system) }
      out += order.flatMap { system in gsv(satellites.filter { $0.system == system }, system: system) }
    } else {
      out.append(gsa(used, system: nil))
      out += gsv(satellites, system: nil)
    }
    if hasFix, let sigma {
      let up = sigma.up
      let major = max(sigma.east, sigma.north), minor = min(sigma.east, sigma.north)
      let orientation = sigma.north >= sigma.east ? 0.0 : 90.0
      let rms = (sigma.east * sigma.east + sigma.north * sigma.north).squareRoot()
      out.append(
        NMEAWriter.framed(
          "\(talker)GST,\(time),\(f(rms, 2)),\(f(major, 2)),\(f(minor, 2)),\(f(orientation, 1)),\(f(sigma.north, 2)),\(f(sigma.east, 2)),\(f(up, 2))"
        ))
    }
    out.append(base[1])
    out.append(NMEAWriter.vtg(for: fix, talker: talker))
    // GBS last: gpsd recomputes epx and epy from the DOPs after every sentence that gives none,
    // so only a GBS that ends the epoch reaches its report.
    if hasFix, let sigma {
      out.append(NMEAWriter.framed("\(talker)GBS,\(time),\(f(sigma.north, 2)),\(f(sigma.east, 2)),\(f(sigma.up, 2)),,,,"))
    }
    return out
  }
}
