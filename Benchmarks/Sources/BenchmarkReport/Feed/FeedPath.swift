import BenchmarkSupport
import Foundation
@_spi(Benchmarks) import GIF
@_spi(Benchmarks) import GIFPlayback
@_spi(Benchmarks) import Playback

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The feed path's figures: a `Player` set up as the README's feed section
/// sets one up (a `FrameCachePool` over one 24 MiB `FrameMemoryBudget`,
/// the source reading frames from its file, the player in a `GroupDriver`),
/// the host drawing every frame with `Player.draw(into:bytesPerRow:)`.
///
/// Child sides (`--player-probe feed-path PATH [cell]`, `--player-probe
/// feed-memory PATH`), each in a fresh process:
/// - `feed`: ``loops`` loops, the host ticking the `GroupDriver`
///   (``GroupDriver/tick(at:)``, as from a display link) at each frame
///   change and drawing the players it returns (waiting when a draw is
///   late, counting those), each steady loop (4 on) just after one C
///   baseline decode of the whole file; then one more loop, its
///   allocations counted. The least process CPU time of the steady loops
///   and of the C decodes (the same estimator over as many runs, taken in
///   pairs), the steady loops' giflib decodes and late draws, and the last
///   loop's allocations are printed. With `cell`, the pool's cache and
///   source are at the real-time grid's display size (``cell``).
/// - `feed-memory`: the resident memory before the file is opened, then
///   one default player (`Player(source: GIFFrameSource(contentsOf:))`)
///   drawn into a canvas-sized buffer for three loops; the peak resident
///   memory over the starting one.
///
/// Parent side (``printSection(preload:)``): for each animation a probe at
/// full size, one in a cell and one of memory, the ratios and their
/// targets.
enum FeedPath {
    /// The target for a steady loop's CPU time over the C baseline's.
    static let target = 0.10
    /// The target for one player's peak over the process: 24 MiB.
    static let memoryTargetKiB = 24 << 10
    /// The loops of the steady figure: the first three (decoding, then
    /// settling), then ``steadyLoops`` steady ones.
    static let loops = 3 + steadyLoops
    /// The steady loops, whose least CPU time is the figure, and the C
    /// baseline's runs, whose least is the divisor.
    static let steadyLoops = 5
    /// The loops of the memory figure.
    static let memoryLoops = 3
    /// The budget the README's feed section gives the pool.
    static let budgetBytes = 24 << 20

    /// Every animation the benchmarks have: the workloads and the command
    /// figures' files (which nothing was tuned on) with more than one frame,
    /// and the generated screen recording. The process stops when one of
    /// them is missing or does not scan.
    static func animations() -> [(name: String, path: String)] {
        var seen = Set<String>()
        let recording = Workload.screenRecordingPath
        let files = Workload.locationsAndCommandFiles() + [("screen-recording", recording)]
        Workload.requireReadable(files.map(\.path), for: "the feed path")
        return files.filter { file in
            guard seen.insert(file.name).inserted else { return false }
            return Workload.scanned(file.path, for: "the feed path", readingFramesFromFile: true).info.frameCount > 1
        }
    }

    /// The display size of the figure's second row for each animation: the
    /// real-time grid's cells.
    static var cell: DisplaySize { RealTimeGrid.cell }

