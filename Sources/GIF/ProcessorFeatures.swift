import CGIFLib

/// What the processor this runs on offers the decoder's vector paths.
enum ProcessorFeatures {
    /// Whether this is an x86-64 processor (and operating system) with
    /// AVX-512 F, BW and VBMI: Zen 4, Intel from Ice Lake on. Both the
    /// compositor's rows and the LZW code walk have a path for it; elsewhere,
    /// and under valgrind (which hides AVX-512), they run as portable Swift
    /// with the same results. Asked of the processor once.
    static let hasAVX512VBMI: Bool = {
        #if arch(x86_64)
        return gif_cpu_has_avx512_vbmi() != 0
        #else
        return false
        #endif
    }()
}
