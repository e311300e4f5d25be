import BenchmarkSupport
import Foundation
import GIF
@_spi(Benchmarks) import GIFPlayback
@_spi(Benchmarks) import Playback

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The index tier's figure: the CPU one loop of a looping GIF costs once
/// every frame's palette indices are stored, over the C baseline's decode
/// and composite of the same frames.
///
/// Child side (`--player-probe steady WORKLOAD`): in one fresh process, the
/// C baseline decodes the whole file three times (the least process CPU time
/// kept). Then the two host-driven paths play four loops each, every frame
/// drawn:
/// - a ``DrawingPlayer`` with its default budgets, advanced to each frame
///   change and drawn into a host buffer of the canvas's size (the figure);
/// - a ``Player`` with the default budgets, paced (waiting before each frame
///   change for the cache's prefetch, as a host drawing in real time
///   would), each frame's `currentImage()` fetched (for comparison).
/// The line holds, for each path, the process CPU time (getrusage user +
/// system, every thread) of loop 4 alone and the giflib decodes in loops 1
/// and 4.
///
/// Parent side (``printSection(preload:)``): one probe per workload, the
/// ratios and their target.
enum SteadyLoop {
    /// The animations measured: every one the benchmarks have (the
    /// workloads, the command figures' files, which nothing was tuned on,
    /// and the generated screen recording), by path.
    static var workloads: [String] { FeedPath.animations().map(\.path) }

    /// Loops the probe plays; the figure is the last one.
    static let loops = 4

    /// The target for loop 4's CPU time over the C baseline's.
    static let target = 0.10

    /// The path of `name`: itself when it holds a `/`, a workload, or else
    /// a GIF in `Fixtures/` (which may be missing: ``printSection(preload:)``
    /// checks).
    static func path(of name: String) -> String {
        if name.contains("/") { return name }
        if let location = Workload.locations().first(where: { $0.name == name }) { return location.path }
        return Workload.packageRoot + "/Fixtures/\(name).gif"
    }

    /// The least process CPU time of three C baseline decodes of `bytes`, in
    /// seconds: the figure a loop is divided by. Adds the decodes' results
    /// to `sink`.
    static func leastCBaselineCPU(_ bytes: [UInt8], runs: Int = 3, sink: inout Int) -> Double {
        var least = Double.infinity
        for _ in 0..<max(1, runs) {
            let start = ProcessFigures.processCPUSeconds()
            sink &+= Decoders.cBaseline(bytes)
            least = min(least, ProcessFigures.processCPUSeconds() - start)
        }
        return least
    }

    /// The child side: prints one `probe steady …` line.
    static func probe(name: String) async throws {
        let path = path(of: name)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        var sink = 0
        let c = SteadyLoop.leastCBaselineCPU(bytes, sink: &sink)
        let drawing = try drawingLoops(bytes: bytes, sink: &sink)
        let run = try await HostDrivenPlayers.single(path: path)
        let source = run.players[0].source as? GIFFrameSource
        var cpu: [Double] = [ProcessFigures.processCPUSeconds()]
        var decodes: [Int] = [source?.decodeCount ?? -1]
        for _ in 1...loops {
            sink &+= try await run.playLoop(paced: true)
            await run.waitForPrefetch()
            cpu.append(ProcessFigures.processCPUSeconds())
            decodes.append(source?.decodeCount ?? -1)
        }
        print(ProbeLine(label: "steady", fields: [
            "frames": run.frameCount, "c_ns": ns(c),
            "draw_loop4_ns": ns(drawing.cpu[4] - drawing.cpu[3]),
            "draw_decodes1": drawing.decodes[1] - drawing.decodes[0],
            "draw_decodes4": drawing.decodes[4] - drawing.decodes[3], "draw_state_bytes": drawing.stateBytes,
            "loop4_ns": ns(cpu[4] - cpu[3]),
            "decodes1": decodes[1] - decodes[0], "decodes4": decodes[4] - decodes[3],
            "index_bytes": source?.indexBytes ?? -1, "touched": sink & 0xff,
        ]))
    }

    private static func ns(_ seconds: Double) -> Int { Int(seconds * 1e9) }

