#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Wall-clock timing by interleaved rounds, and table printing.
enum Timing {
    /// Seconds per call of each body: each round times every body once (a
    /// batch of calls long enough to time), in turn; the result is each
    /// body's median over the rounds.
    static func rounds(_ count: Int, _ bodies: [() -> Void]) -> [Double] {
        // Warm up and size the batches so that one batch takes ≥ 20 ms.
        let batches = bodies.map { body -> Int in
            let once = time(body, repeats: 1)
            return max(1, Int((0.02 / max(once, 1e-9)).rounded(.up)))
        }
        var samples = [[Double]](repeating: [], count: bodies.count)
        for _ in 0..<count {
            for (i, body) in bodies.enumerated() {
                samples[i].append(time(body, repeats: batches[i]) / Double(batches[i]))
            }
        }
        return samples.map { $0.sorted()[$0.count / 2] }
    }

    private static func time(_ body: () -> Void, repeats: Int) -> Double {
        let start = now()
        for _ in 0..<repeats { body() }
        return now() - start
    }

    private static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    static var processorCount: Int { Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

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
