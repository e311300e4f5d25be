#include "gif_kernels.h"

/// Writes `count` pixels for the indices at `from` to `out` (and `copy`
/// when not null) a pixel at a time, skipping the `transparent` index (none
/// when negative): the kernels' short rows and every row where there is no
/// vector path.
static inline __attribute__((always_inline)) void gif_draw_pixels(const uint8_t *from, long count, uint32_t *out,
                                                                  uint32_t *copy, const uint32_t *words,
                                                                  int transparent) {
    for (long i = 0; i < count; i++) {
        if ((int)from[i] == transparent) continue;
        out[i] = words[from[i]];
        if (copy) copy[i] = out[i];
    }
}

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#if defined(__GLIBC__) && __has_include(<sys/platform/x86.h>)
#include <sys/platform/x86.h>
#endif

/// Whether this processor and its operating system run AVX-512 F, BW and
/// VBMI (byte permutes across a whole 64-byte register): the compositor's
/// vector path. Zen 4 and Intel from Ice Lake on have them.
///
/// With glibc, read from the processor's features as glibc found them when
/// the program started (usable: the processor has them and the operating
/// system saves their registers). Each `cpuid` instruction is a trap to the
/// hypervisor in a virtual machine, costly at start-up, and glibc has
/// run them all already; elsewhere, asked of the processor.
int gif_cpu_has_avx512_vbmi(void) {
#if defined(CPU_FEATURE_ACTIVE)
    return CPU_FEATURE_ACTIVE(AVX512F) && CPU_FEATURE_ACTIVE(AVX512BW) && CPU_FEATURE_ACTIVE(AVX512_VBMI);
#else
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
#endif
}

/// The pixels of 64 palette indices, looked up in the colour table's planes
/// (`table[4 * k + h]`: plane `k`, entries `64 * h` on) and interleaved, in
/// four registers of 16 pixels in order: `q0` the pixels of indices 0–15.
///
/// Each plane is looked up for the 64 indices at once (two two-register
/// byte permutes, one per half of the table, and a blend on the index's top
/// bit), then the four planes are interleaved into pixels. The interleave
/// works within 16-byte lanes, so the indices are first permuted
/// (`permutation`) so that the pixels come out in order.
__attribute__((target("avx512f,avx512bw,avx512vbmi"), always_inline))
static inline void gif_lookup_pixels(__m512i indices, const __m512i *table, __m512i permutation, __m512i *q0,
                                     __m512i *q1, __m512i *q2, __m512i *q3) {
    __m512i permuted = _mm512_permutexvar_epi8(permutation, indices);
    __mmask64 upper = _mm512_movepi8_mask(permuted);
#define GIF_LOOKUP(k) \
    _mm512_mask_blend_epi8(upper, _mm512_permutex2var_epi8(table[4 * k], permuted, table[4 * k + 1]), \
                           _mm512_permutex2var_epi8(table[4 * k + 2], permuted, table[4 * k + 3]))
    __m512i b0 = GIF_LOOKUP(0), b1 = GIF_LOOKUP(1), b2 = GIF_LOOKUP(2), b3 = GIF_LOOKUP(3);
#undef GIF_LOOKUP
    __m512i b01Low = _mm512_unpacklo_epi8(b0, b1), b01High = _mm512_unpackhi_epi8(b0, b1);
    __m512i b23Low = _mm512_unpacklo_epi8(b2, b3), b23High = _mm512_unpackhi_epi8(b2, b3);
    *q0 = _mm512_unpacklo_epi16(b01Low, b23Low);
    *q1 = _mm512_unpackhi_epi16(b01Low, b23Low);
    *q2 = _mm512_unpacklo_epi16(b01High, b23High);
    *q3 = _mm512_unpackhi_epi16(b01High, b23High);
}

