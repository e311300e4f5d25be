/// The box filter's sums down: source rows added, weighted, into 16- or
/// 32-bit lanes a source column, and the paired taps that sum them across
/// into output pixels. Included by box_filter.c alone, after
/// box_filter_means.h.
#ifndef BOX_FILTER_SUMS_H
#define BOX_FILTER_SUMS_H
#include "box_filter_means.h"
#include <stdint.h>
#include <string.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

/// Source columns one pass sums down: its sums live on the stack (16 KiB
/// in 32-bit lanes), whatever the source width.
enum { span_limit = 1024 };

/// Pairs of taps at most that an output column reads without a loop: up
/// to six source columns from one start.
enum { most_pairs = 3 };

typedef uint8_t bytes_16 __attribute__((vector_size(16)));
typedef uint16_t shorts_16 __attribute__((vector_size(32)));
typedef uint8_t bytes_8 __attribute__((vector_size(8)));
typedef int32_t lanes_8 __attribute__((vector_size(32)));
typedef uint16_t shorts_4 __attribute__((vector_size(8)));

/// Adds `weight` times each of `count` bytes at `row` into `sums` (16-bit
/// lanes, 16 at a time), or sets them when `first`.
static inline void add_row_16(uint16_t *sums, const uint8_t *row, intptr_t count, uint16_t weight, int first) {
    intptr_t i = 0;
    for (; i + 16 <= count; i += 16) {
        bytes_16 bytes;
        __builtin_memcpy(&bytes, row + i, 16);
        shorts_16 product = __builtin_convertvector(bytes, shorts_16) * weight;
        if (!first) {
            shorts_16 sum;
            __builtin_memcpy(&sum, sums + i, 32);
            product += sum;
        }
        __builtin_memcpy(sums + i, &product, 32);
    }
    for (; i < count; i++) sums[i] = (uint16_t)((first ? 0 : sums[i]) + row[i] * weight);
}

/// Adds `weight_a` times each of `count` bytes at `a` and `weight_b`
/// times each at `b` into `sums` as ``add_row_16`` does each: one pass over
/// the sums for two source rows.
static inline void add_rows_16(
    uint16_t *sums, const uint8_t *a, const uint8_t *b, intptr_t count, uint16_t weight_a, uint16_t weight_b,
    int first) {
    intptr_t i = 0;
    for (; i + 16 <= count; i += 16) {
        bytes_16 x, y;
        __builtin_memcpy(&x, a + i, 16);
        __builtin_memcpy(&y, b + i, 16);
        shorts_16 product = __builtin_convertvector(x, shorts_16) * weight_a + __builtin_convertvector(y, shorts_16) * weight_b;
        if (!first) {
            shorts_16 sum;
            __builtin_memcpy(&sum, sums + i, 32);
            product += sum;
        }
        __builtin_memcpy(sums + i, &product, 32);
    }
    for (; i < count; i++) sums[i] = (uint16_t)((first ? 0 : sums[i]) + a[i] * weight_a + b[i] * weight_b);
}

/// Adds `weight` times each of `count` pixels at `row` into `sums`
/// (32-bit lanes, two pixels at a time), colour also times alpha when
/// `straight` (a constant in each caller), or sets them when `first`.
static inline void add_row_32(
    int32_t *sums, const uint8_t *row, intptr_t pixels, int32_t weight, const int straight, int first) {
    const lanes_8 ones = {1, 1, 1, 1, 1, 1, 1, 1};
    intptr_t i = 0;
    for (; i + 2 <= pixels; i += 2) {
        bytes_8 bytes;
        __builtin_memcpy(&bytes, row + i * 4, 8);
        const lanes_8 value = __builtin_convertvector(bytes, lanes_8);
        lanes_8 product = value * weight;
        if (straight) product *= __builtin_shufflevector(value, ones, 3, 3, 3, 11, 7, 7, 7, 15);
        if (!first) {
            lanes_8 sum;
            __builtin_memcpy(&sum, sums + i * 4, 32);
            product += sum;
        }
        __builtin_memcpy(sums + i * 4, &product, 32);
    }
    for (; i < pixels; i++) {
        const int32_t alpha = straight ? row[i * 4 + 3] : 1;
        for (int c = 0; c < 4; c++) {
            const int32_t value = (straight && c == 3 ? 1 : row[i * 4 + c]) * alpha * weight;
            sums[i * 4 + c] = (first ? 0 : sums[i * 4 + c]) + value;
        }
    }
}