    /// The child side of the steady figure: at full size, or in a ``cell``
    /// with `inCell`.
    static func probe(path: String, inCell: Bool = false) async throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        var sink = 0
        // The real clock, as a display link's host has; the host ticks at
        // the instants the changes are due rather than waiting for them.
        let clock = ContinuousClock(), origin = clock.now
        let pool = FrameCachePool(budget: FrameMemoryBudget(byteBudget: budgetBytes))
        let cache = try await pool.cache(for: path, displaySize: inCell ? cell : nil) {
            try GIFFrameSource(readingFramesFromFileAt: path)
        }
        guard let source = cache.source as? GIFFrameSource else { throw PlayerWorkloadError.nothingScheduled }
        let player = try Player(
            source: source, configuration: PlayerConfiguration(loop: .forever), startingAt: origin, epoch: origin,
            cache: cache)
        let group = GroupDriver(clock: clock)
        await group.add(player)
        await player.play(at: origin)
        let host = HostCanvas(player.drawer)
        // Each tick says when the next change is due: the host's next
        // refresh that matters. (Written out twice rather than as a mutating
        // method, which allocated once a loop.)
        var due = player.nextChangeInstant
        var c = Double.infinity, steadyCPU = Double.infinity
        var decodes = [source.decodeCount], lates = [player.lateDrawCount]
        for loop in 1...loops {
            let isSteady = loop > loops - steadyLoops
            // Each steady loop right after a C run, so that a drift in the
            // machine's speed over the run reaches both figures alike.
            if isSteady { c = min(c, SteadyLoop.leastCBaselineCPU(bytes, runs: 1, sink: &sink)) }
            let start = ProcessFigures.processCPUSeconds()
            for _ in 0..<source.frameCount {
                guard let now = due else { throw PlayerWorkloadError.nothingScheduled }
                let tick = await group.tick(at: now)
                if !tick.changed.isEmpty { try await host.draw(player) }
                due = tick.nextChange
            }
            guard player.currentFrame == 0 else {
                throw PlayerWorkloadError.notOneLoop(expectedLoops: 1, loops: 0, frame: player.currentFrame)
            }
            if isSteady { steadyCPU = min(steadyCPU, ProcessFigures.processCPUSeconds() - start) }
            decodes.append(source.decodeCount)
            lates.append(player.lateDrawCount)
        }
        // One more loop, its allocations counted.
        let (_, mallocs) = try await ProcessProbe.countingMallocs {
            for _ in 0..<source.frameCount {
                guard let now = due else { throw PlayerWorkloadError.nothingScheduled }
                let tick = await group.tick(at: now)
                if !tick.changed.isEmpty { try await host.draw(player) }
                due = tick.nextChange
            }
        }
        sink &+= host.touched
        let steady = (loops - steadyLoops + 1)...loops
        print(ProbeLine(label: "feed", fields: [
            "frames": source.frameCount, "c_ns": Int(c * 1e9),
            "steady_ns": Int(steadyCPU * 1e9),
            "decodes1": decodes[1] - decodes[0], "decodes_steady": decodes[loops] - decodes[steady.lowerBound - 1],
            "late1": lates[1] - lates[0], "late_steady": lates[loops] - lates[steady.lowerBound - 1],
            "mallocs_last": mallocs, "state_bytes": source.decodingState.total, "touched": sink & 0xff,
        ]))
    }

    /// The child side of the memory figure.
    static func memoryProbe(path: String) async throws {
        let before = ProcessFigures.residentMemory().currentKiB
        let clock = ManualClock()
        let player = try Player(
            source: try GIFFrameSource(contentsOf: path), configuration: PlayerConfiguration(loop: .count(memoryLoops)),
            startingAt: clock.now)
        await player.play(at: clock.now)
        let host = HostCanvas(player.drawer)
        var frames = 0
        while true {
            try await host.draw(player)
            frames += 1
            guard let next = player.nextChangeInstant else { break }
            await player.advance(to: next)
        }
        let peak = ProcessFigures.residentMemory().peakKiB
        print(ProbeLine(label: "feed-memory", fields: [
            "before_kib": before, "peak_kib": peak, "frames": frames, "touched": host.touched & 0xff,
        ]))
    }

    /// A host's canvas-sized buffer.
    final class HostCanvas {
        let bytesPerRow: Int
        var pixels: UnsafeMutableRawBufferPointer
        var touched = 0

        init(_ drawer: any FrameDrawer) {
            bytesPerRow = drawer.width * 4
            pixels = .allocate(byteCount: max(1, bytesPerRow * drawer.height), alignment: 64)
            pixels.initializeMemory(as: UInt8.self, repeating: 0)
        }

        deinit { pixels.deallocate() }

        /// Draws the player's frame, waiting (1 ms at a time) while it is late.
        func draw<I>(_ player: Player<I>) async throws {
            while true {
                let result = try player.draw(into: pixels, bytesPerRow: bytesPerRow)
                guard case .late = result else { break }
                try await Task.sleep(for: .milliseconds(1))
            }
            touched &+= Int(pixels[pixels.count / 2])
        }
    }

    /// The parent side: the tables of the figures.
    static func printSection(preload: String?) {
        var rows: [[String]] = []
        let runs = animations().flatMap { file in [(file.name, file.path, false), (file.name + " in cell", file.path, true)] }
        for (name, path, inCell) in runs {
            let (status, output) = ProcessProbe.runSelf(
                ["--player-probe", "feed-path", path] + (inCell ? ["cell"] : []), preload: preload)
            guard status == 0, let line = output.split(separator: "\n").compactMap({ ProbeLine(parsing: $0) })
                .first(where: { $0.label == "feed" })
            else {
                rows.append([name, "probe failed (status \(status))"] + Array(repeating: "", count: 7))
                continue
            }
            let f = line.fields
            let c = Double(f["c_ns"] ?? 0) / 1e9
            let ratio = c > 0 ? Double(f["steady_ns"] ?? 0) / 1e9 / c : .infinity
            let decodes = f["decodes_steady"] ?? -1
            rows.append([
                name, "\(f["frames"] ?? 0)", Timing.milliseconds(c), Timing.milliseconds(Double(f["steady_ns"] ?? 0) / 1e9),
                Timing.ratio(ratio) + (ratio <= target ? " met" : " NOT MET"),
                "\(f["decodes1"] ?? -1)", "\(decodes)" + (decodes == 0 ? " met" : " NOT MET"),
                "\(f["late1"] ?? -1) / \(f["late_steady"] ?? -1)", "\(f["mallocs_last"] ?? -1)",
            ])
        }
        Timing.printTable(
            header: [
                "feed path (Player.draw)", "frames", "C CPU ms", "steady loop CPU ms", "steady loop ×C (≤ 0.10)",
                "giflib decodes loop 1", "decodes loops 4–8 (0)", "late draws loop 1 / 4–8", "mallocs, host-driven loop 9",
            ],
            rows: rows)
        print()
        print("Each animation in a fresh process: a FrameCachePool over one 24 MiB FrameMemoryBudget, the source")
        print("  reading frames from its file, one player in a GroupDriver that the host ticks at each frame change")
        print("  (GroupDriver.tick(at:), as a display link would), drawing the changed player with Player.draw into a")
        print("  canvas-sized buffer (a late draw waits 1 ms and draws again); \"in cell\": the cache and source at")
        print("  the real-time grid's 200 × 200 display size, drawn into a buffer of the cell's size.")
        print("  Steady loop CPU: the least process CPU time (getrusage user + system, every thread) of one of loops")
        print("  4–8, driver and host included. ×C: over the least of 5 C baseline decode + composite of the whole")
        print("  file, same process, one just before each of loops 4–8 (the same estimator on both sides, taken in")
        print("  pairs). Decodes: frames giflib decoded in loops 4–8")
        print("  (GIFFrameSource.decodeCount).")
        print()
        var memoryRows: [[String]] = []
        for (name, path) in animations() {
            let (status, output) = ProcessProbe.runSelf(["--player-probe", "feed-memory", path])
            guard status == 0, let line = output.split(separator: "\n").compactMap({ ProbeLine(parsing: $0) })
                .first(where: { $0.label == "feed-memory" })
            else {
                memoryRows.append([name, "probe failed (status \(status))", ""])
                continue
            }
            let over = (line.fields["peak_kib"] ?? 0) - (line.fields["before_kib"] ?? 0)
            memoryRows.append([
                name, "\(line.fields["frames"] ?? 0)",
                Timing.format(Double(over) / 1024, digits: 1) + (over <= memoryTargetKiB ? " met" : " NOT MET"),
            ])
        }
        Timing.printTable(header: ["one default player, \(memoryLoops) loops", "frames drawn", "peak RSS over the process MiB (≤ 24)"],
                          rows: memoryRows)
        print()
        print("Each animation in a fresh process: one default player (Player(source: GIFFrameSource(contentsOf:))) drawn")
        print("  with Player.draw for \(memoryLoops) loops; its peak RSS over the process's before the file was opened.")
    }
}

