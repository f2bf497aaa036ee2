#pragma once
// Four floats with the handful of operations the wide-tree traversals need:
// SSE2 on x86-64 (the baseline, no -march flag needed), plain loops elsewhere.
// min/max follow the SSE rule: when either operand is NaN the SECOND one is
// returned, which the traversals rely on to ignore NaN lanes.

#include <cmath>
#include <cstdint>

#if defined(__SSE2__) || defined(_M_X64)
#include <emmintrin.h>
#define DRAPE_BVH_SSE2 1
#endif

namespace drape::simd {

#ifdef DRAPE_BVH_SSE2

struct F4 {
  __m128 v;
};
inline F4 load(const float* p) { return {_mm_load_ps(p)}; }  // 16-byte aligned
inline F4 splat(float x) { return {_mm_set1_ps(x)}; }
inline F4 operator+(F4 a, F4 b) { return {_mm_add_ps(a.v, b.v)}; }
inline F4 operator-(F4 a, F4 b) { return {_mm_sub_ps(a.v, b.v)}; }
inline F4 operator*(F4 a, F4 b) { return {_mm_mul_ps(a.v, b.v)}; }
inline F4 max(F4 a, F4 b) { return {_mm_max_ps(a.v, b.v)}; }
inline F4 min(F4 a, F4 b) { return {_mm_min_ps(a.v, b.v)}; }
inline F4 abs(F4 a) { return {_mm_and_ps(a.v, _mm_castsi128_ps(_mm_set1_epi32(0x7fffffff)))}; }
/// Bit i set when a[i] <= b[i] (false for NaN).
inline int le_mask(F4 a, F4 b) { return _mm_movemask_ps(_mm_cmple_ps(a.v, b.v)); }
/// Bit i set when a[i] < b[i] (false for NaN).
inline int lt_mask(F4 a, F4 b) { return _mm_movemask_ps(_mm_cmplt_ps(a.v, b.v)); }
inline void store(float* p, F4 a) { _mm_store_ps(p, a.v); }
inline F4 operator/(F4 a, F4 b) { return {_mm_div_ps(a.v, b.v)}; }
inline F4 sqrt(F4 a) { return {_mm_sqrt_ps(a.v)}; }

/// Lane masks (all bits set where true) of comparisons; false for NaN.
#if defined(__GNUC__)
// GCC/Clang vector extensions rather than intrinsics, so that a select of a
// comparison becomes one blend instruction where the function that inlines
// it is compiled for SSE4.1 or later (the AVX2 copy of the traversals), and
// compare + and/andnot/or with SSE2: the same lanes either way.
typedef float V4f __attribute__((vector_size(16)));
typedef int V4i __attribute__((vector_size(16)));
struct Mask {
  V4i v;
};
inline Mask operator&(Mask a, Mask b) { return {a.v & b.v}; }
inline Mask le(F4 a, F4 b) { return {reinterpret_cast<V4f&>(a.v) <= reinterpret_cast<V4f&>(b.v)}; }
inline Mask ge(F4 a, F4 b) { return {reinterpret_cast<V4f&>(a.v) >= reinterpret_cast<V4f&>(b.v)}; }
inline Mask gt(F4 a, F4 b) { return {reinterpret_cast<V4f&>(a.v) > reinterpret_cast<V4f&>(b.v)}; }
/// a where m is set, else b.
inline F4 select(Mask m, F4 a, F4 b) {
  const V4f r = m.v ? reinterpret_cast<V4f&>(a.v) : reinterpret_cast<V4f&>(b.v);
  return {reinterpret_cast<const __m128&>(r)};
}

// Eight floats as a GCC vector, for code that only runs inlined into a
// function compiled for AVX (the AVX2 copy of the closest-point traversal):
// there every operation is one 256-bit instruction; only +, -, *, /,
// comparisons and selects, which need no target attribute (sqrt goes
// through two SSE halves). max/min keep the SSE rule for NaN.
typedef float V8f __attribute__((vector_size(32)));
typedef int V8i __attribute__((vector_size(32)));
struct F8 {
  V8f v;
};
struct Mask8 {
  V8i v;
};
/// Lanes 0-3 from `lo`, 4-7 from `hi` (both 16-byte aligned).
inline F8 load2(const float* lo, const float* hi) {
  const V4f a = *reinterpret_cast<const V4f*>(lo), b = *reinterpret_cast<const V4f*>(hi);
  return {__builtin_shufflevector(a, b, 0, 1, 2, 3, 4, 5, 6, 7)};
}
inline F8 splat8(float x) { return {V8f{x, x, x, x, x, x, x, x}}; }
inline F8 operator+(F8 a, F8 b) { return {a.v + b.v}; }
inline F8 operator-(F8 a, F8 b) { return {a.v - b.v}; }
inline F8 operator*(F8 a, F8 b) { return {a.v * b.v}; }
inline F8 operator/(F8 a, F8 b) { return {a.v / b.v}; }
inline F8 max(F8 a, F8 b) { return {a.v > b.v ? a.v : b.v}; }
inline F8 min(F8 a, F8 b) { return {a.v < b.v ? a.v : b.v}; }
inline F8 sqrt(F8 a) {
  const V4f lo = __builtin_shufflevector(a.v, a.v, 0, 1, 2, 3),
            hi = __builtin_shufflevector(a.v, a.v, 4, 5, 6, 7);
  const __m128 l = _mm_sqrt_ps(reinterpret_cast<const __m128&>(lo)),
               h = _mm_sqrt_ps(reinterpret_cast<const __m128&>(hi));
  return {__builtin_shufflevector(reinterpret_cast<const V4f&>(l), reinterpret_cast<const V4f&>(h), 0, 1, 2,
                                  3, 4, 5, 6, 7)};
}
inline Mask8 operator&(Mask8 a, Mask8 b) { return {a.v & b.v}; }
inline Mask8 le(F8 a, F8 b) { return {a.v <= b.v}; }
inline Mask8 ge(F8 a, F8 b) { return {a.v >= b.v}; }
inline Mask8 gt(F8 a, F8 b) { return {a.v > b.v}; }
inline F8 select(Mask8 m, F8 a, F8 b) { return {m.v ? a.v : b.v}; }
inline void store(float* p, F8 a) { *reinterpret_cast<V8f*>(p) = a.v; }  // 32-byte aligned
#define DRAPE_BVH_F8 1
#else
struct Mask {
  __m128 v;
};
inline Mask operator&(Mask a, Mask b) { return {_mm_and_ps(a.v, b.v)}; }
inline Mask le(F4 a, F4 b) { return {_mm_cmple_ps(a.v, b.v)}; }
inline Mask ge(F4 a, F4 b) { return {_mm_cmpge_ps(a.v, b.v)}; }
inline Mask gt(F4 a, F4 b) { return {_mm_cmpgt_ps(a.v, b.v)}; }
/// a where m is set, else b.
inline F4 select(Mask m, F4 a, F4 b) { return {_mm_or_ps(_mm_and_ps(m.v, a.v), _mm_andnot_ps(m.v, b.v))}; }
#endif

#else

struct F4 {
  float v[4];
};
inline F4 load(const float* p) { return {{p[0], p[1], p[2], p[3]}}; }
inline F4 splat(float x) { return {{x, x, x, x}}; }
#define DRAPE_F4_OP(expr)                    \
  F4 r;                                      \
  for (int i = 0; i < 4; ++i) r.v[i] = expr; \
  return r
inline F4 operator+(F4 a, F4 b) { DRAPE_F4_OP(a.v[i] + b.v[i]); }
inline F4 operator-(F4 a, F4 b) { DRAPE_F4_OP(a.v[i] - b.v[i]); }
inline F4 operator*(F4 a, F4 b) { DRAPE_F4_OP(a.v[i] * b.v[i]); }
inline F4 max(F4 a, F4 b) { DRAPE_F4_OP(a.v[i] > b.v[i] ? a.v[i] : b.v[i]); }
inline F4 min(F4 a, F4 b) { DRAPE_F4_OP(a.v[i] < b.v[i] ? a.v[i] : b.v[i]); }
inline F4 abs(F4 a) { DRAPE_F4_OP(a.v[i] < 0 ? -a.v[i] : a.v[i]); }
inline int le_mask(F4 a, F4 b) {
  int m = 0;
  for (int i = 0; i < 4; ++i) m |= (a.v[i] <= b.v[i]) << i;
  return m;
}
inline int lt_mask(F4 a, F4 b) {
  int m = 0;
  for (int i = 0; i < 4; ++i) m |= (a.v[i] < b.v[i]) << i;
  return m;
}
inline void store(float* p, F4 a) {
  for (int i = 0; i < 4; ++i) p[i] = a.v[i];
}
inline F4 operator/(F4 a, F4 b) { DRAPE_F4_OP(a.v[i] / b.v[i]); }
inline F4 sqrt(F4 a) { DRAPE_F4_OP(std::sqrt(a.v[i])); }

struct Mask {
  bool v[4];
};
#define DRAPE_MASK_OP(expr)                  \
  Mask r;                                    \
  for (int i = 0; i < 4; ++i) r.v[i] = expr; \
  return r
inline Mask operator&(Mask a, Mask b) { DRAPE_MASK_OP(a.v[i] && b.v[i]); }
inline Mask le(F4 a, F4 b) { DRAPE_MASK_OP(a.v[i] <= b.v[i]); }
inline Mask ge(F4 a, F4 b) { DRAPE_MASK_OP(a.v[i] >= b.v[i]); }
inline Mask gt(F4 a, F4 b) { DRAPE_MASK_OP(a.v[i] > b.v[i]); }
#undef DRAPE_MASK_OP
inline F4 select(Mask m, F4 a, F4 b) { DRAPE_F4_OP(m.v[i] ? a.v[i] : b.v[i]); }
#undef DRAPE_F4_OP

#endif

}  // namespace drape::simd
