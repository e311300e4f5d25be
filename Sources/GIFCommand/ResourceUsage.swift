#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's resource usage, from `getrusage`.
enum ResourceUsage {
    /// The peak resident set size so far, in bytes (`ru_maxrss`, which Linux
    /// counts in KiB and Darwin in bytes).
    static var peakResidentBytes: Int {
        var usage = rusage()
        #if canImport(Glibc)
        let who = __rusage_who_t(RUSAGE_SELF.rawValue)  // Glibc imports RUSAGE_SELF as an enum case.
        #else
        let who = RUSAGE_SELF
        #endif
        guard getrusage(who, &usage) == 0 else { return 0 }
        #if canImport(Darwin)
        return Int(usage.ru_maxrss)
        #else
        return Int(usage.ru_maxrss) * 1024
        #endif
    }
}
