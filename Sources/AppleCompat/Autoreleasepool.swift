/// Runs `body`: Objective-C's autorelease pool, which Swift code on Apple platforms wraps around
/// loops that make many Foundation objects. Linux has no autorelease (objects go when their last
/// reference does), so the pool is a pass-through, and such code builds and behaves the same.
@inlinable
public func autoreleasepool<Result>(invoking body: () throws -> Result) rethrows -> Result { try body() }
