// Apple's simd module, as location code uses it beside CoreLocation: the C names of the vector
// types (`simd_double3` for a translation in metres, `simd_float2` for a screen point) over the
// standard library's SIMD vectors, and the geometric functions on them, under both of Apple's
// names (`simd_length(_:)` from the C header, `length(_:)` from the Swift overlay). Matrices and
// quaternions are not declared.

// MARK: Vector types

/// A vector of 2 `Float` lanes (`SIMD2<Float>`).
public typealias simd_float2 = SIMD2<Float>
/// A vector of 3 `Float` lanes (`SIMD3<Float>`).
public typealias simd_float3 = SIMD3<Float>
/// A vector of 4 `Float` lanes (`SIMD4<Float>`).
public typealias simd_float4 = SIMD4<Float>
/// A vector of 8 `Float` lanes (`SIMD8<Float>`).
public typealias simd_float8 = SIMD8<Float>
/// A vector of 16 `Float` lanes (`SIMD16<Float>`).
public typealias simd_float16 = SIMD16<Float>
/// A vector of 2 `Double` lanes (`SIMD2<Double>`).
public typealias simd_double2 = SIMD2<Double>
/// A vector of 3 `Double` lanes (`SIMD3<Double>`).
public typealias simd_double3 = SIMD3<Double>
/// A vector of 4 `Double` lanes (`SIMD4<Double>`).
public typealias simd_double4 = SIMD4<Double>
/// A vector of 8 `Double` lanes (`SIMD8<Double>`).
public typealias simd_double8 = SIMD8<Double>
/// A vector of 2 `Int32` lanes (`SIMD2<Int32>`).
public typealias simd_int2 = SIMD2<Int32>
/// A vector of 3 `Int32` lanes (`SIMD3<Int32>`).
public typealias simd_int3 = SIMD3<Int32>
/// A vector of 4 `Int32` lanes (`SIMD4<Int32>`).
public typealias simd_int4 = SIMD4<Int32>
/// A vector of 2 `UInt32` lanes (`SIMD2<UInt32>`).
public typealias simd_uint2 = SIMD2<UInt32>
/// A vector of 3 `UInt32` lanes (`SIMD3<UInt32>`).
public typealias simd_uint3 = SIMD3<UInt32>
/// A vector of 4 `UInt32` lanes (`SIMD4<UInt32>`).
public typealias simd_uint4 = SIMD4<UInt32>
/// A vector of 2 `Int` lanes (`SIMD2<Int>`).
public typealias simd_long2 = SIMD2<Int>
/// A vector of 3 `Int` lanes (`SIMD3<Int>`).
public typealias simd_long3 = SIMD3<Int>
/// A vector of 4 `Int` lanes (`SIMD4<Int>`).
public typealias simd_long4 = SIMD4<Int>
/// The C name of a boolean as simd functions use it; here plain `Bool`.
public typealias simd_bool = Bool

/// The older C name of `simd_float2`: a vector of 2 `Float` lanes.
public typealias vector_float2 = simd_float2
/// The older C name of `simd_float3`: a vector of 3 `Float` lanes.
public typealias vector_float3 = simd_float3
/// The older C name of `simd_float4`: a vector of 4 `Float` lanes.
public typealias vector_float4 = simd_float4
/// The older C name of `simd_double2`: a vector of 2 `Double` lanes.
public typealias vector_double2 = simd_double2
/// The older C name of `simd_double3`: a vector of 3 `Double` lanes.
public typealias vector_double3 = simd_double3
/// The older C name of `simd_double4`: a vector of 4 `Double` lanes.
public typealias vector_double4 = simd_double4
/// The older C name of `simd_int2`: a vector of 2 `Int32` lanes.
public typealias vector_int2 = simd_int2
/// The older C name of `simd_int3`: a vector of 3 `Int32` lanes.
public typealias vector_int3 = simd_int3
/// The older C name of `simd_int4`: a vector of 4 `Int32` lanes.
public typealias vector_int4 = simd_int4
/// The older C name of `simd_uint2`: a vector of 2 `UInt32` lanes.
public typealias vector_uint2 = simd_uint2
/// The older C name of `simd_uint3`: a vector of 3 `UInt32` lanes.
public typealias vector_uint3 = simd_uint3
/// The older C name of `simd_uint4`: a vector of 4 `UInt32` lanes.
public typealias vector_uint4 = simd_uint4

