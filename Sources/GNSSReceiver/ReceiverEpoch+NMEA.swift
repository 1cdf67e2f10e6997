import Foundation
import Geo
import NMEA
import Traces
import GNSS

extension ReceiverEpoch {
  /// The epoch as a GPS receiver sends it: GGA, GSA (the used set and its DOPs), GSV (every
  /// satellite above the horizon, with its signal when tracked), GST (the reported errors, 1 σ),
  /// RMC, VTG and GBS (the same errors, which gpsd takes as its `epy`, `epx`, `epv`). Without a
  /// fix: the same sentences empty, the satellites still in view. Empty without a timestamp.
  public var nmeaSentences: [String] {
    let hasFix = fix.hasFix
    let used = hasFix ? self.used : []
    let base = NMEAWriter.sentences(
      for: fix, receiver: ReceiverDetails(satellitesUsed: used.count, quality: hasFix ? 1 : 0, hdop: hasFix ? dop?.horizontal : nil))
    guard base.count == 2 else { return [] }
    let time = base[0].split(separator: ",", omittingEmptySubsequences: false)[1]
    func f(_ value: Double?, _ decimals: Int) -> String { value.map { FixRecord.fixed($0, decimals) } ?? "" }
    let pad = NMEAWriter.pad
    let mode = hasFix ? (fix.mode == .threeD ? 3 : 2) : 1
    let prns = (0..<12).map { $0 < used.count ? pad(used[$0].prn, 2) : "" }
    let dops = hasFix ? [f(dop?.position, 2), f(dop?.horizontal, 2), f(fix.mode == .threeD ? dop?.vertical : nil, 2)] : ["", "", ""]
    var out = [base[0], NMEAWriter.framed("GPGSA,A,\(mode)," + prns.joined(separator: ",") + "," + dops.joined(separator: ","))]
    out += NMEAWriter.gsv(
      satellites.map {
        ($0.prn, max(0, min(90, Int($0.elevation.rounded()))), Int($0.azimuth.rounded()) % 360, $0.signal.map { Int($0.rounded()) })
      })
    if hasFix, let sigma {
      let up = sigma.up
      let major = max(sigma.east, sigma.north), minor = min(sigma.east, sigma.north)
      let orientation = sigma.north >= sigma.east ? 0.0 : 90.0
      let rms = (sigma.east * sigma.east + sigma.north * sigma.north).squareRoot()
      out.append(
        NMEAWriter.framed(
          "GPGST,\(time),\(f(rms, 2)),\(f(major, 2)),\(f(minor, 2)),\(f(orientation, 1)),\(f(sigma.north, 2)),\(f(sigma.east, 2)),\(f(up, 2))"
        ))
    }
    out.append(base[1])
    out.append(NMEAWriter.vtg(for: fix))
    // GBS last: gpsd recomputes epx and epy from the DOPs after every sentence that gives none,
    // so only a GBS that ends the epoch reaches its report.
    if hasFix, let sigma {
      out.append(NMEAWriter.framed("GPGBS,\(time),\(f(sigma.north, 2)),\(f(sigma.east, 2)),\(f(sigma.up, 2)),,,,"))
    }
    return out
  }
}