/// The real-time grid figure: nine animations (the nine-grid's files) in
/// 200 × 200 cells under one 24 MiB budget, set up as the README's feed
/// section sets them up, played for ``seconds`` on the real clock by a host
/// that ticks one `GroupDriver` from a display link's thread at 60 Hz
/// (``DisplayLinkHost``) and draws the players it returns with
/// `Player.draw`.
///
/// `BenchmarkReport --realtime-grid [SECONDS]` prints the figure; the child
/// runs `--player-probe realtime-grid SECONDS`.
enum RealTimeGrid {
    /// Seconds played.
    static let seconds = 30.0
    /// The host's refresh period: 60 Hz.
    static let refresh = Duration.nanoseconds(16_666_667)
    /// The cell.
    static let cell = DisplaySize(maxWidth: 200, maxHeight: 200)
    /// The target for the process's CPU time over the wall time.
    static let target = 0.03

    /// What the grid's cells show and how its driver paces them: 200 × 200
    /// cells under the standard policy, or the files at full size, with
    /// the policy or without.
    enum Variant: String {
        case cells, full, fullWithoutPolicy = "full-nopolicy"

        var displaySize: DisplaySize? { self == .cells ? cell : nil }
        var policy: FrameRatePolicy? { self == .fullWithoutPolicy ? nil : .standard }
        var label: String {
            switch self {
            case .cells: "200×200 cells, 24 MiB budget"
            case .full: "full size, 24 MiB budget, policy on"
            case .fullWithoutPolicy: "full size, 24 MiB budget, policy off"
            }
        }
    }

