// Combine on Linux: OpenCombine (a faithful open-source implementation) under Combine's name,
// so that location code written for Apple platforms (`ObservableObject`, `@Published`,
// `PassthroughSubject`, `sink`) builds unchanged; with OpenCombine's Foundation and Dispatch
// parts, what Apple's Foundation adds to Combine: `NotificationCenter.default.publisher(for:)`,
// `Timer.publish(every:on:in:)`, `URLSession`'s `dataTaskPublisher(for:)`, and `DispatchQueue`,
// `RunLoop` and `OperationQueue` as schedulers (`.receive(on: DispatchQueue.main)`). Linux only.
@_exported import OpenCombine
@_exported import OpenCombineDispatch
@_exported import OpenCombineFoundation
public import Foundation
// URLSession's publisher takes Foundation's networking types, which are Foundation on Apple
// platforms and FoundationNetworking here: a file that imports Foundation and Combine gets them.
#if canImport(FoundationNetworking)
  @_exported public import FoundationNetworking
#endif

extension NotificationCenter {
  /// The publisher of `publisher(for:object:)`, by Apple's name.
  public typealias Publisher = OCombine.Publisher
}
