import ArgumentParser
import Foundation
import GNSS
import Geo
import LocationModel

extension LocEmu {
  struct Sky: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "sky",
      abstract: "Print the GPS satellites in view from a place, with their DOPs.",
      discussion: """
        Computes where the GPS satellites are at --at (UTC, ISO 8601; now if \
        omitted), seen from --from, with IS-GPS-200's algorithm for almanac \
        orbits, and prints one JSON object per time with gpsd's SKY member \
        names: time, nSat, the satellites above --mask (PRN, az, el in degrees, \
        range in metres), and the DOPs of all of them (xdop, ydop, hdop, vdop, \
        pdop, tdop, gdop; left out below four satellites).

        The orbits are the GPS performance standard's nominal 24-slot \
        constellation unless --almanac gives a YUMA or SEM almanac file (the \
        US Coast Guard's formats; a week below 1024 is placed in the 1024-week \
        era nearest --at). --every S --count N prints N times S seconds apart.

        Example: locemu sky --from 60.17,24.94 --at 2026-05-16T09:00:00Z --every 60 --count 10
        (a place with a minus sign: --from=-33.87,151.21)

        Exit status: 0, 1 when the almanac cannot be read, 64 for bad options.
        """
    )

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp("Where the receiver is, with its height above the ellipsoid in metres.", valueName: "LAT,LON[,HEIGHT]"))
    var from: String

    @Option(help: ArgumentHelp("The first time, UTC (ISO 8601); now when omitted.", valueName: "TIME"))
    var at: String?

    @Option(help: ArgumentHelp("A YUMA or SEM almanac instead of the nominal constellation.", valueName: "FILE"))
    var almanac: String?

    @Option(help: "Satellites below this elevation, degrees, are not in view.")
    var mask = 5.0

    @Option(help: ArgumentHelp("Seconds between the times printed.", valueName: "S"))
    var every = 60.0

    @Option(help: ArgumentHelp("How many times to print.", valueName: "N"))
    var count = 1

    func validate() throws {
      guard ScenarioOptions.point(from) != nil else { throw ValidationError("--from wants LAT,LON[,HEIGHT], e.g. 60.17,24.94") }
      if let at, ISO8601Time.parse(at) == nil { throw ValidationError("--at wants an ISO 8601 time, e.g. 2026-05-16T09:00:00Z") }
      guard (-90...90).contains(mask) else { throw ValidationError("--mask must be between -90 and 90 degrees") }
      guard every > 0, every.isFinite else { throw ValidationError("--every must be a positive number of seconds") }
      guard (1...100_000).contains(count) else { throw ValidationError("--count must be between 1 and 100000") }
    }

    func run() throws {
      let (coordinate, height) = ScenarioOptions.point(from)!
      let start = at.flatMap(ISO8601Time.parse) ?? Date()
      let entries = try Self.almanac(almanac, near: start)
      let sky = GNSS.Sky(almanac: entries, elevationMask: mask)
      let receiver = ReceiverPosition(latitude: coordinate.latitude, longitude: coordinate.longitude, height: height ?? 0)
      var output = OutputBuffer()
      for index in 0..<count {
        let date = start.addingTimeInterval(Double(index) * every)
        let inView = sky.satellites(at: GPSTime(date), from: receiver)
        output.writeLine(Self.record(date: date, satellites: inView))
      }
      output.flush()
    }

    /// The almanac in `path` (YUMA or SEM, told apart by their text), or the nominal
    /// constellation without one.
    static func almanac(_ path: String?, near date: Date) throws -> [AlmanacEntry] {
      guard let path else { return NominalConstellation.almanac }
      let text: String
      do {
        text = try String(contentsOfFile: path, encoding: .utf8)
      } catch {
        throw CommandFailure("\(path): cannot read it (\(error.localizedDescription))")
      }
      do {
        let isYUMA = text.contains("****") || text.range(of: "ID:", options: .caseInsensitive) != nil
        return isYUMA ? try AlmanacFile.parseYUMA(text, near: date) : try AlmanacFile.parseSEM(text, near: date)
      } catch {
        throw CommandFailure("\(path): \(error)")
      }
    }

    /// The SKY-like JSON object for one time.
    static func record(date: Date, satellites: [SatelliteView]) -> String {
      var members = ["\"class\":\"SKY\"", "\"time\":\"\(FixRecord.iso8601(date))\"", "\"nSat\":\(satellites.count)"]
      if let dop = DilutionOfPrecision(satellites) {
        for (name, value) in [
          ("xdop", dop.east), ("ydop", dop.north), ("hdop", dop.horizontal), ("vdop", dop.vertical),
          ("pdop", dop.position), ("tdop", dop.time), ("gdop", dop.geometric),
        ] {
          members.append("\"\(name)\":\(FixRecord.fixed(value, 2))")
        }
      }
      let list = satellites.map {
        "{\"PRN\":\($0.prn),\"az\":\(FixRecord.fixed($0.azimuth, 3)),\"el\":\(FixRecord.fixed($0.elevation, 3)),\"range\":\(FixRecord.fixed($0.range, 1))}"
      }
      members.append("\"satellites\":[\(list.joined(separator: ","))]")
      return "{" + members.joined(separator: ",") + "}"
    }
  }
}
