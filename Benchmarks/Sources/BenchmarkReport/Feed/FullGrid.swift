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

/// Nine animations at full size under one 24 MiB budget: what a grid does
/// when the budget cannot hold what its players need to loop.
///
/// The nine-grid's files (one of them cut short mid-frame, as a download
/// that stopped), each through a `FrameCachePool` over one 24 MiB
/// `FrameMemoryBudget` with the README's defaults (`GIFFrameSource(
/// readingFramesFromFileAt:)`, `DecodingBudget.default`), at full size, in
/// one `GroupDriver` capped at 30 frames a second (no frame-rate policy:
/// the host waits out late draws on a held clock, so none is missed). Each player plays ``loops`` loops.
/// The host ticks the group with `GroupDriver.tickPlayers(at:)` at 60 Hz
/// refreshes of a `ManualClock` (skipping refreshes until the tick's next
/// change) and draws every changed player with `Player.draw`; a late draw
/// is retried, the clock held, until it gets through: the host asks for
/// each frame a tick names. Printed: frames shown, giflib decodes (every
/// path's), the peak of what the budget's members really held (the frames
/// and reservations it counts plus each source's decoding state as the
/// source reports it, sampled after every draw), against the budget's
/// limit, and the process's peak RSS.
///
/// `BenchmarkReport --full-grid` prints the section; the child runs
/// `BenchmarkReport --player-probe full-grid CUT_NAME CUT_PATH`.
enum FullGrid {
    /// Loops every player plays.
    static let loops = 3
    /// The driver's cap.
    static let frameRate = 30.0
    /// The host's refresh period: 60 Hz.
    static let refresh = Duration.nanoseconds(16_666_667)
    /// The target for giflib's decodes over the frames shown.
    static let decodeTarget = 2.0

    /// The child side.
    static func probe(cutName: String?, cutPath: String?) async throws {
        // FULL_GRID_BUDGET=BYTES: another budget, to see where the grid
        // stops fitting (the figure is the README's 24 MiB).
        let limit = getenv("FULL_GRID_BUDGET").flatMap { Int(String(cString: $0)) } ?? FeedPath.budgetBytes
        let budget = FrameMemoryBudget(byteBudget: limit)
        let pool = FrameCachePool(budget: budget)
        let clock = ManualClock()
        let group = GroupDriver(clock: clock, maximumFrameRate: frameRate)
        let configuration = PlayerConfiguration(loop: .count(loops))
        var players: [Player<ManualClock.Instant>] = []
        var buffers: [UnsafeMutableRawBufferPointer] = []
        defer { for buffer in buffers { buffer.deallocate() } }
        for path in NineGrid.files() {
            let opened = cutName.map { path.hasSuffix("/" + $0) } == true ? cutPath ?? path : path
            let cache = try await pool.cache(for: opened) { try GIFFrameSource(readingFramesFromFileAt: opened) }
            let player = try Player(source: cache.source, configuration: configuration, startingAt: clock.now,
                                    epoch: clock.now, cache: cache)
            await group.add(player)
            players.append(player)
            buffers.append(.allocate(byteCount: player.drawer.width * player.drawer.height * 4, alignment: 64))
        }
        for player in players { await player.play(at: clock.now) }
        let ids = players.map { ObjectIdentifier($0) }
        var owed = Array(repeating: true, count: players.count)
        var shown = 0, stills = 0, lateDraws = 0, refreshes = 0
        var now = clock.now, peak = 0
        let sources = players.compactMap { $0.source as? any BudgetedFrameSource }
        /// What the budget's members hold now: its frames and reservations,
        /// the sources' state as they report it (not as last counted).
        func sample() {
            let statistics = budget.statistics
            let held = statistics.frameBytes + statistics.reservedBytes
                + statistics.caches.reduce(0) { $0 + $1.imageBytes } + sources.reduce(0) { $0 + $1.decodingState.total }
            peak = max(peak, held)
        }
        while true {
            let tick = group.tickPlayers(at: now)
            refreshes += 1
            for id in tick.changed { if let index = ids.firstIndex(of: id) { owed[index] = true } }
            for index in players.indices where owed[index] {
                let player = players[index]
                var waits = 0
                var drawn = try player.draw(into: buffers[index], bytesPerRow: player.drawer.width * 4)
                while case .late = drawn {
                    lateDraws += 1
                    waits += 1
                    // A decode that never comes is a failure, not a figure.
                    guard waits < 50_000 else { throw FullGridFailure(cell: index, frame: player.currentFrame) }
                    usleep(200)
                    drawn = try player.draw(into: buffers[index], bytesPerRow: player.drawer.width * 4)
                }
                owed[index] = false
                // A still (no room in the budget to draw) shows the frame before.
                if case .still = drawn { stills += 1 } else { shown += 1 }
                sample()
            }
            guard let next = tick.nextChange else { break }
            // The first refresh at or after the next change.
            let periods = (now.duration(to: next) / refresh).rounded(.up)
            now = now.advanced(by: refresh * max(1, Int(periods)))
            clock.advance(to: now)
        }
        // FULL_GRID_CELLS=1: each cell's loops and counters too.
        if getenv("FULL_GRID_CELLS") != nil {
            for (player, cell) in zip(players, players.map { group.statistics(of: $0) }) {
                print("cell frames \(player.source.frameCount) loops \(player.loopsCompleted) \(String(describing: cell))")
            }
        }
        let statistics = budget.statistics
        let cells = players.compactMap { group.statistics(of: $0) }
        print(ProbeLine(label: "full-grid", fields: [
            "players": players.count, "shown": shown, "stills": stills, "late_draws": lateDraws,
            "refreshes": refreshes,
            "decodes": players.reduce(0) { $0 + (($1.source as? GIFFrameSource)?.decodeCount ?? 0) },
            "frames": players.reduce(0) { $0 + $1.source.frameCount },
            "budget": statistics.byteBudget, "peak": peak,
            "skipped": cells.reduce(0) { $0 + $1.framesSkipped },
            "hwm": ProcessFigures.residentMemory().peakKiB, "cpu_us": Int(ProcessFigures.processCPUSeconds() * 1e6),
        ]))
    }

