#include "pixel_kernels.h"
#include "box_filter_means.h"
#include "box_filter_sums.h"
#include <string.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

/// Output columns summed at once: the sums live on the stack (16 KiB),
/// whatever the output width.
enum { chunk = 256 };

/// round(n / d) for 0 <= n + d / 2 < 2^63, d > 0, when the quotient is at most
/// 255: estimated with `inverse` (1.0 / d), whose error is far below one at
/// that size, then corrected by one step to the exact integer quotient.
static inline uint8_t rounded_quotient(int64_t n, int64_t d, double inverse) {
    int64_t numerator = n + d / 2;
    int64_t q = (int64_t)((double)numerator * inverse);
    // Without branches: which way the estimate is off is data, and a
    // mispredicted branch costs more than both tests.
    q -= q * d > numerator;
    q += (q + 1) * d <= numerator;
    return (uint8_t)q;
}

/// One source row's horizontal sums for output columns `cx ..< cx + count`:
/// each channel times its column weight, colour also times alpha when
/// `straight`.
static inline void row_sums(
    const uint8_t *row, const intptr_t *column_starts, const intptr_t *column_indices,
    const int64_t *column_weights, int straight, intptr_t cx, intptr_t count, int64_t (*sums)[4]) {
    for (intptr_t i = 0; i < count; i++) {
        const intptr_t first = column_starts[cx + i], last = column_starts[cx + i + 1];
        int64_t h0 = 0, h1 = 0, h2 = 0, h3 = 0;
        for (intptr_t c = first; c < last; c++) {
            const uint8_t *pixel = row + column_indices[c] * 4;
            const int64_t w = column_weights[c], alpha = pixel[3];
            const int64_t a = straight ? w * alpha : w;
            h0 += pixel[0] * a;
            h1 += pixel[1] * a;
            h2 += pixel[2] * a;
            h3 += alpha * w;
        }
        sums[i][0] = h0;
        sums[i][1] = h1;
        sums[i][2] = h2;
        sums[i][3] = h3;
    }
}


/// `pixel_box_filter` with every sum in 32-bit lanes, summing down first:
/// each output row adds its source rows, weighted, across the source
/// columns a chunk of output columns reads (in 16-bit lanes for
/// premultiplied pixels when `short_sums`: no column's sum can pass 2^16),
/// then sums those across by the column weights. Down, every byte is
/// read in order, 16 at a time; across, the work is per output pixel.
/// Returns 0, writing nothing, when one output column reads more than
/// `span_limit` source columns.
#define BOX_FILTER_32_PARAMETERS \
    const uint8_t *source, intptr_t source_width, \
    const intptr_t *column_starts, const intptr_t *column_indices, const int64_t *column_weights, \
    const intptr_t *row_starts, const intptr_t *row_indices, const int64_t *row_weights, \
    int64_t area, const int premultiplied, const int short_sums, const int paired, \
    intptr_t x0, intptr_t y0, intptr_t width, intptr_t height, const intptr_t *row_columns, \
    uint8_t *target, intptr_t bytes_per_row
#define BOX_FILTER_32_ARGUMENTS \
    source, source_width, column_starts, column_indices, column_weights, row_starts, row_indices, row_weights, \
    area, premultiplied, short_sums, paired, x0, y0, width, height, row_columns, target, bytes_per_row
