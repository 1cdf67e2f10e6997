import ArgumentParser
import Basemap
import Foundation
import Geo
import LocationModel

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

        shoreline GMT_DUMP OUT.basemap turns the world's shorelines (GSHHG) into a \\
        basemap of land, lakes, islands in lakes and ponds, cut into 1° cells, drawn over the \\
        sea under a city's streets: give it first, 'locemu preview --basemap SHORE \\
        --basemap CITY'. GMT_DUMP is what 'gmt coast -Rd -Di -W -M' prints (GMT reads \\
        GSHHG's binned files; '-' reads standard input). scripts/make-shoreline.sh runs both \\
        for the whole world or a region; the project bundles the Gulf of Finland's, \\
        data/shoreline/gulf-of-finland.basemap (GSHHG is LGPL).

        On a terminal, build and shoreline show on standard error how much of their input \
        they have read (--quiet: not).

        info FILE prints what a basemap holds.

        Example: locemu basemap build data/helsinki/Helsinki.osm.pbf helsinki.basemap

        Exit status: 0 done; 1 the input cannot be read (missing, truncated, not PBF, \\
        nothing to draw) or OUT cannot be written; 64 bad usage.
        """,
      subcommands: [Build.self, Shoreline.self, Info.self]
    )

    struct Build: ParsableCommand {
      static let configuration = CommandConfiguration(
        commandName: "build", abstract: "Build a basemap file from an .osm.pbf extract.",
        discussion: "On a terminal, standard error shows the bytes of the extract read so far (it is read twice; --quiet: not).")

      @Argument(help: ArgumentHelp("The OpenStreetMap extract.", valueName: "EXTRACT.osm.pbf"))
      var input: String

      @Argument(help: ArgumentHelp("The basemap to write (replaced whole).", valueName: "OUT"))
      var output: String

      @Flag(help: "No progress line on standard error (one is shown only when it is a terminal).")
      var quiet = false

      func run() throws {
        let started = ContinuousClock.now
        let progress = ProgressLine("basemap build", unit: .bytes, quiet: quiet)
        defer { progress.finish() }
        do {
          let summary = try BasemapBuilder.build(pbf: input, output: output) { done, total in progress.update(done, of: total) }
          progress.finish()
          let seconds = FixRecord.fixed((ContinuousClock.now - started).seconds, 2)
          printError("locemu basemap: \(output): \(summary) in \(seconds) s")
        } catch {
          throw CommandFailure("\(error)")
        }
      }
    }

    struct Shoreline: ParsableCommand {
      static let configuration = CommandConfiguration(
        commandName: "shoreline",
        abstract: "Build a shoreline basemap (land, lakes, islands, ponds) from GMT's dump of GSHHG.")

      @Argument(help: ArgumentHelp("What 'gmt coast -Rd -Di -W -M' prints ('-': standard input).", valueName: "GMT_DUMP"))
      var input: String

      @Argument(help: ArgumentHelp("The basemap to write (replaced whole).", valueName: "OUT"))
      var output: String

      @Option(help: ArgumentHelp("The GSHHG resolution the dump was made at, recorded in the file (c, l, i, h, f).", valueName: "R"))
      var resolution: String?

      @Option(
        help: ArgumentHelp(
          "Keep only the 1° cells that meet this region (the dump must still be the whole world's, -Rd).",
          valueName: "SOUTH,NORTH,WEST,EAST"))
      var region: String?

      @Flag(help: "No progress line on standard error (one is shown only when it is a terminal).")
      var quiet = false

      /// `--region` as degrees; nil when absent or not a valid region.
      var box: ShorelineBuilder.Region? {
        guard let v = region?.split(separator: ",").compactMap({ Double($0) }), v.count == 4, v[0] < v[1],
          (-90...90).contains(v[0]), (-90...90).contains(v[1]), (-180...180).contains(v[2]), (-180...180).contains(v[3])
        else { return nil }
        return (v[0], v[1], v[2], v[3])
      }

      func validate() throws {
        if region != nil, box == nil {
          throw ValidationError("--region must be SOUTH,NORTH,WEST,EAST in degrees, south below north")
        }
      }

      func run() throws {
        let started = ContinuousClock.now
        // Of the dump's bytes read, then as much again for its cells cut.
        let progress = ProgressLine("basemap shoreline", unit: .bytes, quiet: quiet)
        defer { progress.finish() }
        do {
          let summary = try ShorelineBuilder.build(gmtDump: input, output: output, resolution: resolution, region: box) {
            progress.update($0, of: $1)
          }
          progress.finish()
          let seconds = FixRecord.fixed((ContinuousClock.now - started).seconds, 2)
          printError("locemu basemap: \(output): \(summary) in \(seconds) s")
        } catch {
          throw CommandFailure("\(error)")
        }
      }
    }

    struct Info: ParsableCommand {
      static let configuration = CommandConfiguration(commandName: "info", abstract: "Print what a basemap file holds.")

      @Argument(help: ArgumentHelp("The basemap.", valueName: "FILE"))
      var file: String

      func run() throws {
        do {
          let map = try Basemap(path: file)
          let b = map.bounds
          writeOutput(
            "{\"path\":\(JSONText.quoted(file)),\"features\":\(map.featureCount),\"south\":\(b.south),\"north\":\(b.north),"
              + "\"west\":\(b.west),\"east\":\(b.east),\"attribution\":\(JSONText.quoted(map.attribution))"
              + (map.shoreline.map { ",\"shoreline\":\(JSONText.quoted($0))" } ?? "") + "}\n")
        } catch {
          throw CommandFailure("\(error)")
        }
      }
    }
  }
}