    /// The child side: plays the grid and prints one line.
    static func probe(seconds: Double, variant: Variant = .cells) async throws {
        let clock = ContinuousClock()
        let pool = FrameCachePool(budget: FrameMemoryBudget(byteBudget: FeedPath.budgetBytes))
        var configuration = PlayerConfiguration()
        configuration.loop = .forever
        // A GridFeed's driver: the standard frame-rate policy on.
        let group = GroupDriver(clock: clock, frameRatePolicy: variant.policy)
        var players: [Player<ContinuousClock.Instant>] = []
        var buffers: [UnsafeMutableRawBufferPointer] = []
        // The files are opened first and the grid's epoch taken after: a
        // host starts its cells once they are set up, and frames due
        // while the files were still being opened would count as late.
        var caches: [FrameCache] = []
        for path in NineGrid.files() {
            caches.append(try await pool.cache(for: path, displaySize: variant.displaySize) {
                try GIFFrameSource(readingFramesFromFileAt: path, pixelFormat: .premultipliedBGRA8)
            })
        }
        let epoch = clock.now
        for cache in caches {
            let player = try Player(source: cache.source, configuration: configuration, startingAt: clock.now,
                                    epoch: epoch, cache: cache)
            await group.add(player)
            players.append(player)
            buffers.append(.allocate(byteCount: player.drawer.width * player.drawer.height * 4, alignment: 64))
        }
        defer { for buffer in buffers { buffer.deallocate() } }
        for player in players { await player.play(at: epoch) }
        let startCPU = ProcessFigures.processCPUSeconds()
        let start = clock.now
        // The host's display link: a thread of its own that sleeps until
        // each refresh (as a `CVDisplayLink`'s thread or a render thread
        // does) and ticks the group there, without waiting on anything.
        let host = DisplayLinkHost(group: group, players: players, buffers: buffers.map { SendableBuffer(buffer: $0) })
        let counts = try await withCheckedThrowingContinuation {
            (done: CheckedContinuation<DisplayLinkHost.Counts, any Error>) in
            Thread { done.resume(with: Result { try host.run(from: start, seconds: seconds) }) }.start()
        }
        let (changes, lateChanges, lateDraws) = (counts.changes, counts.lateChanges, counts.lateDraws)
        let wall = start.duration(to: clock.now)
        let cpu = ProcessFigures.processCPUSeconds() - startCPU
        let wallSeconds = Double(wall.components.seconds) + Double(wall.components.attoseconds) / 1e18
        // What the host's wake-ups cost alone: the same display link, on a
        // thread of its own, sleeping to each refresh with nothing to do.
        let (idleWakes, idleCPU) = await withCheckedContinuation { (done: CheckedContinuation<(Int, Double), Never>) in
            Thread { done.resume(returning: DisplayLinkHost.idle(refreshes: 120)) }.start()
        }
        let cells = players.compactMap { group.statistics(of: $0) }
        let worst = cells.map { cell -> Double in
            let count = cell.framesOnTime + cell.framesLate + cell.framesSkipped
            return Double(cell.framesLate + cell.framesSkipped) / Double(max(1, count))
        }.max() ?? 0
        print(ProbeLine(label: "realtime-grid", fields: [
            "on_time": cells.reduce(0) { $0 + $1.framesOnTime }, "late_frames": cells.reduce(0) { $0 + $1.framesLate },
            "skipped": cells.reduce(0) { $0 + $1.framesSkipped }, "worst_missed_ppm": Int(worst * 1e6),
            "capped": cells.filter { $0.frameRate != nil }.count,
            "players": players.count, "changes": changes, "late_changes": lateChanges, "late_draws": lateDraws,
            "cpu_us": Int(cpu * 1e6), "wall_us": Int(wallSeconds * 1e6), "wakes": counts.wakes,
            "idle_wake_ns": Int(idleCPU * 1e9) / max(1, idleWakes),
            "hwm": ProcessFigures.residentMemory().peakKiB,
            "decodes": players.reduce(0) { $0 + (($1.source as? GIFFrameSource)?.decodeCount ?? 0) },
            "frames": players.reduce(0) { $0 + $1.source.frameCount },
        ]))
    }

