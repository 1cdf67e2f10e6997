public import Foundation

/// UIKit's colour, as far as map code uses one: `import MapKit` brings UIKit on iOS, and the
/// annotation views' tints and the overlay renderers' stroke and fill are `UIColor`s there. Its
/// components (sRGB, 0…1) are values a test can read back; the named colours are iOS's in light
/// mode. Declared by MapKit here, not by a module named UIKit: such a module in a build would turn
/// `#if canImport(UIKit)` on in every package built with it.
open class UIColor: NSObject, @unchecked Sendable {
  /// The components, sRGB 0…1.
  public let redComponent: CGFloat, greenComponent: CGFloat, blueComponent: CGFloat, alphaComponent: CGFloat

  /// A colour from its sRGB components, each clamped to 0…1.
  /// - Parameters:
  ///   - red: The red component.
  ///   - green: The green component.
  ///   - blue: The blue component.
  ///   - alpha: The opacity, 0 (transparent) to 1 (opaque).
  public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
    func clamp(_ v: CGFloat) -> CGFloat { Swift.min(1, Swift.max(0, v)) }
    (redComponent, greenComponent, blueComponent, alphaComponent) = (clamp(red), clamp(green), clamp(blue), clamp(alpha))
    super.init()
  }

  /// A grey: the same value for red, green and blue.
  /// - Parameters:
  ///   - white: The grey's value, 0 (black) to 1 (white).
  ///   - alpha: The opacity, 0 to 1.
  public convenience init(white: CGFloat, alpha: CGFloat) { self.init(red: white, green: white, blue: white, alpha: alpha) }

  /// A colour from its hue, saturation and brightness (HSB), converted to sRGB.
  /// - Parameters:
  ///   - hue: The hue, 0…1 around the colour wheel (from red).
  ///   - saturation: The saturation, 0 (grey) to 1.
  ///   - brightness: The brightness, 0 (black) to 1.
  ///   - alpha: The opacity, 0 to 1.
  public convenience init(hue: CGFloat, saturation: CGFloat, brightness: CGFloat, alpha: CGFloat) {
    let h = (hue - hue.rounded(.down)) * 6, sector = Int(h), f = h - CGFloat(sector)
    let (v, s) = (brightness, saturation)
    let p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f))
    let (r, g, b): (CGFloat, CGFloat, CGFloat) =
      switch sector % 6 {
      case 0: (v, t, p)
      case 1: (q, v, p)
      case 2: (p, v, t)
      case 3: (p, q, v)
      case 4: (t, p, v)
      default: (v, p, q)
      }
    self.init(red: r, green: g, blue: b, alpha: alpha)
  }

  /// The same colour with `alpha`.
  open func withAlphaComponent(_ alpha: CGFloat) -> UIColor {
    UIColor(red: redComponent, green: greenComponent, blue: blueComponent, alpha: alpha)
  }

  /// The components, as UIKit gives them (true: the colour has RGB components).
  open func getRed(
    _ red: UnsafeMutablePointer<CGFloat>?, green: UnsafeMutablePointer<CGFloat>?, blue: UnsafeMutablePointer<CGFloat>?,
    alpha: UnsafeMutablePointer<CGFloat>?
  ) -> Bool {
    red?.pointee = redComponent
    green?.pointee = greenComponent
    blue?.pointee = blueComponent
    alpha?.pointee = alphaComponent
    return true
  }

  /// Whether `object` is a colour with the same four components.
  /// - Parameter object: The value to compare with.
  /// - Returns: True if the components are equal.
  open override func isEqual(_ object: Any?) -> Bool {
    guard let other = object as? UIColor else { return false }
    return (redComponent, greenComponent, blueComponent, alphaComponent)
      == (other.redComponent, other.greenComponent, other.blueComponent, other.alphaComponent)
  }

  /// A hash of the four components, consistent with `isEqual(_:)`.
  open override var hash: Int {
    var hasher = Hasher()
    for c in [redComponent, greenComponent, blueComponent, alphaComponent] { hasher.combine(c) }
    return hasher.finalize()
  }

  private static func rgb(_ r: Int, _ g: Int, _ b: Int) -> UIColor {
    UIColor(red: CGFloat(r) / 255, green: CGFloat(g) / 255, blue: CGFloat(b) / 255, alpha: 1)
  }

  /// Black.
  open class var black: UIColor { UIColor(white: 0, alpha: 1) }
  /// Dark grey (white 1/3).
  open class var darkGray: UIColor { UIColor(white: 1 / 3, alpha: 1) }
  /// Light grey (white 2/3).
  open class var lightGray: UIColor { UIColor(white: 2 / 3, alpha: 1) }
  /// White.
  open class var white: UIColor { UIColor(white: 1, alpha: 1) }
  /// Grey (white 1/2).
  open class var gray: UIColor { UIColor(white: 0.5, alpha: 1) }
  /// Pure red (255, 0, 0).
  open class var red: UIColor { rgb(255, 0, 0) }
  /// Pure green (0, 255, 0).
  open class var green: UIColor { rgb(0, 255, 0) }
  /// Pure blue (0, 0, 255).
  open class var blue: UIColor { rgb(0, 0, 255) }
  /// Cyan (0, 255, 255).
  open class var cyan: UIColor { rgb(0, 255, 255) }
  /// Yellow (255, 255, 0).
  open class var yellow: UIColor { rgb(255, 255, 0) }
  /// Magenta (255, 0, 255).
  open class var magenta: UIColor { rgb(255, 0, 255) }
  /// Orange (255, 128, 0).
  open class var orange: UIColor { rgb(255, 128, 0) }
  /// Purple (128, 0, 128).
  open class var purple: UIColor { rgb(128, 0, 128) }
  /// Brown (153, 102, 51).
  open class var brown: UIColor { rgb(153, 102, 51) }
  /// Fully transparent black.
  open class var clear: UIColor { UIColor(white: 0, alpha: 0) }
  /// iOS's system red in light mode (255, 59, 48).
  open class var systemRed: UIColor { rgb(255, 59, 48) }
  /// iOS's system green in light mode (52, 199, 89).
  open class var systemGreen: UIColor { rgb(52, 199, 89) }
  /// iOS's system blue in light mode (0, 122, 255).
  open class var systemBlue: UIColor { rgb(0, 122, 255) }
  /// iOS's system orange in light mode (255, 149, 0).
  open class var systemOrange: UIColor { rgb(255, 149, 0) }
  /// iOS's system yellow in light mode (255, 204, 0).
  open class var systemYellow: UIColor { rgb(255, 204, 0) }
  /// iOS's system pink in light mode (255, 45, 85).
  open class var systemPink: UIColor { rgb(255, 45, 85) }
  /// iOS's system purple in light mode (175, 82, 222).
  open class var systemPurple: UIColor { rgb(175, 82, 222) }
  /// iOS's system teal in light mode (48, 176, 199).
  open class var systemTeal: UIColor { rgb(48, 176, 199) }
  /// iOS's system indigo in light mode (88, 86, 214).
  open class var systemIndigo: UIColor { rgb(88, 86, 214) }
  /// iOS's system brown in light mode (162, 132, 94).
  open class var systemBrown: UIColor { rgb(162, 132, 94) }
  /// iOS's system grey in light mode (142, 142, 147).
  open class var systemGray: UIColor { rgb(142, 142, 147) }
  /// The colour of text: black, as in light mode.
  open class var label: UIColor { black }
  /// The colour of secondary text: grey at 60% opacity, as in light mode.
  open class var secondaryLabel: UIColor { UIColor(red: 60 / 255, green: 60 / 255, blue: 67 / 255, alpha: 0.6) }
  /// The colour of a screen's background: white, as in light mode.
  open class var systemBackground: UIColor { white }
  /// The default tint: system blue.
  open class var tintColor: UIColor { systemBlue }
}
