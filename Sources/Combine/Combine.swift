// Combine on Linux: OpenCombine (a faithful open-source implementation) under Combine's name,
// so that location code written for Apple platforms (`ObservableObject`, `@Published`,
// `PassthroughSubject`, `sink`) builds unchanged. Linux only, and opt-in: only an app package
// that depends on this product resolves OpenCombine.
@_exported import OpenCombine