// MARK: Makers

/// Makes a vector of 2 `Float` lanes from its lanes.
///
/// - Parameters:
///   - x: The first lane.
///   - y: The second lane.
/// - Returns: The vector (x, y).
public func simd_make_float2(_ x: Float, _ y: Float) -> simd_float2 { simd_float2(x, y) }
/// Makes a vector of 3 `Float` lanes from its lanes.
///
/// - Parameters:
///   - x: The first lane.
///   - y: The second lane.
///   - z: The third lane.
/// - Returns: The vector (x, y, z).
public func simd_make_float3(_ x: Float, _ y: Float, _ z: Float) -> simd_float3 { simd_float3(x, y, z) }
/// Makes a vector of 4 `Float` lanes from its lanes.
///
/// - Parameters:
///   - x: The first lane.
///   - y: The second lane.
///   - z: The third lane.
///   - w: The fourth lane.
/// - Returns: The vector (x, y, z, w).
public func simd_make_float4(_ x: Float, _ y: Float, _ z: Float, _ w: Float) -> simd_float4 { simd_float4(x, y, z, w) }
/// Makes a vector of 2 `Double` lanes from its lanes.
///
/// - Parameters:
///   - x: The first lane.
///   - y: The second lane.
/// - Returns: The vector (x, y).
public func simd_make_double2(_ x: Double, _ y: Double) -> simd_double2 { simd_double2(x, y) }
/// Makes a vector of 3 `Double` lanes from its lanes.
///
/// - Parameters:
///   - x: The first lane.
///   - y: The second lane.
///   - z: The third lane.
/// - Returns: The vector (x, y, z).
public func simd_make_double3(_ x: Double, _ y: Double, _ z: Double) -> simd_double3 { simd_double3(x, y, z) }
/// Makes a vector of 4 `Double` lanes from its lanes.
///
/// - Parameters:
///   - x: The first lane.
///   - y: The second lane.
///   - z: The third lane.
///   - w: The fourth lane.
/// - Returns: The vector (x, y, z, w).
public func simd_make_double4(_ x: Double, _ y: Double, _ z: Double, _ w: Double) -> simd_double4 { simd_double4(x, y, z, w) }

// MARK: Geometry (C names)

/// The sum of the products of `x` and `y`'s lanes.
public func simd_dot<V: SIMD>(_ x: V, _ y: V) -> V.Scalar where V.Scalar: FloatingPoint { (x * y).sum() }

/// The length squared of `x`.
public func simd_length_squared<V: SIMD>(_ x: V) -> V.Scalar where V.Scalar: FloatingPoint { simd_dot(x, x) }

/// The Euclidean length of `x`.
public func simd_length<V: SIMD>(_ x: V) -> V.Scalar where V.Scalar: FloatingPoint { simd_length_squared(x).squareRoot() }

/// The distance between `x` and `y`, squared.
public func simd_distance_squared<V: SIMD>(_ x: V, _ y: V) -> V.Scalar where V.Scalar: FloatingPoint { simd_length_squared(x - y) }

/// The distance between `x` and `y`.
public func simd_distance<V: SIMD>(_ x: V, _ y: V) -> V.Scalar where V.Scalar: FloatingPoint { simd_length(x - y) }

/// `x` scaled to length 1 (NaN lanes for a zero vector, as Apple's).
public func simd_normalize<V: SIMD>(_ x: V) -> V where V.Scalar: FloatingPoint { x / simd_length(x) }

/// The cross product of two 3-vectors.
public func simd_cross<Scalar: SIMDScalar & FloatingPoint>(_ x: SIMD3<Scalar>, _ y: SIMD3<Scalar>) -> SIMD3<Scalar> {
  SIMD3(x.y * y.z - x.z * y.y, x.z * y.x - x.x * y.z, x.x * y.y - x.y * y.x)
}