    /// The parent side.
    static func printSection() {
        let paths = NineGrid.files()
        let cutName = String(paths[NineGrid.cutIndex(in: paths)].split(separator: "/").last!)
        guard let cut = try? NineGrid.cutShortCopy(of: paths[NineGrid.cutIndex(in: paths)]) else {
            print("full-grid: could not write the cut-short copy")
            exit(1)
        }
        defer { unlink(cut) }
        let (status, output) = ProcessProbe.runSelf(["--player-probe", "full-grid", cutName, cut])
        guard status == 0, let line = output.split(separator: "\n").compactMap({ ProbeLine(parsing: $0) })
            .first(where: { $0.label == "full-grid" })
        else {
            print("full-grid probe failed (status \(status))")
            exit(1)
        }
        let f = line.fields
        let shown = f["shown"] ?? 0, decodes = f["decodes"] ?? 0
        let ratio = Double(decodes) / Double(max(1, shown))
        let peak = f["peak"] ?? 0, limit = f["budget"] ?? 0
        let budget = limit == FeedPath.budgetBytes ? "\(limit >> 20) MiB" : "\(limit)-byte"
        print("\n## Nine animations at full size, one \(budget) budget, \(loops) loops, \(Int(frameRate)) fps cap\n")
        print("files: " + paths.map { String($0.split(separator: "/").last!) }.joined(separator: ", ") + " (\(cutName) cut short)")
        print("")
        print("| frames shown | stills | giflib decodes | decodes ÷ shown (≤ \(Int(decodeTarget))) | budget peak MiB (≤ its \(Timing.format(Double(limit) / 1_048_576, digits: 2))) | skipped | late draws retried | CPU s | peak RSS MiB |")
        print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        print("| \(shown) | \(f["stills"] ?? 0) | \(decodes) | \(Timing.format(ratio, digits: 2)) \(ratio <= decodeTarget ? "met" : "NOT MET") | "
            + "\(Timing.format(Double(peak) / 1_048_576, digits: 2)) \(peak <= limit ? "met" : "NOT MET, +\(peak - limit) B") | "
            + "\(f["skipped"] ?? 0) | \(f["late_draws"] ?? 0) | "
            + "\(Timing.format(Double(f["cpu_us"] ?? 0) / 1e6, digits: 2)) | "
            + "\(Timing.format(Double(f["hwm"] ?? 0) / 1024, digits: 1)) |")
        print()
        print("The host ticks a ManualClock at 60 Hz refreshes and waits out each late draw (the clock held), so")
        print("  every frame a tick names is shown or, when the budget has no room to draw it, kept as a still (the")
        print("  frame before; counted skipped); giflib decodes are every path's, frame 0's probe included.")
    }
}

/// A late draw that waited 10 s without its decode arriving.
struct FullGridFailure: Error {
    let cell: Int, frame: Int
}
