import CoreLocation
import UIKit

public final class MapScreen: UIViewController {
  let manager = CLLocationManager()
}
