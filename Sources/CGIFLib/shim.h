#ifndef CGIFLIB_SHIM_H
#define CGIFLIB_SHIM_H
#include <gif_lib.h>

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#include <stdint.h>

/// Whether this processor and its operating system run AVX-512 F, BW and
/// VBMI (byte permutes across a whole 64-byte register): the compositor's
/// vector path. Zen 4 and Intel from Ice Lake on have them.
static inline int gif_cpu_has_avx512_vbmi(void) {
    unsigned a, b, c, d;
    // OSXSAVE: the OS says which register states it saves.
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 27))) return 0;
    unsigned low, high;
    __asm__ volatile("xgetbv" : "=a"(low), "=d"(high) : "c"(0));
    // SSE, AVX and the three AVX-512 states (opmask, upper ZMM, ZMM 16-31).
    if ((low & 0xE6) != 0xE6) return 0;
    if (__get_cpuid_max(0, 0) < 7) return 0;
    __cpuid_count(7, 0, a, b, c, d);
    return (b & (1u << 16)) && (b & (1u << 30)) && (c & (1u << 1));
}

/// Writes `count` pixels for the palette indices at `from` to the 32-bit
/// pixels at `out`, skipping the `transparent` index (none when negative),
/// 64 at a time with AVX-512 VBMI. Call only when
/// `gif_cpu_has_avx512_vbmi()` says so.
///
/// `planes` is the colour table as four planes of 256 bytes: byte `k` of
/// entry `i` at `planes[256 * k + i]`. Each plane is looked up for 64 indices
/// at once (two two-register byte permutes, one per half of the table, and
/// a blend on the index's top bit), then the four planes are interleaved into
/// pixels. The interleave works within 16-byte lanes, so the indices are
/// first permuted so that the pixels come out in order. The last group is
/// read and written under a mask: no byte past `count` is touched.
__attribute__((target("avx512f,avx512bw,avx512vbmi")))
static inline void gif_draw_row_avx512_vbmi(const uint8_t *from, long count, uint32_t *out, const uint8_t *planes,
                                            int transparent) {
    static const uint8_t order[64] = {
        0, 1, 2,  3,  16, 17, 18, 19, 32, 33, 34, 35, 48, 49, 50, 51, 4,  5,  6,  7,  20, 21,
        22, 23, 36, 37, 38, 39, 52, 53, 54, 55, 8,  9,  10, 11, 24, 25, 26, 27, 40, 41, 42, 43,
        56, 57, 58, 59, 12, 13, 14, 15, 28, 29, 30, 31, 44, 45, 46, 47, 60, 61, 62, 63,
    };
    if (count <= 0) return;
    const __m512i permutation = _mm512_loadu_si512(order);
    // The table's four planes, each in four registers of 64 entries.
#define GIF_PLANE(k) \
    const __m512i p##k##a = _mm512_loadu_si512(planes + 256 * k), p##k##b = _mm512_loadu_si512(planes + 256 * k + 64), \
                  p##k##c = _mm512_loadu_si512(planes + 256 * k + 128), p##k##d = _mm512_loadu_si512(planes + 256 * k + 192);
    GIF_PLANE(0) GIF_PLANE(1) GIF_PLANE(2) GIF_PLANE(3)
#undef GIF_PLANE
    const __m512i skipped = _mm512_set1_epi8((char)transparent);
    for (long i = 0; i < count; i += 64) {
        long left = count - i;
        __mmask64 live = left >= 64 ? ~(__mmask64)0 : (((__mmask64)1 << left) - 1);
        __m512i indices = _mm512_maskz_loadu_epi8(live, from + i);
        __mmask64 keep = live;
        if (transparent >= 0) keep &= _mm512_cmpneq_epi8_mask(indices, skipped);
        __m512i permuted = _mm512_permutexvar_epi8(permutation, indices);
        __mmask64 upper = _mm512_movepi8_mask(permuted);
#define GIF_LOOKUP(k) \
    _mm512_mask_blend_epi8(upper, _mm512_permutex2var_epi8(p##k##a, permuted, p##k##b), \
                           _mm512_permutex2var_epi8(p##k##c, permuted, p##k##d))
        __m512i b0 = GIF_LOOKUP(0), b1 = GIF_LOOKUP(1), b2 = GIF_LOOKUP(2), b3 = GIF_LOOKUP(3);
#undef GIF_LOOKUP
        __m512i b01Low = _mm512_unpacklo_epi8(b0, b1), b01High = _mm512_unpackhi_epi8(b0, b1);
        __m512i b23Low = _mm512_unpacklo_epi8(b2, b3), b23High = _mm512_unpackhi_epi8(b2, b3);
        __m512i q0 = _mm512_unpacklo_epi16(b01Low, b23Low), q1 = _mm512_unpackhi_epi16(b01Low, b23Low);
        __m512i q2 = _mm512_unpacklo_epi16(b01High, b23High), q3 = _mm512_unpackhi_epi16(b01High, b23High);
        uint32_t *o = out + i;
        if (keep == ~(__mmask64)0) {
            _mm512_storeu_si512(o, q0);
            _mm512_storeu_si512(o + 16, q1);
            _mm512_storeu_si512(o + 32, q2);
            _mm512_storeu_si512(o + 48, q3);
        } else {
            _mm512_mask_storeu_epi32(o, (__mmask16)keep, q0);
            _mm512_mask_storeu_epi32(o + 16, (__mmask16)(keep >> 16), q1);
            _mm512_mask_storeu_epi32(o + 32, (__mmask16)(keep >> 32), q2);
            _mm512_mask_storeu_epi32(o + 48, (__mmask16)(keep >> 48), q3);
        }
    }
}
#endif

#endif
