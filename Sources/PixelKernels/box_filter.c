#include "pixel_kernels.h"

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

/// Four 32-bit lanes, one a channel: a pixel's sums, added and scaled
/// together (one SSE or NEON register). Signed, so that they convert to and
/// from doubles in one instruction.
typedef int32_t lanes __attribute__((vector_size(16)));
typedef uint8_t pixel_bytes __attribute__((vector_size(4)));

static inline lanes load_pixel(const uint8_t *pixel) {
    pixel_bytes bytes;
    __builtin_memcpy(&bytes, pixel, 4);
    return __builtin_convertvector(bytes, lanes);
}

/// `row_sums` in 32-bit lanes, for areas small enough that no sum can pass
/// 2^31 (see `pixel_box_filter`). `straight` is a constant in each caller,
/// so each variant's inner loop has no test.
static inline void row_sums_32(
    const uint8_t *row, const intptr_t *column_starts, const intptr_t *column_indices,
    const int64_t *column_weights, const int straight, intptr_t cx, intptr_t count, lanes *sums) {
    for (intptr_t i = 0; i < count; i++) {
        const intptr_t first = column_starts[cx + i], last = column_starts[cx + i + 1];
        lanes h = {0, 0, 0, 0};
        for (intptr_t c = first; c < last; c++) {
            const lanes pixel = load_pixel(row + column_indices[c] * 4);
            const int32_t w = (int32_t)column_weights[c];
            if (straight) {
                // Colour times alpha, alpha times 1, all times the weight.
                const lanes one = {1, 1, 1, 1};
                h += pixel * w * __builtin_shufflevector(pixel, one, 3, 3, 3, 4);
            } else {
                h += pixel * w;
            }
        }
        sums[i] = h;
    }
}

typedef double wide __attribute__((vector_size(32)));
typedef int64_t wide_mask __attribute__((vector_size(32)));

/// Writes round(sum / divisor), half up, exactly, as bytes: the colour
/// lanes by `colour`, the alpha lane by `area` (`half_…`: the divisor
/// halved, rounded down, as the 64-bit path rounds). Each quotient is
/// estimated with the divisor's inverse and corrected by one step, in
/// doubles, which hold every sum and product here exactly.
static inline void store_means(
    lanes sums, int32_t colour, int32_t area, double colour_inverse, double area_inverse, uint8_t *output) {
    const wide divisor = {colour, colour, colour, area};
    const wide inverse = {colour_inverse, colour_inverse, colour_inverse, area_inverse};
    const lanes halves = {colour / 2, colour / 2, colour / 2, area / 2};
    const wide numerator = __builtin_convertvector(sums + halves, wide);
    lanes q = __builtin_convertvector(numerator * inverse, lanes);
    const wide estimate = __builtin_convertvector(q, wide);
    const wide one = {1, 1, 1, 1};
    // A true comparison is -1 in its lane.
    q += __builtin_convertvector((wide_mask)(estimate * divisor > numerator), lanes);
    q -= __builtin_convertvector((wide_mask)((estimate + one) * divisor <= numerator), lanes);
    const pixel_bytes bytes = __builtin_convertvector(q, pixel_bytes);
    __builtin_memcpy(output, &bytes, 4);
}

/// On x86-64 Linux, a second copy for processors with AVX2, chosen when
/// the program loads: the baseline (SSE2) has no 32-bit lane multiply. Not
/// under ThreadSanitizer, whose instrumented copy chooser would run before
/// the sanitizer's runtime is ready.
#if !defined(__has_feature)
#define __has_feature(feature) 0
#endif
#if defined(__x86_64__) && defined(__linux__) && !__has_feature(thread_sanitizer)
#define WITH_AVX2_COPY __attribute__((target_clones("avx2", "default")))
#else
#define WITH_AVX2_COPY
#endif

/// `pixel_box_filter` with every sum in 32-bit lanes.
WITH_AVX2_COPY
static void box_filter_32(
    const uint8_t *source, intptr_t source_width,
    const intptr_t *column_starts, const intptr_t *column_indices, const int64_t *column_weights,
    const intptr_t *row_starts, const intptr_t *row_indices, const int64_t *row_weights,
    int64_t area, const int premultiplied,
    intptr_t x0, intptr_t y0, intptr_t width, intptr_t height,
    uint8_t *target, intptr_t bytes_per_row) {
    lanes sums[chunk], row[chunk];
    const double area_inverse = 1.0 / (double)area;
    for (intptr_t cx = x0; cx < x0 + width; cx += chunk) {
        const intptr_t count = (x0 + width - cx) < chunk ? (x0 + width - cx) : chunk;
        intptr_t summed_row = -1;
        for (intptr_t oy = y0; oy < y0 + height; oy++) {
            for (intptr_t i = 0; i < count; i++) sums[i] = (lanes){0, 0, 0, 0};
            for (intptr_t r = row_starts[oy]; r < row_starts[oy + 1]; r++) {
                if (row_indices[r] != summed_row) {
                    summed_row = row_indices[r];
                    const uint8_t *source_row = source + summed_row * source_width * 4;
                    if (premultiplied) {
                        row_sums_32(source_row, column_starts, column_indices, column_weights, 0, cx, count, row);
                    } else {
                        row_sums_32(source_row, column_starts, column_indices, column_weights, 1, cx, count, row);
                    }
                }
                const int32_t wy = (int32_t)row_weights[r];
                for (intptr_t i = 0; i < count; i++) sums[i] += row[i] * wy;
            }
            uint8_t *output = target + oy * bytes_per_row + cx * 4;
            const int32_t whole = (int32_t)area;
            if (premultiplied) {
                for (intptr_t i = 0; i < count; i++) {
                    store_means(sums[i], whole, whole, area_inverse, area_inverse, output + i * 4);
                }
            } else {
                for (intptr_t i = 0; i < count; i++) {
                    // Colour by the alpha sum (1 when it is 0: the colour
                    // sums are 0 too), alpha by the area.
                    const int32_t alpha = sums[i][3] > 0 ? sums[i][3] : 1;
                    store_means(sums[i], alpha, whole, 1.0 / alpha, area_inverse, output + i * 4);
                }
            }
        }
    }
}

void pixel_box_filter(
    const uint8_t *source, intptr_t source_width,
    const intptr_t *column_starts, const intptr_t *column_indices, const int64_t *column_weights,
    const intptr_t *row_starts, const intptr_t *row_indices, const int64_t *row_weights,
    int64_t area, int premultiplied,
    intptr_t x0, intptr_t y0, intptr_t width, intptr_t height,
    uint8_t *target, intptr_t bytes_per_row) {
    // A channel's sum, rounding half included, is at most 255 × 255 × area
    // + area (straight colour: value times alpha times weight): below 2^31
    // up to an area of 33,024, which is any shrink whose axes' totals,
    // reduced, are small (640 → 200 is 16 a side).
    if (area <= (int64_t)(INT32_MAX / (255 * 255 + 1))) {
        if (premultiplied) {
            box_filter_32(source, source_width, column_starts, column_indices, column_weights, row_starts,
                          row_indices, row_weights, area, 1, x0, y0, width, height, target, bytes_per_row);
        } else {
            box_filter_32(source, source_width, column_starts, column_indices, column_weights, row_starts,
                          row_indices, row_weights, area, 0, x0, y0, width, height, target, bytes_per_row);
        }
        return;
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
            for (intptr_t i = 0; i < count; i++) {
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
