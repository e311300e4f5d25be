import GIFKernels

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the processor this runs on offers the decoder's vector paths.
enum ProcessorFeatures {
    /// Whether this is an x86-64 processor (and operating system) with
    /// AVX-512 F, BW and VBMI: Zen 4, Intel from Ice Lake on. Both the
    /// compositor's rows and the LZW code walk have a path for it; elsewhere,
    /// and under valgrind (which hides AVX-512), the rows are drawn with
    /// AVX2 (``hasAVX2``) or portable Swift and the walk runs as portable
    /// Swift, with the same results. Asked of the processor once.
    ///
    /// Setting the environment variable `GIF_PORTABLE_LOOPS` (to anything)
    /// before the first decode turns the vector paths off, as simdjson's
    /// `SIMDJSON_FORCE_IMPLEMENTATION` does: to compare the two, or to rule
    /// them out.
    static let hasAVX512VBMI: Bool = {
        #if arch(x86_64)
        return gif_cpu_has_avx512_vbmi() != 0 && getenv("GIF_PORTABLE_LOOPS") == nil
        #else
        return false
        #endif
    }()

    /// Whether this is an x86-64 processor (and operating system) with
    /// AVX2: the compositor's gather path for rows, where AVX-512 VBMI is
    /// missing (Zen 1 to 3, Intel from Haswell on). `GIF_PORTABLE_LOOPS`
    /// turns it off too.
    static let hasAVX2: Bool = {
        #if arch(x86_64)
        return gif_cpu_has_avx2() != 0 && getenv("GIF_PORTABLE_LOOPS") == nil
        #else
        return false
        #endif
    }()
}
