// A plain Linux program that uses CoreLocation as an iOS app does: a CLLocationManager made at
// the top level (the main actor), a delegate that prints what it is told, one line per call.
// With LOCEMU_SERVER (and LOCEMU_PHONE) it runs on a phone of that `locemu serve`, which
// `locemu ctl` drives: the end-to-end tests run it so. Commands on standard input, one per line:
// `request` (When In Use), `always`, `start`, `stop`, `once` (requestLocation); it ends at the
// end of its input.
import CoreLocation
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

func name(_ status: CLAuthorizationStatus) -> String {
  switch status {
  case .notDetermined: "notDetermined"
  case .restricted: "restricted"
  case .denied: "denied"
  case .authorizedAlways: "authorizedAlways"
  case .authorizedWhenInUse: "authorizedWhenInUse"
  @unknown default: "unknown"
  }
}

final class Printer: NSObject, CLLocationManagerDelegate {
  func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {
    let accuracy = manager.accuracyAuthorization == .fullAccuracy ? "full" : "reduced"
    say("status \(name(manager.authorizationStatus)) accuracy \(accuracy)")
  }

  func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
    for location in locations {
      say(String(format: "location %.6f %.6f", location.coordinate.latitude, location.coordinate.longitude))
      // The location's timestamp, seconds since 1970: a held position comes again as a new fix,
      // stamped anew (its age when it arrives would say how fast it came, not which fix it is).
      say(String(format: "time %.3f", location.timestamp.timeIntervalSince1970))
    }
  }

  func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error) {
    say("error \((error as? CLError)?.code.rawValue ?? -1)")
  }
}

let manager = CLLocationManager()
let printer = Printer()
manager.delegate = printer

// Standard input on a thread of its own; each command runs on the main actor.
let reader = Thread {
  while let line = readLine() {
    let command = line.trimmingCharacters(in: .whitespaces)
    DispatchQueue.main.async {
      MainActor.assumeIsolated {
        switch command {
        case "request": manager.requestWhenInUseAuthorization()
        case "always": manager.requestAlwaysAuthorization()
        case "start": manager.startUpdatingLocation()
        case "stop": manager.stopUpdatingLocation()
        case "once": manager.requestLocation()
        default: say("unknown command \(command)")
        }
      }
    }
  }
  exit(0)
}
reader.start()
dispatchMain()
