#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Hands the pages of freed memory back to the system, for a
/// ``FrameMemoryBudget`` that has just given back frames or decoding state.
///
/// glibc's allocator keeps the pages of a freed block inside its heaps (only
/// the top of a heap is returned), so a feed whose players come and go and
/// whose frames differ in size leaves the freed frames' pages resident: in
/// the nine-grid benchmark about 7 MiB above what the budget holds. glibc's
/// `malloc_trim(0)` returns every whole free page (`MADV_DONTNEED`), which is
/// what jemalloc's decay and Darwin's allocator do by themselves. It is
/// looked up at run time, so a C library without it (musl) is left alone,
/// and Darwin needs nothing.
enum FreedMemory {
    #if canImport(Glibc)
    private typealias Trim = @convention(c) (Int) -> Int32
    /// glibc's `malloc_trim`, if this process has it.
    private static let trim: Trim? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim").map {
        unsafeBitCast($0, to: Trim.self)
    }
    #endif

    /// The bytes given back after which the pages are returned: 256 KiB,
    /// a few 160 × 160 frames. Each return walks the heaps, and the pages
    /// come back zeroed when used again, so returning after every free
    /// would cost CPU time; a feed of small frames, which mostly reuse the
    /// pixels of frames evicted, pays it rarely. A larger threshold lets a
    /// grid's peak (`BenchmarkReport --nine-grid`) sit higher; a smaller
    /// one returns no more.
    static let threshold = 1 << 18

    /// Returns the free pages of every heap to the system (glibc), or does
    /// nothing.
    static func returnToSystem() {
        #if canImport(Glibc)
        _ = trim?(0)
        #endif
    }
}