/// `x` + (`y` − `x`) × `t`, lane by lane.
public func simd_mix<V: SIMD>(_ x: V, _ y: V, _ t: V) -> V where V.Scalar: FloatingPoint { x + (y - x) * t }

/// `x` with each lane clamped to `min`…`max`.
public func simd_clamp<V: SIMD>(_ x: V, _ min: V, _ max: V) -> V where V.Scalar: Comparable {
  x.replacing(with: min, where: x .< min).replacing(with: max, where: x .> max)
}

/// Lane-wise absolute value.
public func simd_abs<V: SIMD>(_ x: V) -> V where V.Scalar: FloatingPoint { x.replacing(with: -x, where: x .< .zero) }

/// Lane-wise minimum.
public func simd_min<V: SIMD>(_ x: V, _ y: V) -> V where V.Scalar: Comparable { pointwiseMin(x, y) }

/// Lane-wise maximum.
public func simd_max<V: SIMD>(_ x: V, _ y: V) -> V where V.Scalar: Comparable { pointwiseMax(x, y) }

/// The sum of `x`'s lanes.
public func simd_reduce_add<V: SIMD>(_ x: V) -> V.Scalar where V.Scalar: FloatingPoint { x.sum() }

/// The least of `x`'s lanes.
public func simd_reduce_min<V: SIMD>(_ x: V) -> V.Scalar where V.Scalar: Comparable { x.min() }

/// The greatest of `x`'s lanes.
public func simd_reduce_max<V: SIMD>(_ x: V) -> V.Scalar where V.Scalar: Comparable { x.max() }

/// The projection of `x` on `y`.
public func simd_project<V: SIMD>(_ x: V, _ y: V) -> V where V.Scalar: FloatingPoint {
  y * (simd_dot(x, y) / simd_dot(y, y))
}

/// `x` reflected through the plane whose unit normal is `n`.
public func simd_reflect<V: SIMD>(_ x: V, _ n: V) -> V where V.Scalar: FloatingPoint { x - n * (2 * simd_dot(x, n)) }

// MARK: Geometry (the Swift overlay's names)