static inline __attribute__((always_inline)) int box_filter_32_body(BOX_FILTER_32_PARAMETERS, const int wide) {
    // Either kind of sum, 4 per source column, and the columns past the
    // last that pairs of taps may read (by weight 0).
    union {
        uint16_t shorts[(span_limit + 2 * most_pairs) * 4];
        int32_t ints[span_limit * 4];
    } down;
#if defined(__x86_64__)
    // For paired taps, each output column of a pass as up to six taps
    // from one start, weights packed in pairs (0 past its last tap): read
    // without a loop whose trip count changes from column to column (2, 3,
    // 2, 2, 3 … for 245 → 200), which costs a mispredicted branch every
    // few pixels.
    taps paired_taps;
#endif
    const double area_inverse = 1.0 / (double)area;
    const int32_t whole = (int32_t)area;
    const divisor by_area = make_divisor(whole);
    for (intptr_t cx = x0, count = 0; cx < x0 + width; cx += count) {
        // As many output columns as read at most span_limit source ones.
        intptr_t low, high;
        column_span(column_starts, column_indices, cx, 1, &low, &high);
        if (high >= low && high - low >= span_limit) return 0;
        count = 1;
        while (cx + count < x0 + width && count < span_limit) {
            intptr_t next_low, next_high;
            column_span(column_starts, column_indices, cx + count, 1, &next_low, &next_high);
            if (next_high >= next_low) {
                const intptr_t l = next_low < low ? next_low : low, h = next_high > high ? next_high : high;
                if (h - l >= span_limit) break;
                low = l;
                high = h;
            }
            count++;
        }
        const intptr_t span = high >= low ? high - low + 1 : 0;
        // The pass's sums zeroed (and the columns past them that pairs of
        // taps read by weight 0), so that none is read unset.
        memset(&down, 0, short_sums ? (size_t)(span + 2 * most_pairs) * 4 * sizeof(uint16_t)
                                    : (size_t)span * 4 * sizeof(int32_t));
#if defined(__x86_64__)
        // 0: taps summed in a loop; else the pairs every column reads.
        intptr_t fixed_pairs = 0;
        if (paired) {
            intptr_t most = 0;
            for (intptr_t i = 0; i < count; i++) {
                const intptr_t taps = column_starts[cx + i + 1] - column_starts[cx + i];
                if (taps > most) most = taps;
            }
            if (most > 0 && most <= 2 * most_pairs) {
                fixed_pairs = (most + 1) / 2;
                for (intptr_t i = 0; i < count; i++) {
                    const intptr_t first = column_starts[cx + i], last = column_starts[cx + i + 1];
                    uint32_t w[2 * most_pairs] = {0};
                    for (intptr_t k = first; k < last; k++) w[k - first] = (uint32_t)column_weights[k];
                    paired_taps.at[i] = last > first ? (int32_t)((column_indices[first] - low) * 4) : 0;
                    for (intptr_t k = 0; k < most_pairs; k++) {
                        paired_taps.weights[k][i] = (int32_t)(w[2 * k + 1] << 16 | w[2 * k]);
                    }
                }
            }
        }
#endif
        for (intptr_t oy = y0; oy < y0 + height; oy++) {
            // The chunk's output columns this row writes: all, or those of
            // its range.
            intptr_t begin = 0, end = count;
            if (row_columns) {
                const intptr_t b = row_columns[2 * (oy - y0)] - cx, e = row_columns[2 * (oy - y0) + 1] - cx;
                begin = b > 0 ? b : 0;
                end = e < count ? e : count;
                if (begin >= end) continue;
            }
            // The source columns those read, from `from` on: the span, or
            // for a range from its first column's first tap to its last
            // column's last (each output column's taps start and end at or
            // after the previous one's).
            intptr_t from = low, columns = span;
            if (row_columns && column_starts[cx + begin] < column_starts[cx + end]) {
                from = column_indices[column_starts[cx + begin]];
                columns = column_indices[column_starts[cx + end] - 1] - from + 1;
            }
            uint16_t *short_sums_from = down.shorts + (from - low) * 4;
            int32_t *int_sums_from = down.ints + (from - low) * 4;
            const intptr_t first_row = row_starts[oy], end_row = row_starts[oy + 1];
            intptr_t r = first_row;
            if (short_sums) {
                // Two rows a pass over the sums, then the odd one.
                for (; r + 1 < end_row; r += 2) {
                    add_rows_16(short_sums_from, source + (row_indices[r] * source_width + from) * 4,
                                source + (row_indices[r + 1] * source_width + from) * 4, columns * 4,
                                (uint16_t)row_weights[r], (uint16_t)row_weights[r + 1], r == first_row);
                }
            }
            for (; r < end_row; r++) {
                const uint8_t *row = source + (row_indices[r] * source_width + from) * 4;
                if (short_sums) {
                    add_row_16(short_sums_from, row, columns * 4, (uint16_t)row_weights[r], r == first_row);
                } else if (premultiplied) {
                    add_row_32(int_sums_from, row, columns, (int32_t)row_weights[r], 0, r == first_row);
                } else {
                    add_row_32(int_sums_from, row, columns, (int32_t)row_weights[r], 1, r == first_row);
                }
            }
            uint8_t *output = target + oy * bytes_per_row + cx * 4;
            intptr_t i = begin;
#if defined(__x86_64__)
            if (fixed_pairs && premultiplied && end_row > first_row) {
                // Two output pixels a step: their taps summed as below,
                // their means divided together.
#if WITH_AVX2_COPY
                if (wide) i = paired_means_avx2(down.shorts, &paired_taps, fixed_pairs, i, end, &by_area, output);
#endif
                for (; i + 2 <= end; i += 2) {
                    store_area_means_2(paired_sums(down.shorts, &paired_taps, i, fixed_pairs),
                                       paired_sums(down.shorts, &paired_taps, i + 1, fixed_pairs),
                                       &by_area, output + i * 4);
                }
            }
#endif
            for (; i < end; i++) {
                lanes h = {0, 0, 0, 0};
                // An output row that reads no source row has sums of 0.
#if defined(__x86_64__)
                if (fixed_pairs && end_row > first_row) {
                    h = paired_sums(down.shorts, &paired_taps, i, fixed_pairs);
                } else if (paired && end_row > first_row) {
                    // Two taps at once: the sums of two neighbouring columns
                    // interleaved by channel, each pair multiplied by its
                    // two weights and added in one instruction.
                    __m128i sums = _mm_setzero_si128();
                    const intptr_t last = column_starts[cx + i + 1];
                    for (intptr_t k = column_starts[cx + i]; k < last; k += 2) {
                        const intptr_t at = (column_indices[k] - low) * 4;
                        const __m128i two = _mm_loadu_si128((const __m128i *)(down.shorts + at));
                        const __m128i by_channel = _mm_unpacklo_epi16(two, _mm_srli_si128(two, 8));
                        const uint32_t w0 = (uint32_t)column_weights[k];
                        const uint32_t w1 = k + 1 < last ? (uint32_t)column_weights[k + 1] : 0;
                        sums = _mm_add_epi32(sums, _mm_madd_epi16(by_channel, _mm_set1_epi32((int32_t)(w1 << 16 | w0))));
                    }
                    memcpy(&h, &sums, 16);
                } else
#endif
                if (end_row > first_row) {
                    for (intptr_t k = column_starts[cx + i]; k < column_starts[cx + i + 1]; k++) {
                        const intptr_t at = (column_indices[k] - low) * 4;
                        lanes sum;
                        if (short_sums) {
                            shorts_4 four;
                            __builtin_memcpy(&four, down.shorts + at, 8);
                            sum = __builtin_convertvector(four, lanes);
                        } else {
                            __builtin_memcpy(&sum, down.ints + at, 16);
                        }
                        h += sum * (int32_t)column_weights[k];
                    }
                }
                if (premultiplied) {
                    store_area_means(h, &by_area, output + i * 4);
                } else {
                    // Colour by the alpha sum (1 when it is 0: the colour
                    // sums are 0 too), alpha by the area.
                    const int32_t alpha = h[3] > 0 ? h[3] : 1;
                    store_means(h, alpha, whole, 1.0 / alpha, area_inverse, output + i * 4);
                }
            }
        }
    }
    return 1;
}