    /// ``loops`` loops of a ``DrawingPlayer`` with its default budgets, each
    /// frame change drawn into a buffer of the canvas's size: the process CPU
    /// time and the giflib decodes so far before loop 1 and after each loop,
    /// and the indices and checkpoints held at the end.
    static func drawingLoops(
        bytes: [UInt8], sink: inout Int
    ) throws -> (cpu: [Double], decodes: [Int], stateBytes: Int) {
        var (player, buffer) = try DrawingPlayer.looping(try GIFImage(bytes: bytes))
        let bytesPerRow = player.width * 4
        var cpu = [ProcessFigures.processCPUSeconds()], decodes = [player.decodeCount]
        for _ in 1...loops {
            sink &+= try player.drawFrameChanges(player.image.info.frameCount, into: &buffer, bytesPerRow: bytesPerRow)
            guard player.playhead.currentFrame == 0 else {
                throw PlayerWorkloadError.notOneLoop(expectedLoops: 1, loops: 0, frame: player.playhead.currentFrame)
            }
            cpu.append(ProcessFigures.processCPUSeconds())
            decodes.append(player.decodeCount)
        }
        return (cpu, decodes, player.checkpointAndIndexBytes)
    }

    /// The parent side: the table of the figures.
    static func printSection(preload: String?) {
        Workload.requireReadable(workloads.map(path(of:)), for: "the steady-loop figure")
        var rows: [[String]] = []
        for path in workloads {
            let name = String(path.split(separator: "/").last!.dropLast(4))
            let (status, output) = ProcessProbe.runSelf(["--player-probe", "steady", path], preload: preload)
            guard status == 0, let line = output.split(separator: "\n").compactMap({ ProbeLine(parsing: $0) })
                .first(where: { $0.label == "steady" })
            else {
                rows.append([name, "probe failed (status \(status))", "", "", "", "", "", "", "", ""])
                continue
            }
            let f = line.fields
            let c = Double(f["c_ns"] ?? 0) / 1e9
            func ratio(_ key: String) -> Double {
                c > 0 ? Double(f[key] ?? 0) / 1e9 / c : .infinity
            }
            let drawn = ratio("draw_loop4_ns"), played = ratio("loop4_ns")
            let decodes = f["draw_decodes4"] ?? -1
            rows.append([
                name, "\(f["frames"] ?? 0)", Timing.milliseconds(c),
                Timing.milliseconds(Double(f["draw_loop4_ns"] ?? 0) / 1e9),
                Timing.ratio(drawn) + (drawn <= target ? " met" : " NOT MET"),
                "\(f["draw_decodes1"] ?? -1)", "\(decodes)" + (decodes == 0 ? " met" : " NOT MET"),
                Timing.format(Double(f["draw_state_bytes"] ?? 0) / 1_048_576, digits: 2),
                Timing.ratio(played), "\(f["decodes4"] ?? -1)",
            ])
        }
        Timing.printTable(
            header: [
                "steady loop (index tier)", "frames", "C CPU ms", "DrawingPlayer loop 4 CPU ms",
                "loop 4 ×C (≤ 0.10)", "giflib decodes loop 1", "decodes loop 4 (0)", "indices + checkpoints MiB",
                "Player loop 4 ×C", "Player decodes loop 4",
            ],
            rows: rows)
        print()
        let budget = DecodingBudget.default
        print("Each workload in a fresh process; 4 loops, every frame drawn. DrawingPlayer: default budget (\(budget.indexBytes >> 20) MiB")
        print("  indices, \(budget.checkpointBytes >> 20) MiB checkpoints), advanced to each frame change and drawn into a canvas-sized buffer on")
        print("  the calling thread. Player (for comparison): default budgets (32 MiB frame cache, the same decoding")
        print("  budget), paced, currentImage() per frame through the cache and the decode thread.")
        print("  Loop 4 CPU: process CPU time (getrusage user + system, every thread) of loop 4 alone. ×C: over the")
        print("  least of 3 C baseline decode + composite of the whole file, same process, CPU time. Decodes: frames")
        print("  giflib decoded in that loop (DrawingPlayer.decodeCount, GIFFrameSource.decodeCount).")
    }
}