/// Stores the 64 pixels `q0`…`q3` at `o`, those `keep` marks: whole
/// registers when it marks all (a masked store is slow on some
/// processors), else only the quarters holding a kept pixel, under a mask.
__attribute__((target("avx512f,avx512bw,avx512vbmi"), always_inline))
static inline void gif_store_pixels(uint32_t *o, __mmask64 keep, __m512i q0, __m512i q1, __m512i q2, __m512i q3) {
    if (keep == ~(__mmask64)0) {
        _mm512_storeu_si512(o, q0);
        _mm512_storeu_si512(o + 16, q1);
        _mm512_storeu_si512(o + 32, q2);
        _mm512_storeu_si512(o + 48, q3);
        return;
    }
    if ((__mmask16)keep) _mm512_mask_storeu_epi32(o, (__mmask16)keep, q0);
    if ((__mmask16)(keep >> 16)) _mm512_mask_storeu_epi32(o + 16, (__mmask16)(keep >> 16), q1);
    if ((__mmask16)(keep >> 32)) _mm512_mask_storeu_epi32(o + 32, (__mmask16)(keep >> 32), q2);
    if ((__mmask16)(keep >> 48)) _mm512_mask_storeu_epi32(o + 48, (__mmask16)(keep >> 48), q3);
}

/// Writes `rows` rows of `count` pixels for the palette indices at `from`
/// (rows `fromStride` bytes apart) to the 32-bit pixels at `out` (rows
/// `outStride` pixels apart), skipping the `transparent` index (none when
/// negative), 64 at a time with AVX-512 VBMI. Call only when
/// `gif_cpu_has_avx512_vbmi()` says so.
///
/// `planes` is the colour table as four planes of 256 bytes: byte `k` of
/// entry `i` at `planes[256 * k + i]`. The table is loaded into sixteen
/// registers once for the whole rectangle. Rows of 32 pixels or fewer share
/// a group of 64: four rows of up to 16 (a sprite's) or two of up to 32,
/// each read into a quarter or a half of the group under a mask, so that a
/// narrow frame costs a group's lookup per four or two rows. Wider rows are
/// read and written under a mask too: no byte past `count` is touched.
///
/// When `copy` is not null every pixel written to `out` is written to
/// `copy` too (rows `copyStride` pixels apart): a host's buffer kept equal
/// to the canvas as it is drawn, for the cost of the stores alone.
__attribute__((target("avx512f,avx512bw,avx512vbmi")))
void gif_draw_rect_avx512_vbmi(const uint8_t *from, long fromStride, long count, long rows, uint32_t *out,
                               long outStride, uint32_t *copy, long copyStride, const uint8_t *planes,
                               int transparent) {
    static const uint8_t order[64] = {
        0, 1, 2,  3,  16, 17, 18, 19, 32, 33, 34, 35, 48, 49, 50, 51, 4,  5,  6,  7,  20, 21,
        22, 23, 36, 37, 38, 39, 52, 53, 54, 55, 8,  9,  10, 11, 24, 25, 26, 27, 40, 41, 42, 43,
        56, 57, 58, 59, 12, 13, 14, 15, 28, 29, 30, 31, 44, 45, 46, 47, 60, 61, 62, 63,
    };
    if (count <= 0 || rows <= 0) return;
    const __m512i permutation = _mm512_loadu_si512(order);
    __m512i table[16];
    for (int i = 0; i < 16; i++) table[i] = _mm512_loadu_si512(planes + 64 * i);
    const __m512i skipped = _mm512_set1_epi8((char)transparent);
    __m512i q0, q1, q2, q3;
    if (count <= 32) {
        // `lanes` indices a row: row k of a group in indices 64/lanes·k on.
        const long lanes = count <= 16 ? 16 : 32, perGroup = 64 / lanes;
        const __mmask64 row = ((__mmask64)1 << count) - 1;
        for (long first = 0; first < rows; first += perGroup) {
            const long n = rows - first < perGroup ? rows - first : perGroup;
            __m512i indices = _mm512_setzero_si512();
            __mmask64 live = 0;
            for (long k = 0; k < n; k++) {
                // The load's address is moved back by the lanes before row
                // k's, which the mask leaves unread (a masked-off byte is
                // never accessed, so it cannot fault).
                const uintptr_t address = (uintptr_t)(from + (first + k) * fromStride) - (uintptr_t)(k * lanes);
                indices = _mm512_mask_loadu_epi8(indices, row << (k * lanes), (const void *)address);
                live |= row << (k * lanes);
            }
            __mmask64 keep = live;
            if (transparent >= 0) keep &= _mm512_cmpneq_epi8_mask(indices, skipped);
            gif_lookup_pixels(indices, table, permutation, &q0, &q1, &q2, &q3);
            const __m512i q[4] = {q0, q1, q2, q3};
            for (long k = 0; k < n; k++) {
                uint32_t *o = out + (first + k) * outStride;
                uint32_t *c = copy ? copy + (first + k) * copyStride : 0;
                for (long j = 0; j < lanes / 16 && 16 * j < count; j++) {
                    const long quarter = k * lanes / 16 + j;
                    const __mmask16 kept = (__mmask16)(keep >> (16 * quarter));
                    if (!kept) continue;
                    _mm512_mask_storeu_epi32(o + 16 * j, kept, q[quarter]);
                    if (c) _mm512_mask_storeu_epi32(c + 16 * j, kept, q[quarter]);
                }
            }
        }
        return;
    }
    // Wider rows a group of 64 at a time.
    const __mmask64 narrow = count >= 64 ? ~(__mmask64)0 : (((__mmask64)1 << count) - 1);
    for (long row = 0; row < rows; row++, from += fromStride, out += outStride, copy = copy ? copy + copyStride : 0) {
        for (long i = 0; i < count; i += 64) {
            // A row of 64 or more ends with the last 64 pixels, overlapping
            // the group before: the overlap gets the same words twice, and
            // the stores stay whole (a masked store is slow on some
            // processors).
            if (count - i < 64 && count >= 64) i = count - 64;
            __m512i indices = _mm512_maskz_loadu_epi8(narrow, from + i);
            __mmask64 keep = narrow;
            if (transparent >= 0) keep &= _mm512_cmpneq_epi8_mask(indices, skipped);
            gif_lookup_pixels(indices, table, permutation, &q0, &q1, &q2, &q3);
            gif_store_pixels(out + i, keep, q0, q1, q2, q3);
            if (copy) gif_store_pixels(copy + i, keep, q0, q1, q2, q3);
        }
    }
}

