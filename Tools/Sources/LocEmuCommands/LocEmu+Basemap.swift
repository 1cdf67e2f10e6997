import ArgumentParser
import Basemap
import Foundation
import Geo

extension LocEmu {
  struct BasemapCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "basemap",
      abstract: "Make a basemap from an OpenStreetMap extract, for map snapshots with streets, water and parks.",
      discussion: """
        build EXTRACT.osm.pbf OUT.basemap reads an OpenStreetMap extract (the .osm.pbf \\
        file you download for a city) once and writes what the snapshots draw — roads by \\
        class with their names, railways, rivers and streams, water, parks, forests, \\
        buildings, place and station labels — into an indexed file that any region is read \\
        from quickly. Then give it to 'locemu preview --basemap OUT.basemap'. The data is \\
        © OpenStreetMap contributors (ODbL); the snapshots say so.

        info FILE prints what a basemap holds.

        Example: locemu basemap build data/helsinki/Helsinki.osm.pbf helsinki.basemap

        Exit status: 0 done; 1 the extract cannot be read (missing, truncated, not PBF, \\
        nothing to draw) or OUT cannot be written; 64 bad usage.
        """,
      subcommands: [Build.self, Info.self]
    )

    struct Build: ParsableCommand {
      static let configuration = CommandConfiguration(abstract: "Build a basemap file from an .osm.pbf extract.")

      @Argument(help: ArgumentHelp("The OpenStreetMap extract.", valueName: "EXTRACT.osm.pbf"))
      var input: String

      @Argument(help: ArgumentHelp("The basemap to write (replaced whole).", valueName: "OUT"))
      var output: String

      func run() throws {
        let started = ContinuousClock.now
        do {
          let summary = try BasemapBuilder.build(pbf: input, output: output)
          let seconds = FixRecord.fixed((ContinuousClock.now - started).seconds, 2)
          printError("locemu basemap: \(output): \(summary) in \(seconds) s")
        } catch {
          throw CommandFailure("\(error)")
        }
      }
    }

    struct Info: ParsableCommand {
      static let configuration = CommandConfiguration(abstract: "Print what a basemap file holds.")

      @Argument(help: ArgumentHelp("The basemap.", valueName: "FILE"))
      var file: String

      func run() throws {
        do {
          let map = try Basemap(path: file)
          let b = map.bounds
          print(
            "{\"path\":\(JSONText.quoted(file)),\"features\":\(map.featureCount),\"south\":\(b.south),\"north\":\(b.north),"
              + "\"west\":\(b.west),\"east\":\(b.east),\"attribution\":\(JSONText.quoted(map.attribution))}")
        } catch {
          throw CommandFailure("\(error)")
        }
      }
    }
  }
}
