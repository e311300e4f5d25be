#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Wall-clock timing by interleaved rounds, and table printing.
enum Timing {
    /// Seconds per call of each body: each round times every body once (a
    /// batch of calls long enough to time), in turn; the result is each
    /// body's median over the rounds, and its best.
    ///
    /// With `settling`, each batch is preceded by one untimed call of the
    /// same body, so that every body is timed in the state its own calls
    /// leave the process in (the allocator's free lists and trimmed heap,
    /// the pages it has faulted in) rather than the state the body before
    /// it left. Without it, whichever body follows one that frees a large
    /// buffer pays for that: on large-gif-checkerboard (13 MB canvas) the
    /// body right after the C baseline measured 17–21 ms and the same code
    /// one place later 14–15 ms.
    static func rounds(
        _ count: Int, settling: Bool = false, _ bodies: [() -> Void]
    ) -> (median: [Double], best: [Double]) {
        summary(roundSamples(count, settling: settling, bodies))
    }

    /// Each body's median and best over the rounds of ``roundSamples(_:settling:_:)``.
    static func summary(_ samples: [[Double]]) -> (median: [Double], best: [Double]) {
        (samples.map { $0.sorted()[$0.count / 2] }, samples.map { $0.min()! })
    }

    /// Each body's seconds per call in each round, as ``rounds(_:settling:_:)``
    /// times them: `[body][round]`. With `threadCPU`, the seconds are this
    /// thread's CPU time rather than wall time, which other processes on a
    /// loaded machine disturb less (for single-threaded bodies).
    static func roundSamples(
        _ count: Int, settling: Bool = false, threadCPU: Bool = false, _ bodies: [() -> Void]
    ) -> [[Double]] {
        let clock = threadCPU ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC
        // Warm up and size the batches so that one batch takes ≥ 20 ms.
        let batches = bodies.map { body -> Int in
            let once = time(body, repeats: 1, clock: clock)
            return max(1, Int((0.02 / max(once, 1e-9)).rounded(.up)))
        }
        var samples = [[Double]](repeating: [], count: bodies.count)
        for _ in 0..<count {
            for (i, body) in bodies.enumerated() {
                if settling { body() }
                samples[i].append(time(body, repeats: batches[i], clock: clock) / Double(batches[i]))
            }
        }
        return samples
    }

    /// The median over the rounds of each round's ratio of `samples[body]`
    /// to `samples[baseline]`: the two were timed back to back, so a slow
    /// spell of the machine that spans the round weighs on both.
    static func pairedRatio(_ samples: [[Double]], _ body: Int, over baseline: Int) -> Double {
        let ratios = zip(samples[body], samples[baseline]).map { $0 / $1 }.sorted()
        return ratios[ratios.count / 2]
    }

    private static func time(_ body: () -> Void, repeats: Int, clock: clockid_t) -> Double {
        let start = now(clock)
        for _ in 0..<repeats { body() }
        return now(clock) - start
    }

    /// The seconds `clock` reads (`CLOCK_MONOTONIC`, or
    /// `CLOCK_THREAD_CPUTIME_ID` for the calling thread's CPU time).
    static func now(_ clock: clockid_t) -> Double {
        var spec = timespec()
        clock_gettime(clock, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    static var processorCount: Int { Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

    /// User + system CPU seconds of each of this process's threads that used
    /// any, from `/proc/self/task` (empty where there is none).
    static func threadCPUSeconds() -> [Double] {
        guard let directory = opendir("/proc/self/task") else { return [] }
        defer { closedir(directory) }
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        var result: [Double] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name.first?.isNumber == true, let file = fopen("/proc/self/task/\(name)/stat", "r") else { continue }
            defer { fclose(file) }
            var buffer = [CChar](repeating: 0, count: 1024)
            guard fgets(&buffer, 1024, file) != nil else { continue }
            let line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            // Fields after the command name, which ends at the last ")".
            guard let close = line.lastIndex(of: ")") else { continue }
            let fields = line[line.index(after: close)...].split(separator: " ")
            guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { continue }
            if user + system > 0 { result.append((user + system) / ticks) }
        }
        return result.sorted(by: >)
    }

    /// The 1-minute load average, as text.
    static var loadAverage: String {
        var loads = [Double](repeating: 0, count: 3)
        guard getloadavg(&loads, 3) > 0 else { return "unknown" }
        return format(loads[0], digits: 2)
    }

    static func milliseconds(_ seconds: Double) -> String {
        format(seconds * 1000, digits: 2)
    }

    static func ratio(_ value: Double, digits: Int = 2) -> String {
        format(value, digits: digits)
    }

    static func format(_ value: Double, digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        var text = "\(rounded)"
        if digits == 0 {
            text = "\(Int(rounded))"
        } else {
            let parts = text.split(separator: ".", omittingEmptySubsequences: false)
            let fraction = parts.count > 1 ? String(parts[1]) : ""
            text = String(parts[0]) + "." + fraction + String(repeating: "0", count: max(0, digits - fraction.count))
        }
        return text
    }

    /// A Markdown table, columns padded.
    static func printTable(header: [String], rows: [[String]]) {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            "| " + cells.enumerated().map { i, cell in
                i < 3 ? cell + String(repeating: " ", count: widths[i] - cell.count)
                    : String(repeating: " ", count: widths[i] - cell.count) + cell
            }.joined(separator: " | ") + " |"
        }
        print(line(header))
        print("|" + widths.enumerated().map { i, width in
            i < 3 ? String(repeating: "-", count: width + 2) : String(repeating: "-", count: width + 1) + ":"
        }.joined(separator: "|") + "|")
        for row in rows { print(line(row)) }
    }
}