/// Whether this processor and its operating system run AVX2: the
/// compositor's gather path, for x86-64 processors without AVX-512 VBMI
/// (Zen 1 to 3, Intel from Haswell on). Read as
/// `gif_cpu_has_avx512_vbmi()` reads its features.
int gif_cpu_has_avx2(void) {
#if defined(CPU_FEATURE_ACTIVE)
    return CPU_FEATURE_ACTIVE(AVX2);
#else
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 27))) return 0;
    unsigned low, high;
    __asm__ volatile("xgetbv" : "=a"(low), "=d"(high) : "c"(0));
    // SSE and AVX states.
    if ((low & 0x6) != 0x6) return 0;
    if (__get_cpuid_max(0, 0) < 7) return 0;
    __cpuid_count(7, 0, a, b, c, d);
    return (b & (1u << 5)) != 0;
#endif
}

/// Writes `rows` rows of `count` pixels for the palette indices at `from`
/// (rows `fromStride` bytes apart) to the 32-bit pixels at `out` (rows
/// `outStride` pixels apart), skipping the `transparent` index (none when
/// negative), 8 at a time with AVX2 gathers from `words`. Call only when
/// `gif_cpu_has_avx2()` says so.
///
/// Eight indices are widened to 32 bits and looked up with one gather. A
/// group whose pixels are all transparent is skipped; one with some
/// transparent takes the others from the gather and the transparent ones
/// from `out` as it was (a masked gather over the old pixels), and is
/// stored whole: a masked store is slow on the processors this path is
/// for. A row of 8 or more ends with the last 8 pixels, overlapping the
/// group before (whose pixels it reads back as written); a row shorter
/// than 8 is drawn a pixel at a time. No byte past `count` is read or
/// written.
///
/// When `copy` is not null, every group stored to `out` is stored to
/// `copy` too (rows `copyStride` pixels apart): a host's buffer that holds
/// what `out` holds stays equal to it, for the cost of the stores alone.
__attribute__((target("avx2")))
void gif_draw_rect_avx2(const uint8_t *from, long fromStride, long count, long rows, uint32_t *out,
                        long outStride, uint32_t *copy, long copyStride, const uint32_t *words,
                        int transparent) {
    if (count <= 0 || rows <= 0) return;
    const __m256i skipped = _mm256_set1_epi32(transparent);
    for (long row = 0; row < rows; row++, from += fromStride, out += outStride, copy = copy ? copy + copyStride : 0) {
        if (count < 8) {
            gif_draw_pixels(from, count, out, copy, words, transparent);
            continue;
        }
        for (long i = 0; i < count; i += 8) {
            if (count - i < 8) i = count - 8;
            const __m256i indices = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(from + i)));
            __m256i pixels;
            if (transparent < 0) {
                pixels = _mm256_i32gather_epi32((const int *)words, indices, 4);
            } else {
                const __m256i clear = _mm256_cmpeq_epi32(indices, skipped);
                const int cleared = _mm256_movemask_ps(_mm256_castsi256_ps(clear));
                if (cleared == 0xFF) continue;
                if (cleared == 0) {
                    pixels = _mm256_i32gather_epi32((const int *)words, indices, 4);
                } else {
                    const __m256i old = _mm256_loadu_si256((const __m256i *)(out + i));
                    const __m256i drawn = _mm256_xor_si256(clear, _mm256_set1_epi32(-1));
                    pixels = _mm256_mask_i32gather_epi32(old, (const int *)words, indices, drawn, 4);
                }
            }
            _mm256_storeu_si256((__m256i *)(out + i), pixels);
            if (copy) _mm256_storeu_si256((__m256i *)(copy + i), pixels);
        }
    }
}

