// CoreGraphics on Linux: the geometry types Apple's CoreGraphics declares and
// swift-corelibs-foundation already has (CGFloat, CGPoint, CGSize, CGRect, CGAffineTransform),
// under the framework's name, so that map and location code that writes `import CoreGraphics`
// for them builds unchanged. Nothing is drawn: there is no Quartz here.
@_exported public import Foundation