    /// The parent side. The nine files are checked here, before the probe
    /// runs: a grid of fewer players is another figure.
    static func printSection(seconds: Double, variant: Variant = .cells) {
        _ = NineGrid.files()
        let (status, output) = ProcessProbe.runSelf(["--player-probe", "realtime-grid", "\(seconds)", variant.rawValue])
        guard status == 0, let line = output.split(separator: "\n").compactMap({ ProbeLine(parsing: $0) })
            .first(where: { $0.label == "realtime-grid" })
        else {
            print("realtime-grid probe failed (status \(status))")
            return
        }
        let f = line.fields
        let share = Double(f["cpu_us"] ?? 0) / Double(max(1, f["wall_us"] ?? 1))
        let wakes = f["wakes"] ?? 0, wakeCPU = Double(f["idle_wake_ns"] ?? 0) / 1e9
        let wakeShare = Double(wakes) * wakeCPU / (Double(max(1, f["wall_us"] ?? 1)) / 1e6)
        print("| real-time grid | players | frame changes | drawn later than one refresh (goal 0) | late draws | giflib decodes (frames in all) | CPU % of a core (≤ 3) | host wake-ups: count, % of a core alone | peak RSS MiB |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
        print("| \(variant.label), \(Int(seconds)) s | \(f["players"] ?? 0) | \(f["changes"] ?? 0) | "
            + "\(f["late_changes"] ?? 0) | \(f["late_draws"] ?? 0) | \(f["decodes"] ?? 0) (\(f["frames"] ?? 0)) | "
            + "\(Timing.format(share * 100, digits: 2)) \(share <= target ? "met" : "NOT MET") | "
            + "\(wakes), \(Timing.format(wakeShare * 100, digits: 2)) | "
            + "\(Timing.format(Double(f["hwm"] ?? 0) / 1024, digits: 1)) |")
        print()
        print("| real-time grid, per cell | frames on time | drawn late | skipped | worst cell's share missed | cells capped at the end |")
        print("|---|---:|---:|---:|---:|---:|")
        print("| the same \(Int(seconds)) s | \(f["on_time"] ?? 0) | \(f["late_frames"] ?? 0) | \(f["skipped"] ?? 0) | "
            + "\(Timing.format(Double(f["worst_missed_ppm"] ?? 0) / 1e4, digits: 2)) % | \(f["capped"] ?? 0) |")
        print()
        print("Nine players (the nine-grid's files) on one epoch, each through a FrameCachePool over one 24 MiB")
        print("  FrameMemoryBudget at 200×200, sources reading frames from their files, in one GroupDriver that the")
        print("  host ticks from a display link: a thread of its own sleeping to each 60 Hz refresh on")
        print("  ContinuousClock (paused until the refresh of the tick's next change, as a display link may be),")
        print("  ticking with GroupDriver.tickPlayers(at:) and drawing each changed player with Player.draw into")
        print("  its own buffer (a late draw is retried at the next refresh). CPU: process CPU time (user + system,")
        print("  every thread) over the wall time played. Host wake-ups: the refreshes the display link slept to,")
        print("  and what they cost alone: as many wake-ups at \(Timing.format(wakeCPU * 1e6, digits: 1)) µs of CPU each, the thread CPU time")
        print("  of 120 refreshes of the same loop with nothing to tick or draw, measured after the grid; a share")
        print("  of the CPU figure, which a host pays whatever it draws. The group runs FrameRatePolicy.standard, as")
        print("  a GridFeed's does; per cell, GroupDriver.statistics(of:) at the end: frames drawn on time, late,")
        print("  skipped, and the cells left with a lowered rate.")
    }
}

/// A host buffer handed to the display link's thread.
struct SendableBuffer: @unchecked Sendable {
    let buffer: UnsafeMutableRawBufferPointer
}

/// ``RealTimeGrid``'s host: a display link's loop on a thread of its own,
/// at 60 Hz on `ContinuousClock`, paused until the refresh of the group's
/// next change (as a display link may be), ticking the group with
/// `GroupDriver.tickPlayers(at:)` and drawing the players it returns with
/// `Player.draw`; a late draw is drawn again at the next refresh.
struct DisplayLinkHost: Sendable {
    let group: GroupDriver<ContinuousClock>
    let players: [Player<ContinuousClock.Instant>]
    let buffers: [SendableBuffer]