/// The LZW code walk's common stretch 32 codes at a time with AVX-512 VBMI:
/// from bit `bit` of the code stream at `data` (`readable` bytes may be
/// read), codes of `width` bits (at most 12) are tested in groups of 32
/// while each group lies within `bits` and, when `bounded`, ends before
/// the table reaches `limit` entries. Stops, leaving the group unread, at
/// the first group holding a clear or end code (`clear`, `clear + 1`) or,
/// when `bounded`, its `k`-th code past `*next + k`, the next free entry
/// when it is read. Returns the bit reached; `*next` is moved on by 32 for
/// each group passed. Call only when `gif_cpu_has_avx512_vbmi()` says so.
///
/// 32 codes of `width` bits are `4 * width` bytes, so every group starts at
/// the same bit within its first byte, and one byte permute and one
/// multishift (both set up once) put code `k` in 16-bit lane `k`: the
/// permute gathers, for each run of four codes, the 8 bytes from the one
/// its first code starts in; the multishift then takes each code's 16 bits
/// from its byte-unaligned place in those 8.
__attribute__((target("avx512f,avx512bw,avx512vbmi")))
long gif_lzw_walk_groups_avx512_vbmi(const uint8_t *data, long readable, long bits, long bit,
                                                   int width, int clear, long *next, int bounded, long limit) {
    const long step = 32L * width;
    long entries = *next;
    if (bit + step > bits || (bounded && entries + 32 >= limit)) return bit;
    uint8_t gather[64], shifts[64];
    const int offset = (int)(bit & 7);
    for (int run = 0; run < 8; run++) {
        int start = offset + 4 * run * width;
        for (int b = 0; b < 8; b++) gather[8 * run + b] = (uint8_t)((start >> 3) + b);
        for (int i = 0; i < 4; i++) {
            shifts[8 * run + 2 * i] = (uint8_t)((start & 7) + i * width);
            shifts[8 * run + 2 * i + 1] = (uint8_t)((start & 7) + i * width + 8);
        }
    }
    const __m512i permutation = _mm512_loadu_si512(gather), control = _mm512_loadu_si512(shifts);
    const __m512i mask = _mm512_set1_epi16((short)((1 << width) - 1));
    const __m512i clears = _mm512_set1_epi16((short)clear), two = _mm512_set1_epi16(2);
    const __m512i lanes = _mm512_set_epi16(31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14,
                                           13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
    // `next + k` in lane k; only read when bounded, where next + 32 < 4096.
    __m512i bound = _mm512_add_epi16(_mm512_set1_epi16((short)(bounded ? entries : 0)), lanes);
    const __m512i thirtyTwo = _mm512_set1_epi16(32);
    while (bit + step <= bits && (!bounded || entries + 32 < limit)) {
        long byte = bit >> 3, left = readable - byte;
        __m512i raw = left >= 64 ? _mm512_loadu_si512(data + byte)
                                 : _mm512_maskz_loadu_epi8((((__mmask64)1) << left) - 1, data + byte);
        __m512i codes =
            _mm512_and_si512(_mm512_multishift_epi64_epi8(control, _mm512_permutexvar_epi8(permutation, raw)), mask);
        __mmask32 stop = _mm512_cmplt_epu16_mask(_mm512_xor_si512(codes, clears), two);
        if (bounded) stop |= _mm512_cmpgt_epu16_mask(codes, bound);
        if (stop) break;
        bit += step;
        entries += 32;
        bound = _mm512_add_epi16(bound, thirtyTwo);
    }
    *next = entries;
    return bit;
}
#endif

/// Draws `count` literal indices at `from` as pixels at `out` (and `copy`
/// when not null), skipping `transparent`: with the AVX2 kernel from 8 on
/// when `gather`, else a pixel at a time.
static inline __attribute__((always_inline)) void gif_draw_literals(const uint8_t *from, long count, uint32_t *out,
                                                                    uint32_t *copy, const uint32_t *words,
                                                                    int transparent, const int gather) {
#if defined(__x86_64__)
    if (gather && count >= 8) {
        gif_draw_rect_avx2(from, count, count, 1, out, count, copy, count, words, transparent);
        return;
    }
#else
    (void)gather;
#endif
    gif_draw_pixels(from, count, out, copy, words, transparent);
}

/// Sets `count` pixels at `out` to `word`.
static inline __attribute__((always_inline)) void gif_fill(uint32_t *out, long count, uint32_t word) {
    for (long i = 0; i < count; i++) out[i] = word;
}

/// Draws `count` literal indices at `from` as pixels at `out` (and `copy`
/// when not null), skipping `transparent`, writing only the pixels whose
/// value changes; returns the first of those (-1 when none) and puts the
/// last in `*last`.
static inline long gif_draw_literals_tracking(const uint8_t *from, long count, uint32_t *out, uint32_t *copy,
                                              const uint32_t *words, int transparent, long *last) {
    long first = -1;
    for (long i = 0; i < count; i++) {
        if ((int)from[i] == transparent) continue;
        const uint32_t word = words[from[i]];
        if (out[i] == word) continue;
        if (first < 0) first = i;
        *last = i;
        out[i] = word;
        if (copy) copy[i] = word;
    }
    return first;
}

/// Sets `count` pixels at `out` to `word`, writing only those that held
/// another value; returns the first of those (-1 when none) and puts the
/// last in `*last`.
static inline long gif_fill_tracking(uint32_t *out, long count, uint32_t word, long *last) {
    long first = -1;
    for (long i = 0; i < count; i++) {
        if (out[i] == word) continue;
        if (first < 0) first = i;
        *last = i;
        out[i] = word;
    }
    return first;
}

#if defined(__x86_64__)
/// `gif_fill_tracking` 8 pixels at a time with AVX2: a group that holds
/// `word` already is compared, not written.
__attribute__((target("avx2"))) static long gif_fill_tracking_avx2(uint32_t *out, long count, uint32_t word,
                                                                   long *last) {
    const __m256i fill = _mm256_set1_epi32((int)word);
    long first = -1, i = 0;
    for (; i + 8 <= count; i += 8) {
        const __m256i old = _mm256_loadu_si256((const __m256i *)(out + i));
        const unsigned same = (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(old, fill)));
        if (same == 0xFF) continue;
        const unsigned differ = ~same & 0xFF;
        if (first < 0) first = i + __builtin_ctz(differ);
        *last = i + 31 - __builtin_clz(differ);
        _mm256_storeu_si256((__m256i *)(out + i), fill);
    }
    for (; i < count; i++) {
        if (out[i] == word) continue;
        if (first < 0) first = i;
        *last = i;
        out[i] = word;
    }
    return first;
}
#endif

