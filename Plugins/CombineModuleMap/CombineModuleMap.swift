import Foundation
import PackagePlugin

/// Makes the `Combine` module importable wherever `canImport(Combine)` is true.
///
/// SwiftPM puts every Swift module of a build in one folder that every target searches, so once
/// the `Combine` trait builds our Combine module (OpenCombine under Combine's name), packages
/// that never asked for it see it too: `#if canImport(Combine)` turns true in them (GRDB,
/// swift-dependencies, many others guard their Combine code that way). Importing it loads
/// OpenCombine, which imports the C module `COpenCombineHelpers`, whose module map SwiftPM hands
/// only to OpenCombine's dependents; elsewhere the import failed with "missing required module
/// 'COpenCombineHelpers'" on every build after the first.
///
/// Clang also looks for a module in a subfolder of a search path named after it. Before each
/// build this links `Modules/COpenCombineHelpers/module.modulemap` to the module map SwiftPM
/// generates for that module in the same build folder, so every target finds it by name. A link,
/// not a copy: a target that is also given SwiftPM's map loads one file, not two definitions.
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
    let script = """
      scratch="$1"
      for config in "$scratch"/*-*-*/*/; do
        dir="${config}Modules/COpenCombineHelpers"
        mkdir -p "$dir" && ln -sfn ../../COpenCombineHelpers.build/module.modulemap "$dir/module.modulemap"
      done
      """
    return [
      .prebuildCommand(
        displayName: "Linking COpenCombineHelpers' module map where every target finds it",
        executable: URL(fileURLWithPath: "/bin/sh"),
        arguments: ["-c", script, "sh", scratch.path],
        outputFilesDirectory: context.pluginWorkDirectoryURL.appending(path: "empty")
      )
    ]
  }
}