    /// What the loop counted.
    struct Counts: Sendable {
        var changes = 0, lateChanges = 0, lateDraws = 0, wakes = 0
    }

    /// Sleeps to each of `refreshes` refreshes as ``run(from:seconds:)``
    /// does, with nothing to tick or draw; returns the sleeps and the
    /// calling thread's CPU time over them.
    static func idle(refreshes: Int) -> (wakes: Int, cpu: Double) {
        let clock = ContinuousClock()
        var refreshAt = clock.now, wakes = 0
        let start = Timing.now(CLOCK_THREAD_CPUTIME_ID)
        for _ in 0..<refreshes {
            refreshAt = refreshAt.advanced(by: RealTimeGrid.refresh)
            if sleep(until: refreshAt, on: clock) { wakes += 1 }
        }
        return (wakes, Timing.now(CLOCK_THREAD_CPUTIME_ID) - start)
    }

    /// Sleeps on the calling thread until `instant`; returns whether it slept.
    static func sleep(until instant: ContinuousClock.Instant, on clock: ContinuousClock) -> Bool {
        let wait = clock.now.duration(to: instant)
        guard wait > .zero else { return false }
        var time = timespec(tv_sec: Int(wait.components.seconds),
                            tv_nsec: Int(wait.components.attoseconds / 1_000_000_000))
        var left = timespec()
        while nanosleep(&time, &left) != 0 { time = left }
        return true
    }

    /// Plays `seconds` from `start` on the calling thread.
    func run(from start: ContinuousClock.Instant, seconds: Double) throws -> Counts {
        let clock = ContinuousClock(), refresh = RealTimeGrid.refresh
        let end = start.advanced(by: .nanoseconds(Int64(seconds * 1e9)))
        let ids = players.map { ObjectIdentifier($0) }
        var counts = Counts()
        // When each player's shown frame became due, and whether the host's
        // buffer still owes it. The first frames are due when the loop
        // starts: the players were made and started (at the grid's epoch)
        // just before.
        var due: [ContinuousClock.Instant?] = Array(repeating: start, count: players.count)
        var owed = Array(repeating: true, count: players.count)
        var refreshAt = start
        // The refresh at which the next change is due: the display link
        // pauses until then, as the tick's `nextChange` allows, unless a
        // late draw wants the next refresh.
        var wakeAt = start
        while refreshAt < end {
            refreshAt = refreshAt.advanced(by: refresh)
            guard refreshAt >= wakeAt || owed.contains(true) else { continue }
            if Self.sleep(until: refreshAt, on: clock) { counts.wakes += 1 }
            let tick = group.tickPlayers(at: clock.now)
            wakeAt = tick.nextChange ?? end
            for id in tick.changed {
                guard let index = ids.firstIndex(of: id) else { continue }
                if owed[index] { counts.lateChanges += 1 }  // a frame never drawn: skipped
                owed[index] = true
                counts.changes += 1
            }
            for index in players.indices where owed[index] {
                let player = players[index]
                let drawn = try player.draw(into: buffers[index].buffer, bytesPerRow: player.drawer.width * 4)
                if case .late = drawn {
                    counts.lateDraws += 1
                    continue
                }
                owed[index] = false
                // Late when shown at a refresh more than one period after
                // the frame was due: the refresh the draw belongs to, as a
                // display presents it, not the instant the sleep returned
                // (a timer's own overshoot is the host's, not the player's).
                if let shownDue = due[index], shownDue.duration(to: refreshAt) > refresh { counts.lateChanges += 1 }
                due[index] = player.nextChangeInstant
            }
        }
        return counts
    }
}
