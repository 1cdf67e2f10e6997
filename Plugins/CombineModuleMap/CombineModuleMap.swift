import Foundation
import PackagePlugin

/// Makes the `Combine` and `CoreLocation` modules importable wherever `canImport` says they are.
///
/// SwiftPM puts every Swift module of a build in one folder that every target searches, so once
/// the `Combine` trait builds our Combine module (OpenCombine under Combine's name), packages
/// that never asked for it see it too: `#if canImport(Combine)` turns true in them (GRDB,
/// swift-dependencies, many others guard their Combine code that way). Importing it loads
/// OpenCombine, which imports the C module `COpenCombineHelpers`, whose module map SwiftPM hands
/// only to OpenCombine's dependents; elsewhere the import failed with "missing required module
/// 'COpenCombineHelpers'" on every build after the first.
///
/// The same holds for `CoreLocation` (and every module on `Emulator`): packages guard their
/// CoreLocation support with `#if canImport(CoreLocation)` (swift-custom-dump does), and the
/// import needs the C module `CConcurrencyHooks` under `Emulator` ("missing required module").
///
/// Clang also looks for a module in a subfolder of a search path named after it. Before each
/// build this links `Modules/NAME/module.modulemap` to the module map SwiftPM generates for those
/// C modules in the same build folder, so every target finds them by name. A link, not a copy: a
/// target that is also given SwiftPM's map loads one file, not two definitions.
@main
struct CombineModuleMap: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
    // The plugin's work folder is inside the build's scratch folder: <scratch>/plugins/outputs/….
    var scratch = context.pluginWorkDirectoryURL
    while scratch.lastPathComponent != "plugins", scratch.pathComponents.count > 1 {
      scratch.deleteLastPathComponent()
    }
    guard scratch.lastPathComponent == "plugins" else { return [] }
    scratch.deleteLastPathComponent()
    // Each build folder is <scratch>/<triple>/<configuration> (debug, release, or a custom one).
    // The link may dangle until SwiftPM generates the map (a first build): it is there before
    // any target that could see the Combine module compiles. A map whose header is gone means
    // OpenCombine left this build's graph (the Combine trait turned off, another package built
    // in the same folder): the Combine and OpenCombine modules an earlier build left would then
    // make `canImport(Combine)` true where the import cannot resolve, so they go.
    let script = """
      scratch="$1"
      for config in "$scratch"/*-*-*/*/; do
        modules="${config}Modules"
        map="${config}COpenCombineHelpers.build/module.modulemap"
        header=$(sed -n 's/.*umbrella header "\\(.*\\)".*/\\1/p' "$map" 2>/dev/null)
        if [ -f "$map" ] && [ -n "$header" ] && [ ! -f "$header" ]; then
          rm -rf "$modules/COpenCombineHelpers" "$modules"/Combine.* "$modules"/OpenCombine*.* "${config}COpenCombineHelpers.build"
        else
          mkdir -p "$modules/COpenCombineHelpers" && ln -sfn ../../COpenCombineHelpers.build/module.modulemap "$modules/COpenCombineHelpers/module.modulemap"
        fi
        mkdir -p "$modules/CConcurrencyHooks" && ln -sfn ../../CConcurrencyHooks.build/module.modulemap "$modules/CConcurrencyHooks/module.modulemap"
      done
      """
    return [
      .prebuildCommand(
        displayName: "Linking the C modules under CoreLocation and Combine where every target finds them",
        executable: URL(fileURLWithPath: "/bin/sh"),
        arguments: ["-c", script, "sh", scratch.path],
        outputFilesDirectory: context.pluginWorkDirectoryURL.appending(path: "empty")
      )
    ]
  }
}