/// Grows `box` (left, top, right, bottom) by pixels `first ... last` of
/// row `y`, from column `x`, and row `y`'s span in `spans` (when not null:
/// its first and last column, `spans[2y]` and `spans[2y + 1]`, counted from
/// `spans_left`); nothing when `first` is negative.
static inline void gif_box_add(long *box, long *spans, long spans_left, long x, long y, long first, long last) {
    if (first < 0) return;
    if (x + first < box[0]) box[0] = x + first;
    if (y < box[1]) box[1] = y;
    if (x + last > box[2]) box[2] = x + last;
    if (y > box[3]) box[3] = y;
    if (spans) {
        if (spans_left + x + first < spans[2 * y]) spans[2 * y] = spans_left + x + first;
        if (spans_left + x + last > spans[2 * y + 1]) spans[2 * y + 1] = spans_left + x + last;
    }
}

/// `gif_draw_runs`, with the literal stretches drawn by the AVX2 kernel when
/// `gather` (a constant in each caller).
static inline __attribute__((always_inline)) long gif_draw_runs_body(
    const uint8_t *runs, long length, long width, long columns, long rows, uint32_t *out, long outStride,
    uint32_t *copy, long copyStride, const uint32_t *words, int transparent, long *box, long *spans, long spans_left,
    const int gather) {
    long x = 0, y = 0, p = 0;
    while (p < length && y < rows) {
        const uint8_t token = runs[p++];
        long n;
        int value = -1;
        const uint8_t *literals = 0;
        if (token < 0x80) {
            n = token + 1;
            // A stretch cut short by the end: what is there, then stop.
            if (length - p < n) n = length - p;
            literals = runs + p;
            p += n;
        } else if (token < 0xFF) {
            if (p >= length) break;
            n = token - 0x80 + 3;
            value = runs[p++];
        } else {
            if (length - p < 5) break;
            n = (long)runs[p] | (long)runs[p + 1] << 8 | (long)runs[p + 2] << 16 | (long)runs[p + 3] << 24;
            value = runs[p + 4];
            p += 5;
        }
        while (n > 0 && y < rows) {
            // The part of the run or stretch on row y, and of that the
            // columns on the canvas.
            const long k = width - x < n ? width - x : n;
            const long visible = x < columns ? (x + k < columns ? k : columns - x) : 0;
            if (visible > 0) {
                uint32_t *o = out + y * outStride + x, *c = copy ? copy + y * copyStride + x : 0;
                long first = -1, last = -1;
                if (literals && box) {
                    first = gif_draw_literals_tracking(literals, visible, o, c, words, transparent, &last);
                } else if (literals) {
                    gif_draw_literals(literals, visible, o, c, words, transparent, gather);
                } else if (value != transparent && box) {
#if defined(__x86_64__)
                    first = gather ? gif_fill_tracking_avx2(o, visible, words[value], &last)
                                   : gif_fill_tracking(o, visible, words[value], &last);
#else
                    first = gif_fill_tracking(o, visible, words[value], &last);
#endif
                    if (c && first >= 0) gif_fill(c + first, last - first + 1, words[value]);
                } else if (value != transparent) {
                    gif_fill(o, visible, words[value]);
                    if (c) gif_fill(c, visible, words[value]);
                }
                if (box) gif_box_add(box, spans, spans_left, x, y, first, last);
            }
            if (literals) literals += k;
            n -= k;
            x += k;
            if (x == width) {
                x = 0;
                y++;
            }
        }
    }
    return y * width + x;
}

