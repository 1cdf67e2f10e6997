import Testing
import simd

/// The simd module's names answer as Apple's: the C names and the overlay's agree, and the
/// figures are those of the vectors' geometry.
struct SimdModuleTests {
  @Test func vectorTypesAreTheStandardLibrarysVectors() {
    let translation: simd_double3 = simd_make_double3(3, 4, 12)
    let same: SIMD3<Double> = translation
    #expect(same == SIMD3(3, 4, 12))
    let point: vector_float2 = simd_float2(1, 2)
    #expect(point.y == 2)
    #expect(simd_int4(1, 2, 3, 4).wrappedSum() == 10)
  }

  @Test func lengthsDistancesAndProducts() {
    let v = simd_double3(3, 4, 12)
    #expect(simd_length(v) == 13)
    #expect(length(v) == 13)
    #expect(simd_length_squared(v) == 169)
    #expect(simd_distance(v, simd_double3(3, 4, 0)) == 12)
    #expect(distance_squared(simd_double2(0, 0), simd_double2(3, 4)) == 25)
    #expect(simd_dot(simd_double3(1, 2, 3), simd_double3(4, 5, 6)) == 32)
    #expect(simd_cross(simd_double3(1, 0, 0), simd_double3(0, 1, 0)) == simd_double3(0, 0, 1))
    #expect(cross(simd_float3(0, 1, 0), simd_float3(1, 0, 0)) == simd_float3(0, 0, -1))
    let unit = normalize(simd_double2(3, 4))
    #expect(abs(simd_length(unit) - 1) < 1e-15)
    #expect(unit == simd_double2(0.6, 0.8))
    #expect(simd_normalize(simd_double2(0, 0)).x.isNaN)
  }

  @Test func lanesMixedClampedAndReduced() {
    let a = simd_double2(0, 10), b = simd_double2(10, 20)
    #expect(mix(a, b, t: 0.5) == simd_double2(5, 15))
    #expect(simd_mix(a, b, simd_double2(0, 1)) == simd_double2(0, 20))
    #expect(clamp(simd_double3(-1, 0.5, 2), min: 0, max: 1) == simd_double3(0, 0.5, 1))
    #expect(simd_abs(simd_double3(-1, 2, -3)) == simd_double3(1, 2, 3))
    #expect(simd_min(simd_double2(1, 5), simd_double2(3, 2)) == simd_double2(1, 2))
    #expect(simd_max(simd_double2(1, 5), simd_double2(3, 2)) == simd_double2(3, 5))
    #expect(reduce_add(simd_double4(1, 2, 3, 4)) == 10)
    #expect(reduce_min(simd_double3(4, -2, 9)) == -2)
    #expect(reduce_max(simd_double3(4, -2, 9)) == 9)
    #expect(project(simd_double2(2, 3), simd_double2(1, 0)) == simd_double2(2, 0))
    #expect(reflect(simd_double2(1, -1), n: simd_double2(0, 1)) == simd_double2(1, 1))
  }
}
