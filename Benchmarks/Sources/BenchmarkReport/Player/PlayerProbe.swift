import BenchmarkSupport
import MallocInterposerSwift
@_spi(Benchmarks) import Playback

/// The child side of the player figures: `BenchmarkReport --player-probe …`
/// plays one workload in this fresh process, so that its peak resident
/// memory is the player's alone, and prints one parseable line per loop.
///
/// Modes:
/// - `[--paced] WORKLOAD [LOOPS]`: one player, ``loops`` loops (or `LOOPS`);
///   `--paced` waits for the cache's prefetch before each frame change.
/// - `playlist`: a ``Playlist`` of every workload file, one lap.
/// - `feed-path PATH [cell]` / `feed-memory PATH`: the feed path's steady loop
///   and one default player's memory (see ``FeedPath``).
/// - `steady WORKLOAD`: one player, four paced loops, the last one's process
///   CPU time against the C baseline's (see ``SteadyLoop``).
/// - `nine-shared WORKLOAD` / `nine-private WORKLOAD`: nine players on one
///   epoch, one loop, sharing one frame cache or each with its own.
/// - `malloc-sites WORKLOAD [LOOPS]`: one player, the last of ``loops``
///   loops (or `LOOPS`) with a backtrace per allocation (see ``MallocSites``).
/// - `malloc-check`: counts 1,000 array allocations, to show that malloc
///   counting works in this process.
///
/// Each line is `probe` then `key=value` fields (see ``ProbeLine``).
enum PlayerProbe {
    /// Loops a single player plays.
    static let loops = 3

    /// Players in a nine-player probe.
    static let groupSize = 9

    /// Runs the probe named by `arguments` and returns the exit status.
    static func main(_ arguments: [String]) async -> Int32 {
        MallocInterposerSwift.initialize()
        let paced = arguments.contains("--paced")
        let arguments = arguments.filter { $0 != "--paced" }
        do {
            switch arguments.first {
            case "malloc-check":
                print(ProbeLine(label: "malloc-check", fields: ["mallocs": await ProcessProbe.mallocCountCheck()]))
            case "malloc-sites":
                guard arguments.count > 1, let file = location(of: arguments[1]) else { return usage() }
                try await mallocSites(
                    path: file.path, loops: arguments.dropFirst(2).first.flatMap { Int($0) } ?? loops, paced: paced)
            case "playlist":
                try await playlist()
            case "feed-path":
                guard arguments.count > 1 else { return usage() }
                try await FeedPath.probe(path: arguments[1], inCell: arguments.dropFirst(2).first == "cell")
            case "realtime-grid":
                try await RealTimeGrid.probe(
                    seconds: arguments.dropFirst().first.flatMap { Double($0) } ?? RealTimeGrid.seconds,
                    variant: arguments.dropFirst(2).first.flatMap { RealTimeGrid.Variant(rawValue: $0) } ?? .cells)
            case "full-grid":
                try await FullGrid.probe(cutName: arguments.dropFirst().first, cutPath: arguments.dropFirst(2).first)
            case "feed-memory":
                guard arguments.count > 1 else { return usage() }
                try await FeedPath.memoryProbe(path: arguments[1])
            case "steady":
                guard arguments.count > 1 else { return usage() }
                try await SteadyLoop.probe(name: arguments[1])
            case "nine-shared", "nine-private":
                guard arguments.count > 1, let file = location(of: arguments[1]) else { return usage() }
                try await nine(path: file.path, sharingCache: arguments[0] == "nine-shared")
            case let name?:
                guard let file = location(of: name) else { return usage() }
                let count = arguments.dropFirst().first.flatMap { Int($0) } ?? loops
                try await single(path: file.path, loops: count, paced: paced)
            case nil:
                return usage()
            }
            return 0
        } catch {
            print("probe failed: \(error)")
            return 1
        }
    }

    private static func usage() -> Int32 {
        print("usage: --player-probe [--paced] WORKLOAD [LOOPS] | playlist | steady WORKLOAD | nine-shared WORKLOAD | nine-private WORKLOAD | malloc-check")
        print("       --player-probe [--paced] malloc-sites WORKLOAD [LOOPS]")
        print("workloads: \(Workload.locations().map(\.name).joined(separator: " "))")
        return 2
    }

    private static func location(of name: String) -> (name: String, path: String)? {
        Workload.locations().first { $0.name == name }
    }

    /// One player, `loops` loops, a line after setup and after each loop;
    /// `paced`: waiting before each frame change until the cache has decoded
    /// what it was asked to prefetch (a host that never outruns the decoder).
    private static func single(path: String, loops: Int, paced: Bool) async throws {
        let run = try await HostDrivenPlayers.single(path: path)
        printSetup(players: 1)
        for loop in 1...max(1, loops) {
            try await measure(label: "loop", number: loop, frames: run.frameCount, statistics: run.statistics) {
                try await run.playLoop(paced: paced)
            }
        }
    }


    /// One player, `loops` loops (paced or not), the last one's allocations
    /// recorded.
    private static func mallocSites(path: String, loops: Int, paced: Bool) async throws {
        let run = try await HostDrivenPlayers.single(path: path)
        for _ in 1..<max(1, loops) { _ = try await run.playLoop(paced: paced) }
        _ = try await MallocSites.record { try await run.playLoop(paced: paced) }
        MallocSites.printSites()
    }

    /// ``groupSize`` players advanced together through one loop.
    private static func nine(path: String, sharingCache: Bool) async throws {
        let run = try await HostDrivenPlayers.group(count: groupSize, path: path, sharingCache: sharingCache)
        printSetup(players: groupSize)
        try await measure(label: "loop", number: 1, frames: run.frameCount * groupSize, statistics: run.statistics) {
            try await run.playLoop()
        }
    }

    /// Every workload file as one playlist, one lap.
    private static func playlist() async throws {
        let run = try await HostDrivenPlaylist.start(files: Workload.locations())
        printSetup(players: 1)
        // A playlist keeps its caches to itself: no statistics here.
        try await measure(label: "lap", number: 1, frames: run.framesPerLap, statistics: { FrameCacheStatistics() }) {
            try await run.playLap()
        }
    }

    private static func printSetup(players: Int) {
        let memory = ProcessFigures.residentMemory()
        print(ProbeLine(label: "setup", fields: ["players": players, "hwm": memory.peakKiB, "rss": memory.currentKiB]))
    }

    /// Times `body` with malloc counting on, then prints its line: time,
    /// memory after it, mallocs, frames shown, and the cache counters it
    /// added.
    private static func measure(
        label: String, number: Int, frames: Int,
        statistics: () async -> FrameCacheStatistics,
        _ body: () async throws -> Int
    ) async throws {
        let before = await statistics()
        let start = ContinuousClock.now
        let (touched, mallocs) = try await ProcessProbe.countingMallocs(body)
        let elapsed = start.duration(to: .now)
        let memory = ProcessFigures.residentMemory()
        let after = await statistics()
        print(ProbeLine(label: label, fields: [
            "n": number,
            "ns": Int(elapsed.components.seconds) * 1_000_000_000 + Int(elapsed.components.attoseconds / 1_000_000_000),
            "hwm": memory.peakKiB, "rss": memory.currentKiB,
            "mallocs": mallocs, "frames": frames,
            "hits": after.hits - before.hits, "misses": after.misses - before.misses,
            "decodes": after.decodes - before.decodes, "evictions": after.evictions - before.evictions,
            "touched": touched & 0xff,
        ]))
    }
}
