/// The box filter's exact means: sums divided by their weights and
/// rounded half up, four channels at a time, with a multiply and a shift
/// in place of a division; and whether the processor has AVX2, for the
/// AVX2 copy of the 32-bit pass. Included by box_filter.c alone.
#ifndef BOX_FILTER_MEANS_H
#define BOX_FILTER_MEANS_H
#include <stdint.h>

/// Four 32-bit lanes, one a channel: a pixel's sums, added and scaled
/// together (one SSE or NEON register). Signed, so that they convert to and
/// from doubles in one instruction.
typedef int32_t lanes __attribute__((vector_size(16)));
typedef uint8_t pixel_bytes __attribute__((vector_size(4)));

typedef double wide __attribute__((vector_size(32)));

/// Writes round(sum / divisor), half up, exactly, as bytes: the colour
/// lanes by `colour`, the alpha lane by `area`, given their inverses. With
/// n = sum + floor(d / 2), an integer, the mean is floor(n / d) =
/// floor((n + 1/2) × inverse) in doubles: n / d + 1 / 2d lies at least
/// 1 / 2d ≥ 2^-32 from every integer, while the product, at most 256, is
/// off by at most 2^-43.
static inline void store_means(
    lanes sums, int32_t colour, int32_t area, double colour_inverse, double area_inverse, uint8_t *output) {
    const wide inverse = {colour_inverse, colour_inverse, colour_inverse, area_inverse};
    const lanes halves = {colour / 2, colour / 2, colour / 2, area / 2};
    // The halves are added in doubles: a straight colour sum near 2^31
    // plus half the alpha sum passes it.
    const wide numerator = __builtin_convertvector(sums, wide) + __builtin_convertvector(halves, wide) + 0.5;
    const lanes q = __builtin_convertvector(numerator * inverse, lanes);
    const pixel_bytes bytes = __builtin_convertvector(q, pixel_bytes);
    __builtin_memcpy(output, &bytes, 4);
}

typedef uint32_t unsigned_lanes __attribute__((vector_size(16)));
typedef uint64_t quads __attribute__((vector_size(32)));

/// Division by one divisor `d` up to 2^16 as a multiply and a shift:
/// floor(n / d) = (n × multiplier) >> shift for every n below 2^24, with
/// shift = 24 + ceil(log2 d) and multiplier = ceil(2^shift / d), below
/// 2^26. (The multiplier is (2^shift + e) / d with e < d ≤ 2^(shift - 24),
/// so n × multiplier / 2^shift overshoots n / d by n e / (d 2^shift) < 1 / d:
/// never to the next integer.) In lanes, ready for `store_area_means`.
typedef struct {
    quads multiplier;
    quads shift;
    lanes half;
} divisor;

static inline divisor make_divisor(int32_t d) {
    uint64_t log = 0;
    while (((int64_t)1 << log) < d) log++;
    const uint64_t shift = 24 + log, multiplier = (((uint64_t)1 << shift) + (uint64_t)d - 1) / (uint64_t)d;
    return (divisor){
        {multiplier, multiplier, multiplier, multiplier}, {shift, shift, shift, shift}, {d / 2, d / 2, d / 2, d / 2}};
}

/// Writes round(sum / d), half up, exactly, as bytes, for sums up to 255
/// × d (premultiplied means: all four lanes by the area, at most 33,024,
/// so every numerator is below 2^24).
static inline void store_area_means(lanes sums, const divisor *d, uint8_t *output) {
    const unsigned_lanes numerator = (unsigned_lanes)(sums + d->half);
    // The multiplier's high half is zero: one 32 × 32 → 64-bit multiply.
    const quads product = __builtin_convertvector(numerator, quads) * (d->multiplier & 0xFFFFFFFF);
    const pixel_bytes bytes = __builtin_convertvector(product >> d->shift, pixel_bytes);
    __builtin_memcpy(output, &bytes, 4);
}

typedef uint32_t unsigned_lanes_8 __attribute__((vector_size(32)));
typedef uint64_t quads_4 __attribute__((vector_size(32)));
typedef uint8_t pixel_bytes_2 __attribute__((vector_size(8)));

/// ``store_area_means`` for two pixels' sums, `a` then `b`: eight lanes
/// divided at once, the even and odd lanes each by one 32 × 32 → 64-bit
/// multiply a pair (one AVX2 instruction for four), not four lanes widened
/// to 64 bits a pixel.
static inline void store_area_means_2(lanes a, lanes b, const divisor *d, uint8_t *output) {
    const unsigned_lanes_8 numerator =
        (unsigned_lanes_8)__builtin_shufflevector(a + d->half, b + d->half, 0, 1, 2, 3, 4, 5, 6, 7);
    // The multiplier's high half is zero (below 2^26): masked, so that the
    // compiler knows each product is one 32 × 32 → 64-bit multiply.
    const uint64_t m = d->multiplier[0] & 0xFFFFFFFF, k = d->shift[0];
    const quads_4 wide = (quads_4)numerator, multiplier = {m, m, m, m}, shift = {k, k, k, k};
    // Quotients below 2^8: each fits its lane, the high half of the
    // product shifted out.
    const quads_4 even = ((wide & 0xFFFFFFFF) * multiplier) >> shift, odd = ((wide >> 32) * multiplier) >> shift;
    const unsigned_lanes_8 q = (unsigned_lanes_8)(even | odd << 32);
    const pixel_bytes_2 bytes = __builtin_convertvector(q, pixel_bytes_2);
    __builtin_memcpy(output, &bytes, 8);
}

/// On x86-64 Linux, a second copy for processors with AVX2, chosen at each
/// call (a few loads, beside a whole pass): the baseline (SSE2) has no
/// 32-bit lane multiply. Not chosen by an ifunc resolver
/// (`target_clones`): a static executable runs every resolver before
/// `main`, and the compiler's asks the processor afresh with a dozen
/// `cpuid` instructions, each a trap to the hypervisor in a virtual
/// machine; glibc has asked already, and
/// `<sys/platform/x86.h>` reads its answers.
#if defined(__x86_64__) && defined(__linux__)
#define WITH_AVX2_COPY 1
#if defined(__GLIBC__) && __has_include(<sys/platform/x86.h>)
#include <sys/platform/x86.h>
static inline int has_avx2(void) { return CPU_FEATURE_ACTIVE(AVX2); }
#else
static inline int has_avx2(void) { return __builtin_cpu_supports("avx2"); }
#endif
#else
#define WITH_AVX2_COPY 0
#endif

#endif