#if defined(__x86_64__)
__attribute__((target("avx2"))) static long gif_draw_runs_avx2(
    const uint8_t *runs, long length, long width, long columns, long rows, uint32_t *out, long outStride,
    uint32_t *copy, long copyStride, const uint32_t *words, int transparent, long *box, long *spans,
    long spans_left) {
    return gif_draw_runs_body(runs, length, width, columns, rows, out, outStride, copy, copyStride, words,
                              transparent, box, spans, spans_left, 1);
}
#endif

long gif_draw_runs(const uint8_t *runs, long length, long width, long columns, long rows, uint32_t *out,
                   long outStride, uint32_t *copy, long copyStride, const uint32_t *words, int transparent,
                   long *box, long *spans, long spans_left, int avx2) {
    if (width <= 0 || columns <= 0 || rows <= 0) return 0;
    if (columns > width) columns = width;
#if defined(__x86_64__)
    if (avx2) {
        return gif_draw_runs_avx2(runs, length, width, columns, rows, out, outStride, copy, copyStride, words,
                                  transparent, box, spans, spans_left);
    }
#else
    (void)avx2;
#endif
    return gif_draw_runs_body(runs, length, width, columns, rows, out, outStride, copy, copyStride, words,
                              transparent, box, spans, spans_left, 0);
}
