import BenchmarkSupport
import Foundation
import GIFPlayback
import Playback

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The index tier's figure: the CPU one loop of a looping player costs once
/// every frame's palette indices are stored, over the C baseline's decode
/// and composite of the same frames.
///
/// Child side (`--player-probe steady WORKLOAD`): in one fresh process, the
/// C baseline decodes the whole file three times (the least process CPU time
/// kept), then one host-driven player with the default budgets plays four
/// paced loops (waiting before each frame change for the cache's prefetch,
/// as a host drawing in real time would; every frame drawn). The line holds
/// the process CPU time (getrusage user + system, every thread) of loop 4
/// alone, that of loop 3, and the giflib decodes the source made in loop 4.
///
/// Parent side (``printSection(preload:)``): one probe per workload, the
/// ratio and its target.
enum SteadyLoop {
    /// The workloads the figure is asked for: two corpus files and the
    /// generated screen recording (all frames' canvases far over the cache).
    static let workloads = ["gifplayer-muybridge", "sample_big", "screen-recording"]

    /// Loops the probe plays; the figure is the last one.
    static let loops = 4

    /// The target for loop 4's CPU time over the C baseline's.
    static let target = 0.15

    /// Process CPU seconds so far (user + system, every thread).
    static func processCPUSeconds() -> Double {
        var usage = rusage()
        #if canImport(Glibc)
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// The path of `name`: a workload, or a GIF in `Fixtures/`.
    static func path(of name: String) -> String? {
        if let location = Workload.locations().first(where: { $0.name == name }) { return location.path }
        let fixture = Workload.packageRoot + "/Fixtures/\(name).gif"
        return access(fixture, R_OK) == 0 ? fixture : nil
    }

    /// The child side: prints one `probe steady …` line.
    static func probe(name: String) async throws {
        guard let path = path(of: name) else { throw PlayerWorkloadError.nothingScheduled }
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        var c = Double.infinity
        var sink = 0
        for _ in 0..<3 {
            let start = processCPUSeconds()
            sink &+= Decoders.cBaseline(bytes)
            c = min(c, processCPUSeconds() - start)
        }
        let run = try await HostDrivenPlayers.single(path: path)
        let source = run.players[0].source as? GIFFrameSource
        var cpu: [Double] = [processCPUSeconds()]
        var decodes: [Int] = [source?.decodeCount ?? -1]
        for _ in 1...loops {
            sink &+= try await run.playLoop(paced: true)
            await run.waitForPrefetch()
            cpu.append(processCPUSeconds())
            decodes.append(source?.decodeCount ?? -1)
        }
        func ns(_ seconds: Double) -> Int { Int(seconds * 1e9) }
        print(ProbeLine(label: "steady", fields: [
            "frames": run.frameCount, "c_ns": ns(c),
            "loop3_ns": ns(cpu[3] - cpu[2]), "loop4_ns": ns(cpu[4] - cpu[3]),
            "decodes1": decodes[1] - decodes[0], "decodes4": decodes[4] - decodes[3],
            "index_bytes": source?.indexBytes ?? -1, "touched": sink & 0xff,
        ]))
    }

    /// The parent side: the table of the figures.
    static func printSection(preload: String?) {
        var rows: [[String]] = []
        for name in workloads {
            guard path(of: name) != nil else { continue }
            let (status, output) = ProcessProbe.runSelf(["--player-probe", "steady", name], preload: preload)
            guard status == 0, let line = output.split(separator: "\n").compactMap({ ProbeLine(parsing: $0) })
                .first(where: { $0.label == "steady" })
            else {
                rows.append([name, "probe failed (status \(status))", "", "", "", "", "", ""])
                continue
            }
            let f = line.fields
            let c = Double(f["c_ns"] ?? 0) / 1e9, loop4 = Double(f["loop4_ns"] ?? 0) / 1e9
            let ratio = c > 0 ? loop4 / c : .infinity
            let decodes = f["decodes4"] ?? -1
            rows.append([
                name, "\(f["frames"] ?? 0)", Timing.milliseconds(c), Timing.milliseconds(loop4),
                Timing.ratio(ratio) + (ratio <= target ? " met" : " NOT MET"),
                "\(f["decodes1"] ?? -1)", "\(decodes)" + (decodes == 0 ? " met" : " NOT MET"),
                Timing.format(Double(f["index_bytes"] ?? 0) / 1_048_576, digits: 2),
            ])
        }
        Timing.printTable(
            header: [
                "steady loop (index tier)", "frames", "C CPU ms", "loop 4 CPU ms", "loop 4 ×C (≤ 0.15)",
                "giflib decodes loop 1", "decodes loop 4 (0)", "indices MiB",
            ],
            rows: rows)
        print()
        print("One player, default budgets (32 MiB frame cache, 16 MiB indices, 8 MiB checkpoints), 4 paced loops,")
        print("  each workload in a fresh process. Loop 4 CPU: process CPU time (getrusage user + system, every")
        print("  thread) of loop 4 alone. ×C: over the least of 3 C baseline decode + composite of the whole file,")
        print("  same process, CPU time. Decodes: frames giflib decoded for the source (GIFFrameSource.decodeCount).")
    }
}
