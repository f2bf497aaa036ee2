#pragma once
// Four floats with the handful of operations the wide-tree traversals need:
// SSE2 on x86-64 (the baseline, no -march flag needed), plain loops elsewhere.
// min/max follow the SSE rule: when either operand is NaN the SECOND one is
// returned, which the traversals rely on to ignore NaN lanes.

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
#undef DRAPE_F4_OP
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

#endif

}  // namespace drape::simd
