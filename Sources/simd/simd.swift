// Apple's simd module, as location code uses it beside CoreLocation: the C names of the vector
// types (`simd_double3` for a translation in metres, `simd_float2` for a screen point) over the
// standard library's SIMD vectors, and the geometric functions on them, under both of Apple's
// names (`simd_length(_:)` from the C header, `length(_:)` from the Swift overlay). Matrices and
// quaternions are not declared.

// MARK: Vector types

public typealias simd_float2 = SIMD2<Float>
public typealias simd_float3 = SIMD3<Float>
public typealias simd_float4 = SIMD4<Float>
public typealias simd_float8 = SIMD8<Float>
public typealias simd_float16 = SIMD16<Float>
public typealias simd_double2 = SIMD2<Double>
public typealias simd_double3 = SIMD3<Double>
public typealias simd_double4 = SIMD4<Double>
public typealias simd_double8 = SIMD8<Double>
public typealias simd_int2 = SIMD2<Int32>
public typealias simd_int3 = SIMD3<Int32>
public typealias simd_int4 = SIMD4<Int32>
public typealias simd_uint2 = SIMD2<UInt32>
public typealias simd_uint3 = SIMD3<UInt32>
public typealias simd_uint4 = SIMD4<UInt32>
public typealias simd_long2 = SIMD2<Int>
public typealias simd_long3 = SIMD3<Int>
public typealias simd_long4 = SIMD4<Int>
public typealias simd_bool = Bool

public typealias vector_float2 = simd_float2
public typealias vector_float3 = simd_float3
public typealias vector_float4 = simd_float4
public typealias vector_double2 = simd_double2
public typealias vector_double3 = simd_double3
public typealias vector_double4 = simd_double4
public typealias vector_int2 = simd_int2
public typealias vector_int3 = simd_int3
public typealias vector_int4 = simd_int4
public typealias vector_uint2 = simd_uint2
public typealias vector_uint3 = simd_uint3
public typealias vector_uint4 = simd_uint4

// MARK: Makers

public func simd_make_float2(_ x: Float, _ y: Float) -> simd_float2 { simd_float2(x, y) }
public func simd_make_float3(_ x: Float, _ y: Float, _ z: Float) -> simd_float3 { simd_float3(x, y, z) }
public func simd_make_float4(_ x: Float, _ y: Float, _ z: Float, _ w: Float) -> simd_float4 { simd_float4(x, y, z, w) }
public func simd_make_double2(_ x: Double, _ y: Double) -> simd_double2 { simd_double2(x, y) }
public func simd_make_double3(_ x: Double, _ y: Double, _ z: Double) -> simd_double3 { simd_double3(x, y, z) }
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

public func dot<V: SIMD>(_ x: V, _ y: V) -> V.Scalar where V.Scalar: FloatingPoint { simd_dot(x, y) }
public func length<V: SIMD>(_ x: V) -> V.Scalar where V.Scalar: FloatingPoint { simd_length(x) }
public func length_squared<V: SIMD>(_ x: V) -> V.Scalar where V.Scalar: FloatingPoint { simd_length_squared(x) }
public func distance<V: SIMD>(_ x: V, _ y: V) -> V.Scalar where V.Scalar: FloatingPoint { simd_distance(x, y) }
public func distance_squared<V: SIMD>(_ x: V, _ y: V) -> V.Scalar where V.Scalar: FloatingPoint { simd_distance_squared(x, y) }
public func normalize<V: SIMD>(_ x: V) -> V where V.Scalar: FloatingPoint { simd_normalize(x) }
public func cross<Scalar: SIMDScalar & FloatingPoint>(_ x: SIMD3<Scalar>, _ y: SIMD3<Scalar>) -> SIMD3<Scalar> { simd_cross(x, y) }
public func mix<V: SIMD>(_ x: V, _ y: V, t: V) -> V where V.Scalar: FloatingPoint { simd_mix(x, y, t) }
public func mix<V: SIMD>(_ x: V, _ y: V, t: V.Scalar) -> V where V.Scalar: FloatingPoint { simd_mix(x, y, V(repeating: t)) }
public func clamp<V: SIMD>(_ x: V, min: V, max: V) -> V where V.Scalar: Comparable { simd_clamp(x, min, max) }
public func clamp<V: SIMD>(_ x: V, min: V.Scalar, max: V.Scalar) -> V where V.Scalar: Comparable {
  simd_clamp(x, V(repeating: min), V(repeating: max))
}
public func project<V: SIMD>(_ x: V, _ y: V) -> V where V.Scalar: FloatingPoint { simd_project(x, y) }
public func reflect<V: SIMD>(_ x: V, n: V) -> V where V.Scalar: FloatingPoint { simd_reflect(x, n) }
public func reduce_add<V: SIMD>(_ x: V) -> V.Scalar where V.Scalar: FloatingPoint { simd_reduce_add(x) }
public func reduce_min<V: SIMD>(_ x: V) -> V.Scalar where V.Scalar: Comparable { simd_reduce_min(x) }
public func reduce_max<V: SIMD>(_ x: V) -> V.Scalar where V.Scalar: Comparable { simd_reduce_max(x) }
