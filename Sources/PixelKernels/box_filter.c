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

void pixel_box_filter(
    const uint8_t *source, intptr_t source_width,
    const intptr_t *column_starts, const intptr_t *column_indices, const int64_t *column_weights,
    const intptr_t *row_starts, const intptr_t *row_indices, const int64_t *row_weights,
    int64_t area, int premultiplied,
    intptr_t x0, intptr_t y0, intptr_t width, intptr_t height,
    uint8_t *target, intptr_t bytes_per_row) {
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
