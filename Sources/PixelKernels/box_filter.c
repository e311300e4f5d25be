#include "pixel_kernels.h"

/// Output columns summed at once: the accumulators live on the stack
/// (8 KiB), whatever the output width.
enum { chunk = 256 };

/// round(n / d) for 0 <= n + d / 2 < 2^63, d > 0, when the quotient is at most
/// 255: estimated with `inverse` (1.0 / d), whose error is far below one at
/// that size, then corrected by one step to the exact integer quotient.
static inline uint8_t rounded_quotient(int64_t n, int64_t d, double inverse) {
    int64_t numerator = n + d / 2;
    int64_t q = (int64_t)((double)numerator * inverse);
    if (q * d > numerator) {
        q -= 1;
    } else if ((q + 1) * d <= numerator) {
        q += 1;
    }
    return (uint8_t)q;
}

void pixel_box_filter(
    const uint8_t *source, intptr_t source_width,
    const intptr_t *column_starts, const intptr_t *column_indices, const int64_t *column_weights,
    const intptr_t *row_starts, const intptr_t *row_indices, const int64_t *row_weights,
    int64_t area, int premultiplied,
    intptr_t x0, intptr_t y0, intptr_t width, intptr_t height,
    uint8_t *target, intptr_t bytes_per_row) {
    int64_t sums[chunk][4];
    const double area_inverse = 1.0 / (double)area;
    // For straight colour the colour weight is the area weight times
    // alpha; premultiplied, times one.
    const int64_t straight = premultiplied ? 0 : 1;
    for (intptr_t oy = y0; oy < y0 + height; oy++) {
        uint8_t *output_row = target + oy * bytes_per_row;
        for (intptr_t cx = x0; cx < x0 + width; cx += chunk) {
            const intptr_t count = (x0 + width - cx) < chunk ? (x0 + width - cx) : chunk;
            for (intptr_t i = 0; i < count; i++) {
                sums[i][0] = sums[i][1] = sums[i][2] = sums[i][3] = 0;
            }
            for (intptr_t r = row_starts[oy]; r < row_starts[oy + 1]; r++) {
                const uint8_t *row = source + row_indices[r] * source_width * 4;
                const int64_t wy = row_weights[r];
                for (intptr_t i = 0; i < count; i++) {
                    const intptr_t ox = cx + i;
                    int64_t h0 = 0, h1 = 0, h2 = 0, h3 = 0;
                    for (intptr_t c = column_starts[ox]; c < column_starts[ox + 1]; c++) {
                        const uint8_t *pixel = row + column_indices[c] * 4;
                        const int64_t w = column_weights[c], alpha = pixel[3];
                        const int64_t a = w * (straight * (alpha - 1) + 1);
                        h0 += pixel[0] * a;
                        h1 += pixel[1] * a;
                        h2 += pixel[2] * a;
                        h3 += alpha * w;
                    }
                    sums[i][0] += h0 * wy;
                    sums[i][1] += h1 * wy;
                    sums[i][2] += h2 * wy;
                    sums[i][3] += h3 * wy;
                }
            }
            for (intptr_t i = 0; i < count; i++) {
                uint8_t *o = output_row + (cx + i) * 4;
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
