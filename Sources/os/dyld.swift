// Darwin's dyld image list, which code for Apple platforms walks under `#if canImport(os)` (Apple's
// os module brings Darwin's headers along) to find a framework's image. Linux loads ELF objects,
// not Mach-O images: the list is empty here, and such code takes its fallback.

/// A Mach-O image's header (none exist on Linux).
public struct mach_header: Sendable {
  /// The header's magic number, which tells a Mach-O file's kind; always 0 here.
  public var magic: UInt32 = 0
}

/// The number of Mach-O images loaded: none on Linux.
public func _dyld_image_count() -> UInt32 { 0 }

/// An image's path: none on Linux.
public func _dyld_get_image_name(_ index: UInt32) -> UnsafePointer<CChar>? { nil }

/// An image's header: none on Linux.
public func _dyld_get_image_header(_ index: UInt32) -> UnsafePointer<mach_header>? { nil }
