import Emulator
import Foundation
import Geo
@_exported import EmulatorTesting
@_exported import TestSupport
import LocationModel
