// What Apple's CoreLocation brings along, brought along here too, so that a file that compiles
// on iOS with its imports compiles here with the same ones:
// - Foundation, which Apple's CoreLocation re-exports (`NSObject`, `Notification`, `Date`…),
//   with its networking part, which swift-corelibs-foundation keeps in a module of its own
//   (`URLSession`, `URLRequest`: Foundation on Apple platforms, FoundationNetworking here);
// - the Apple-only API that location code uses beside CoreLocation and that swift-corelibs-
//   foundation lacks (AppleCompat: `NotificationCenter.notifications(named:object:)`,
//   `NSEC_PER_SEC`, `DateComponentsFormatter`…);
// - Combine's `ObservableObject`, `@Published` and the rest, which Apple's Foundation makes
//   visible, when the app turns the package's `Combine` trait on (opt-in; see Package.swift).
@_exported public import Foundation
#if canImport(FoundationNetworking)
  @_exported public import FoundationNetworking
#endif
@_exported public import AppleCompat
#if Combine
  @_exported public import Combine
#endif