#if WITH_AVX2_COPY
__attribute__((target("avx2"))) static int box_filter_32_avx2(BOX_FILTER_32_PARAMETERS) {
    return box_filter_32_body(BOX_FILTER_32_ARGUMENTS, 1);
}

static int box_filter_32_baseline(BOX_FILTER_32_PARAMETERS) {
    return box_filter_32_body(BOX_FILTER_32_ARGUMENTS, 0);
}

static int box_filter_32(BOX_FILTER_32_PARAMETERS) {
    return has_avx2() ? box_filter_32_avx2(BOX_FILTER_32_ARGUMENTS) : box_filter_32_baseline(BOX_FILTER_32_ARGUMENTS);
}
#else
static int box_filter_32(BOX_FILTER_32_PARAMETERS) { return box_filter_32_body(BOX_FILTER_32_ARGUMENTS, 0); }
#endif

/// Whether output columns `x0 ..< x0 + width` can sum their 16-bit sums
/// down two taps at once as signed 16-bit products (x86-64's
/// multiply-add): every sum down below 2^15 (no output row's weights add up
/// to more than 128, `row_total`), every column weight below 2^15, and each
/// output column's taps neighbouring source columns in order (as an area
/// average's and a bilinear upscale's are).
static int pairs_taps(
    const intptr_t *column_starts, const intptr_t *column_indices, const int64_t *column_weights, intptr_t x0,
    intptr_t width, int64_t row_total) {
#if defined(__x86_64__)
    if (row_total > 128) return 0;
    for (intptr_t o = x0; o < x0 + width; o++) {
        for (intptr_t k = column_starts[o]; k < column_starts[o + 1]; k++) {
            if (column_weights[k] < 0 || column_weights[k] > INT16_MAX) return 0;
            if (k > column_starts[o] && column_indices[k] != column_indices[k - 1] + 1) return 0;
        }
    }
    return 1;
#else
    (void)column_starts;
    (void)column_indices;
    (void)column_weights;
    (void)x0;
    (void)width;
    (void)row_total;
    return 0;
#endif
}

