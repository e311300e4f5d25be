#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a probe process reports about itself, read without Foundation, so
/// that a probe that links only the library keeps a library-sized process.
public enum ProcessFigures {
    /// Peak (VmHWM) and current (VmRSS) resident memory in KiB, from
    /// `/proc/self/status`; zeros where there is no such file.
    public static func residentMemory() -> (peakKiB: Int, currentKiB: Int) {
        guard let file = fopen("/proc/self/status", "r") else { return (0, 0) }
        defer { fclose(file) }
        var peak = 0, current = 0
        var buffer = [CChar](repeating: 0, count: 256)
        while fgets(&buffer, Int32(buffer.count), file) != nil {
            let line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if line.hasPrefix("VmHWM:") { peak = kibibytes(in: line) }
            if line.hasPrefix("VmRSS:") { current = kibibytes(in: line) }
        }
        return (peak, current)
    }

    /// The number in a `/proc/self/status` line such as `VmRSS:  1234 kB`.
    private static func kibibytes(in line: String) -> Int {
        line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
    }

    /// Process CPU seconds so far (user + system, every thread).
    public static func processCPUSeconds() -> Double {
        var usage = rusage()
        #if canImport(Glibc)
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
}

/// One line of probe output: `probe LABEL key=value …`, in a fixed order.
/// Memory fields are KiB, times nanoseconds.
public struct ProbeLine: CustomStringConvertible {
    /// What the line reports: `setup`, `loop`, `lap` or `malloc-check`.
    public var label: String
    /// The values by name.
    public var fields: [String: Int]

    /// The keys in print order; others follow sorted.
    private static let order = [
        "n", "players", "ns", "hwm", "rss", "mallocs", "frames", "hits", "misses", "decodes", "evictions", "touched",
    ]

    public var description: String {
        let keys = Self.order.filter { fields[$0] != nil } + fields.keys.filter { !Self.order.contains($0) }.sorted()
        return (["probe", label] + keys.map { "\($0)=\(fields[$0]!)" }).joined(separator: " ")
    }

    /// Parses a line printed by ``description``; `nil` for any other line.
    public init?(parsing line: Substring) {
        let words = line.split(separator: " ")
        guard words.count >= 2, words[0] == "probe" else { return nil }
        label = String(words[1])
        fields = [:]
        for word in words.dropFirst(2) {
            let pair = word.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, let value = Int(pair[1]) else { continue }
            fields[String(pair[0])] = value
        }
    }

    /// A line to print.
    public init(label: String, fields: [String: Int]) {
        self.label = label
        self.fields = fields
    }
}
