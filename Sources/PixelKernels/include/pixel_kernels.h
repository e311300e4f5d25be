#ifndef PIXEL_KERNELS_H
#define PIXEL_KERNELS_H
#include <stdint.h>

// The player's per-pixel loops, in C: compiled by any build with the same
// code, and fast even in an unoptimised (debug) build, where the same loop
// in Swift runs tens of times slower.

/// Writes the output pixels `x0 ..< x0 + width`, `y0 ..< y0 + height` of an
/// exact area-average (box) filter of the 4-byte pixels at `source`
/// (`source_width` pixels a row, alpha last) into `target`, whose rows are
/// `bytes_per_row` apart. With `row_columns` (not null), output row
/// `y0 + j` writes only its columns `row_columns[2j] ..< row_columns[2j + 1]`
/// of those (none when the range is empty), reading only the source
/// columns they cover: a frame's change, scaled row by row.
///
/// Output column `o` covers the source columns `column_indices[k]` for `k`
/// in `column_starts[o] ..< column_starts[o + 1]`, by `column_weights[k]`;
/// rows likewise. Each output column's first and last source index are at
/// or after the previous column's (as in every filter that keeps the
/// picture's order). A source pixel's weight is its column weight times its row
/// weight, and the weights of one output pixel add up to `area`.
///
/// Straight colour (`premultiplied` 0) is averaged weighted by alpha, so
/// transparent pixels' colours do not bleed, and a pixel whose area is all
/// transparent is transparent black; premultiplied colour is the plain area
/// mean. Alpha is the plain area mean. Every mean rounds to nearest, half
/// up, exactly: sums are 32-bit lanes when no sum can pass 2^31 (an `area`
/// up to 33,024: pass weights reduced by their common divisor), summed down
/// the source rows first (premultiplied in 16-bit lanes when no output
/// row's weights add up to more than 257), else 64-bit (enough for an
/// `area` of up to 2^40); each quotient is exact (see box_filter.c).
void pixel_box_filter(
    const uint8_t *source, intptr_t source_width,
    const intptr_t *column_starts, const intptr_t *column_indices, const int64_t *column_weights,
    const intptr_t *row_starts, const intptr_t *row_indices, const int64_t *row_weights,
    int64_t area, int premultiplied,
    intptr_t x0, intptr_t y0, intptr_t width, intptr_t height, const intptr_t *row_columns,
    uint8_t *target, intptr_t bytes_per_row);

#endif
