import Emulator
import Foundation
import Geo
@_exported import EmulatorTesting
@_exported import TestSupport
import LocationModel

let startDate = Date(timeIntervalSince1970: 1_767_225_600)

/// Seconds since the start date of a fix's timestamp.
func second(_ fix: LocationFix?) -> Double? { fix?.timestamp.map { $0.timeIntervalSince(startDate) } }

/// The paths of this process's open file descriptors.
func openFilePaths() -> [String] {
  let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
  return fds.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)") }
}