#if defined(__x86_64__)
/// Each output column's taps, for paired sums: where its first tap's sums
/// start (in 16-bit sums, from the span's first column), and its weights
/// packed two to a 32-bit lane, `weights[k][i]` for output column `i`'s
/// taps `2k` and `2k + 1` (0 past its last tap).
typedef struct {
    int32_t at[span_limit];
    int32_t weights[most_pairs][span_limit];
} taps;

/// One output pixel's four channel sums from `pairs` (1 to 3) pairs of
/// neighbouring source columns' 16-bit sums down, for output column `i`:
/// each pair's two columns interleaved by channel and multiplied by the two
/// weights packed in one lane, added in one instruction (x86-64's
/// multiply-add).
static inline lanes paired_sums(const uint16_t *sums, const taps *t, intptr_t i, intptr_t pairs) {
    __m128i total = _mm_setzero_si128();
    for (intptr_t k = 0; k < pairs; k++) {
        const __m128i two = _mm_loadu_si128((const __m128i *)(sums + t->at[i] + 8 * k));
        total = _mm_add_epi32(
            total, _mm_madd_epi16(_mm_unpacklo_epi16(two, _mm_srli_si128(two, 8)), _mm_set1_epi32(t->weights[k][i])));
    }
    lanes h;
    memcpy(&h, &total, 16);
    return h;
}
#endif

#if WITH_AVX2_COPY
/// Output pixels `start ..< end` of one output row from paired taps, two a
/// step in one 256-bit register each (``paired_sums`` for both, then
/// ``store_area_means`` for both), writing pixel `i` at `output + i * 4`;
/// returns the first it did not write (the last one of an odd count is
/// left to the caller).
__attribute__((target("avx2"))) static intptr_t paired_means_avx2(
    const uint16_t *sums, const taps *t, intptr_t pairs, intptr_t start, intptr_t end, const divisor *d,
    uint8_t *output) {
    // Within each 128-bit half: two columns' four channels, to the
    // channels' pairs of columns.
    const __m256i by_channel = _mm256_setr_epi8(
        0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15, 0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15);
    // Two output columns' weights, each to its half.
    const __m256i spread = _mm256_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1);
    const __m256i half = _mm256_set1_epi32(d->half[0]);
    const __m256i multiplier = _mm256_set1_epi64x((long long)(d->multiplier[0] & 0xFFFFFFFF));
    const __m128i shift = _mm_cvtsi32_si128((int)d->shift[0]);
    // Each half's quotients, one a 32-bit lane, to its first four bytes;
    // then the second half's four beside the first's.
    const __m256i low_bytes = _mm256_setr_epi8(
        0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1,
        -1, -1, -1);
    const __m256i together = _mm256_setr_epi32(0, 4, 0, 0, 0, 0, 0, 0);
    intptr_t i = start;
    for (; i + 2 <= end; i += 2) {
        __m256i total = _mm256_setzero_si256();
        for (intptr_t k = 0; k < pairs; k++) {
            const __m256i two = _mm256_inserti128_si256(
                _mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(sums + t->at[i] + 8 * k))),
                _mm_loadu_si128((const __m128i *)(sums + t->at[i + 1] + 8 * k)), 1);
            long long packed;
            memcpy(&packed, &t->weights[k][i], 8);
            const __m256i weights = _mm256_permutevar8x32_epi32(_mm256_set1_epi64x(packed), spread);
            total = _mm256_add_epi32(total, _mm256_madd_epi16(_mm256_shuffle_epi8(two, by_channel), weights));
        }
        // store_area_means, eight lanes at once.
        const __m256i numerator = _mm256_add_epi32(total, half);
        const __m256i even = _mm256_srl_epi64(_mm256_mul_epu32(numerator, multiplier), shift);
        const __m256i odd = _mm256_srl_epi64(_mm256_mul_epu32(_mm256_srli_epi64(numerator, 32), multiplier), shift);
        const __m256i quotients = _mm256_or_si256(even, _mm256_slli_epi64(odd, 32));
        const __m256i bytes = _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(quotients, low_bytes), together);
        _mm_storel_epi64((__m128i *)(output + i * 4), _mm256_castsi256_si128(bytes));
    }
    return i;
}
#endif

/// Source columns `*low ... *high` that output columns `cx ..< cx + count`
/// read; `*low > *high` when they read none.
static inline void column_span(
    const intptr_t *column_starts, const intptr_t *column_indices, intptr_t cx, intptr_t count,
    intptr_t *low, intptr_t *high) {
    *low = INTPTR_MAX;
    *high = -1;
    for (intptr_t k = column_starts[cx]; k < column_starts[cx + count]; k++) {
        if (column_indices[k] < *low) *low = column_indices[k];
        if (column_indices[k] > *high) *high = column_indices[k];
    }
}

#endif
