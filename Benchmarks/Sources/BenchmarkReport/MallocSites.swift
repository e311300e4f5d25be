import MallocInterposerSwift

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where allocations come from: a backtrace for each allocation counted while
/// recording (up to ``capacity``), taken by MallocInterposerSwift's
/// allocation hook into memory reserved beforehand, printed afterwards as
/// `site` lines of `library+offset` frames for `llvm-symbolizer`.
///
/// The hook may not allocate; when two threads allocate at once, or the
/// hook's own `backtrace` allocates, the second allocation is not recorded.
enum MallocSites {
    /// The most backtraces kept.
    static let capacity = 4096

    /// Frames kept per backtrace.
    static let depth = 24

    nonisolated(unsafe) private static var frames = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(
        capacity: capacity * depth)
    nonisolated(unsafe) private static var counts = UnsafeMutablePointer<Int32>.allocate(capacity: capacity)
    nonisolated(unsafe) private static var recorded = 0
    /// glibc's `backtrace` and `dladdr`, looked up at run time (the Glibc
    /// module does not declare them).
    private typealias Backtrace = @convention(c) (UnsafeMutablePointer<UnsafeMutableRawPointer?>, Int32) -> Int32
    private typealias AddressInfo = @convention(c) (UnsafeRawPointer, UnsafeMutableRawPointer) -> Int32
    private static let backtrace: Backtrace = unsafeBitCast(dlsym(nil, "backtrace"), to: Backtrace.self)
    private static let dladdr: AddressInfo = unsafeBitCast(dlsym(nil, "dladdr"), to: AddressInfo.self)

    nonisolated(unsafe) private static var lock: UnsafeMutablePointer<pthread_mutex_t> = {
        let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        pthread_mutex_init(lock, nil)
        return lock
    }()

    /// Records a backtrace for every allocation `body` makes (every thread).
    static func record<T>(_ body: () async throws -> T) async rethrows -> T {
        _ = lock
        // The first backtrace loads the unwinder, which allocates.
        _ = backtrace(frames, Int32(depth))
        recorded = 0
        MallocInterposerSwift.setAllocationHook(hook)
        defer { MallocInterposerSwift.setAllocationHook(nil) }
        let (result, _) = try await ProcessProbe.countingMallocs(body)
        return result
    }

    private static let hook: MallocInterposerSwift.AllocationHook = { _ in
        guard pthread_mutex_trylock(MallocSites.lock) == 0 else { return }
        defer { pthread_mutex_unlock(MallocSites.lock) }
        let index = MallocSites.recorded
        guard index < MallocSites.capacity else { return }
        MallocSites.recorded = index + 1
        MallocSites.counts[index] = backtrace(MallocSites.frames + index * MallocSites.depth, Int32(MallocSites.depth))
    }

    /// Prints each recorded backtrace as one line:
    /// `site FILE+0xOFFSET FILE+0xOFFSET …`, innermost frame first.
    static func printSites() {
        // Dl_info: file name, file base, symbol name, symbol address.
        let info = UnsafeMutablePointer<UnsafeRawPointer?>.allocate(capacity: 4)
        defer { info.deallocate() }
        for index in 0..<recorded {
            var words = ["site"]
            for frame in 0..<Int(counts[index]) {
                guard let address = frames[index * depth + frame], dladdr(address, info) != 0,
                    let file = info[0], let base = info[1]
                else { continue }
                let offset = Int(bitPattern: address) - Int(bitPattern: base) - 1
                words.append(String(cString: file.assumingMemoryBound(to: CChar.self)) + "+0x" + String(offset, radix: 16))
            }
            print(words.joined(separator: " "))
        }
    }
}