void pixel_box_filter(
    const uint8_t *source, intptr_t source_width,
    const intptr_t *column_starts, const intptr_t *column_indices, const int64_t *column_weights,
    const intptr_t *row_starts, const intptr_t *row_indices, const int64_t *row_weights,
    int64_t area, int premultiplied,
    intptr_t x0, intptr_t y0, intptr_t width, intptr_t height, const intptr_t *row_columns,
    uint8_t *target, intptr_t bytes_per_row) {
    // A channel's sum is at most 255 × 255 × area (straight colour: value
    // times alpha times weight; the halves that round it are added in
    // doubles): below 2^31 up to an area of 33,024, which is any shrink
    // whose axes' totals, reduced, are small (640 → 200 is 16 a side).
    if (area <= (int64_t)(INT32_MAX / (255 * 255 + 1))) {
        // Premultiplied sums down fit 16 bits when no output row's weights
        // add up to more than 257 (255 × 257 < 2^16).
        int64_t row_total = 0;
        for (intptr_t oy = y0; oy < y0 + height; oy++) {
            int64_t total = 0;
            for (intptr_t r = row_starts[oy]; r < row_starts[oy + 1]; r++) total += row_weights[r];
            if (total > row_total) row_total = total;
        }
        const int short_sums = premultiplied && row_total <= 257;
        const int paired = short_sums && pairs_taps(column_starts, column_indices, column_weights, x0, width, row_total);
        const int done = box_filter_32(
            source, source_width, column_starts, column_indices, column_weights, row_starts, row_indices, row_weights,
            area, premultiplied != 0, short_sums, paired, x0, y0, width, height, row_columns, target, bytes_per_row);
        if (done) return;
    }
    // The output row's sums, and the latest source row's horizontal sums:
    // consecutive output rows share the source row on their boundary, which
    // is summed once.
    int64_t sums[chunk][4], row[chunk][4];
    const double area_inverse = 1.0 / (double)area;
    const int straight = !premultiplied;
    for (intptr_t cx = x0; cx < x0 + width; cx += chunk) {
        const intptr_t count = (x0 + width - cx) < chunk ? (x0 + width - cx) : chunk;
        intptr_t summed_row = -1;
        for (intptr_t oy = y0; oy < y0 + height; oy++) {
            for (intptr_t i = 0; i < count; i++) {
                sums[i][0] = sums[i][1] = sums[i][2] = sums[i][3] = 0;
            }
            for (intptr_t r = row_starts[oy]; r < row_starts[oy + 1]; r++) {
                if (row_indices[r] != summed_row) {
                    summed_row = row_indices[r];
                    row_sums(source + summed_row * source_width * 4, column_starts, column_indices, column_weights,
                             straight, cx, count, row);
                }
                const int64_t wy = row_weights[r];
                for (intptr_t i = 0; i < count; i++) {
                    sums[i][0] += row[i][0] * wy;
                    sums[i][1] += row[i][1] * wy;
                    sums[i][2] += row[i][2] * wy;
                    sums[i][3] += row[i][3] * wy;
                }
            }
            uint8_t *output = target + oy * bytes_per_row + cx * 4;
            intptr_t begin = 0, end = count;
            if (row_columns) {
                const intptr_t b = row_columns[2 * (oy - y0)] - cx, e = row_columns[2 * (oy - y0) + 1] - cx;
                begin = b > 0 ? b : 0;
                end = e < count ? e : count;
            }
            for (intptr_t i = begin; i < end; i++) {
                uint8_t *o = output + i * 4;
                const int64_t divisor = premultiplied ? area : sums[i][3];
                if (divisor > 0) {
                    const double inverse = premultiplied ? area_inverse : 1.0 / (double)divisor;
                    o[0] = rounded_quotient(sums[i][0], divisor, inverse);
                    o[1] = rounded_quotient(sums[i][1], divisor, inverse);
                    o[2] = rounded_quotient(sums[i][2], divisor, inverse);
                } else {
                    o[0] = o[1] = o[2] = 0;
                }
                o[3] = rounded_quotient(sums[i][3], area, area_inverse);
            }
        }
    }
}
