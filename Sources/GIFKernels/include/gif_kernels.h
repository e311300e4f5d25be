#ifndef GIF_KERNELS_H
#define GIF_KERNELS_H
#include <stdint.h>

// The decoder's vector kernels, in C so that they are compiled once with
// the instruction sets they name (a target attribute per function) and run
// only where the processor has them: the Swift side asks
// `gif_cpu_has_avx512_vbmi()` and `gif_cpu_has_avx2()` once
// (ProcessorFeatures) and otherwise runs its portable loops. Only the
// runs drawer, `gif_draw_runs`, is built on other architectures, with its
// portable loops.

#if defined(__x86_64__)
/// Whether this processor and its operating system run AVX-512 F, BW and
/// VBMI (byte permutes across a whole 64-byte register): the compositor's
/// vector path. Zen 4 and Intel from Ice Lake on have them.
int gif_cpu_has_avx512_vbmi(void);

/// Writes `rows` rows of `count` pixels for the palette indices at `from`
/// (rows `fromStride` bytes apart) to the 32-bit pixels at `out` (rows
/// `outStride` pixels apart), skipping the `transparent` index (none when
/// negative), 64 at a time with AVX-512 VBMI, the colour table loaded once
/// for the whole rectangle. Call only when `gif_cpu_has_avx512_vbmi()` says
/// so.
///
/// `planes` is the colour table as four planes of 256 bytes: byte `k` of
/// entry `i` at `planes[256 * k + i]`. A row shorter than 64 is read and
/// written under a mask: no byte past `count` is touched. When `copy` is not
/// null, every pixel written to `out` is written to `copy` too, rows
/// `copyStride` pixels apart.
void gif_draw_rect_avx512_vbmi(const uint8_t *from, long fromStride, long count, long rows, uint32_t *out,
                               long outStride, uint32_t *copy, long copyStride, const uint8_t *planes,
                               int transparent);

/// Whether this processor and its operating system run AVX2: the
/// compositor's gather path where AVX-512 VBMI is missing.
int gif_cpu_has_avx2(void);

/// Writes `rows` rows of `count` pixels for the palette indices at `from`
/// (rows `fromStride` bytes apart) to the 32-bit pixels at `out` (rows
/// `outStride` pixels apart), skipping the `transparent` index (none when
/// negative), 8 at a time with AVX2 gathers from `words`, the colour table
/// as 256 words. Call only when `gif_cpu_has_avx2()` says so.
///
/// No byte past `count` is read or written. When `copy` is not null it
/// must hold what `out` holds (rows `copyStride` pixels apart): every pixel
/// written to `out` is written there too, and a transparent pixel beside
/// one may be rewritten with the value both already hold.
void gif_draw_rect_avx2(const uint8_t *from, long fromStride, long count, long rows, uint32_t *out,
                        long outStride, uint32_t *copy, long copyStride, const uint32_t *words,
                        int transparent);

/// The LZW code walk's common stretch 32 codes at a time with AVX-512 VBMI:
/// from bit `bit` of the code stream at `data` (`readable` bytes may be
/// read), codes of `width` bits (at most 12) are tested in groups of 32
/// while each group lies within `bits` and, when `bounded`, ends before
/// the table reaches `limit` entries. Stops, leaving the group unread, at
/// the first group holding a clear or end code (`clear`, `clear + 1`) or,
/// when `bounded`, its `k`-th code past `*next + k`, the next free entry
/// when it is read. Returns the bit reached; `*next` is moved on by 32 for
/// each group passed. Call only when `gif_cpu_has_avx512_vbmi()` says so.
long gif_lzw_walk_groups_avx512_vbmi(const uint8_t *data, long readable, long bits, long bit, int width, int clear,
                                     long *next, int bounded, long limit);
#endif

/// Draws a frame kept as index runs (the encoding `IndexRuns` writes: each
/// token a byte, `0x00…0x7F` then `t + 1` literal indices, `0x80…0xFE` a
/// run of `t − 0x80 + 3` of the index that follows, `0xFF` a run whose
/// length follows as four bytes, least significant first, then its index)
/// of `length` bytes at `runs`, for a frame `width` pixels wide, row-major,
/// into the 32-bit pixels at `out` (rows `outStride` pixels apart): only
/// its first `rows` rows and `columns` columns, the part on the canvas.
/// A run is one fill of its colour, skipped when its index is `transparent`
/// (none when negative); literal stretches are looked up in `words`, the
/// colour table as 256 words, with the AVX2 gather kernel when `avx2` (call
/// so only when `gif_cpu_has_avx2()` says so, and on x86-64).
///
/// When `copy` is not null it must hold what `out` holds (rows `copyStride`
/// pixels apart): every pixel written to `out` is written there too.
///
/// When `box` is not null, only the pixels whose value changes are
/// written, and `box` (left, top, right, bottom, inclusive, in the frame's
/// pixels; set by the caller to an empty box, right below left) grows to
/// take each of them in: a frame stored whole whose pixels mostly repeat
/// the canvas's (an encoder's way of writing every frame in full) reports
/// the little that changed. When `spans` is not null too, each row's
/// changed pixels widen that row's span there as well: row `y`'s first and
/// last changed column, plus `spans_left`, at `spans[2y]` and
/// `spans[2y + 1]` (set by the caller, the first past the last when none).
///
/// Reads no byte of `runs` past `length`, and stops at a token cut short.
/// Returns the pixels of the frame the tokens reached, row-major (at most
/// `rows × width`; `width × rows` when the encoding covered them).
long gif_draw_runs(const uint8_t *runs, long length, long width, long columns, long rows, uint32_t *out,
                   long outStride, uint32_t *copy, long copyStride, const uint32_t *words, int transparent,
                   long *box, long *spans, long spans_left, int avx2);

#endif