/// The dot product: the sum of the products of `x` and `y`'s lanes; the same as `simd_dot(_:_:)`.
///
/// - Parameters:
///   - x: The first vector.
///   - y: The second vector.
/// - Returns: The dot product of `x` and `y`.
public func dot<V: SIMD>(_ x: V, _ y: V) -> V.Scalar where V.Scalar: FloatingPoint { simd_dot(x, y) }
/// The Euclidean length of a vector; the same as `simd_length(_:)`.
///
/// - Parameter x: The vector.
/// - Returns: The square root of the sum of the squares of `x`'s lanes.
public func length<V: SIMD>(_ x: V) -> V.Scalar where V.Scalar: FloatingPoint { simd_length(x) }
/// The squared length of a vector; the same as `simd_length_squared(_:)`.
///
/// - Parameter x: The vector.
/// - Returns: The sum of the squares of `x`'s lanes.
public func length_squared<V: SIMD>(_ x: V) -> V.Scalar where V.Scalar: FloatingPoint { simd_length_squared(x) }
/// The Euclidean distance between two points; the same as `simd_distance(_:_:)`.
///
/// - Parameters:
///   - x: The first vector.
///   - y: The second vector.
/// - Returns: The length of `x - y`.
public func distance<V: SIMD>(_ x: V, _ y: V) -> V.Scalar where V.Scalar: FloatingPoint { simd_distance(x, y) }
/// The squared distance between two points; the same as `simd_distance_squared(_:_:)`.
///
/// - Parameters:
///   - x: The first vector.
///   - y: The second vector.
/// - Returns: The squared length of `x - y`.
public func distance_squared<V: SIMD>(_ x: V, _ y: V) -> V.Scalar where V.Scalar: FloatingPoint { simd_distance_squared(x, y) }
/// A vector scaled to length 1; the same as `simd_normalize(_:)`.
///
/// - Parameter x: The vector to scale.
/// - Returns: `x` divided by its length (NaN lanes for a zero vector).
public func normalize<V: SIMD>(_ x: V) -> V where V.Scalar: FloatingPoint { simd_normalize(x) }
/// The cross product of two 3-vectors; the same as `simd_cross(_:_:)`.
///
/// - Parameters:
///   - x: The first vector.
///   - y: The second vector.
/// - Returns: The vector perpendicular to `x` and `y` (right-hand rule).
public func cross<Scalar: SIMDScalar & FloatingPoint>(_ x: SIMD3<Scalar>, _ y: SIMD3<Scalar>) -> SIMD3<Scalar> { simd_cross(x, y) }
/// Linear interpolation between two vectors, with a weight per lane; the same as `simd_mix(_:_:_:)`.
///
/// - Parameters:
///   - x: The value at `t` = 0.
///   - y: The value at `t` = 1.
///   - t: The weight of `y`, lane by lane.
/// - Returns: `x + (y - x) * t`, lane by lane.
public func mix<V: SIMD>(_ x: V, _ y: V, t: V) -> V where V.Scalar: FloatingPoint { simd_mix(x, y, t) }
/// Linear interpolation between two vectors, with one weight for all lanes.
///
/// - Parameters:
///   - x: The value at `t` = 0.
///   - y: The value at `t` = 1.
///   - t: The weight of `y`, for every lane.
/// - Returns: `x + (y - x) * t`, lane by lane.
public func mix<V: SIMD>(_ x: V, _ y: V, t: V.Scalar) -> V where V.Scalar: FloatingPoint { simd_mix(x, y, V(repeating: t)) }
/// Clamps each lane of a vector to the matching lanes of two bounds; the same as `simd_clamp(_:_:_:)`.
///
/// - Parameters:
///   - x: The vector to clamp.
///   - min: The lower bound, lane by lane.
///   - max: The upper bound, lane by lane.
/// - Returns: `x` with each lane clamped to `min`…`max`.
public func clamp<V: SIMD>(_ x: V, min: V, max: V) -> V where V.Scalar: Comparable { simd_clamp(x, min, max) }
/// Clamps every lane of a vector to the same bounds.
///
/// - Parameters:
///   - x: The vector to clamp.
///   - min: The lower bound for every lane.
///   - max: The upper bound for every lane.
/// - Returns: `x` with each lane clamped to `min`…`max`.
public func clamp<V: SIMD>(_ x: V, min: V.Scalar, max: V.Scalar) -> V where V.Scalar: Comparable {
  simd_clamp(x, V(repeating: min), V(repeating: max))
}
/// The projection of one vector on another; the same as `simd_project(_:_:)`.
///
/// - Parameters:
///   - x: The vector to project.
///   - y: The vector to project on.
/// - Returns: The component of `x` along `y`.
public func project<V: SIMD>(_ x: V, _ y: V) -> V where V.Scalar: FloatingPoint { simd_project(x, y) }
/// A vector reflected through a plane; the same as `simd_reflect(_:_:)`.
///
/// - Parameters:
///   - x: The vector to reflect.
///   - n: The plane's unit normal.
/// - Returns: `x - 2 * dot(x, n) * n`.
public func reflect<V: SIMD>(_ x: V, n: V) -> V where V.Scalar: FloatingPoint { simd_reflect(x, n) }
/// The sum of a vector's lanes; the same as `simd_reduce_add(_:)`.
///
/// - Parameter x: The vector.
/// - Returns: The sum of `x`'s lanes.
public func reduce_add<V: SIMD>(_ x: V) -> V.Scalar where V.Scalar: FloatingPoint { simd_reduce_add(x) }
/// The least of a vector's lanes; the same as `simd_reduce_min(_:)`.
///
/// - Parameter x: The vector.
/// - Returns: The smallest lane of `x`.
public func reduce_min<V: SIMD>(_ x: V) -> V.Scalar where V.Scalar: Comparable { simd_reduce_min(x) }
/// The greatest of a vector's lanes; the same as `simd_reduce_max(_:)`.
///
/// - Parameter x: The vector.
/// - Returns: The largest lane of `x`.
public func reduce_max<V: SIMD>(_ x: V) -> V.Scalar where V.Scalar: Comparable { simd_reduce_max(x) }
