import BenchmarkSupport

/// The parent side of the player figures: runs one ``PlayerProbe`` process
/// per workload and prints the tables, times as ratios to the C baseline
/// measured earlier in the same run.
enum PlayerReport {
    /// One workload's probes: as fast as possible, and paced.
    struct PlayerRun {
        var workload: Workload
        var loops: [ProbeLine]
        var pacedLoops: [ProbeLine]
    }

    /// The workload the nine-player figures use, when present.
    static let nineWorkload = "gifplayer-muybridge"

    /// Prints the player section.
    /// - Parameters:
    ///   - workloads: The workloads, in table order.
    ///   - cBaseline: Each workload's C baseline time in seconds (median),
    ///     by name, from this run.
    static func printSection(workloads: [Workload], cBaseline: [String: Double]) {
        print()
        let (runs, preload) = printPlayerTable(workloads: workloads, cBaseline: cBaseline, paced: true)
        printTargets(runs, workloads: workloads)
        print()
        SteadyLoop.printSection(preload: preload)
        print()
        IndexRead.printSection(rounds: 5)
        print()
        FeedPath.printSection(preload: preload)
        print()
        RealTimeGrid.printSection(seconds: RealTimeGrid.seconds)
        print()
        printPlaylistTable(workloads: workloads, cBaseline: cBaseline, preload: preload)
        if let workload = workloads.first(where: { $0.name == nineWorkload }), let c = cBaseline[workload.name] {
            print()
            printNineTable(workload: workload, cBaseline: c, preload: preload)
        }
    }

    /// The README's first example alone (`--images`): the host-driven
    /// player table and the nine-player table, against C baselines timed
    /// here (the median of 7 rounds each).
    static func printImageSection(workloads: [Workload]) {
        var cBaseline: [String: Double] = [:]
        for workload in workloads {
            cBaseline[workload.name] = Timing.rounds(7, settling: true, [{ _ = Decoders.cBaseline(workload.bytes) }]).median[0]
        }
        let preload = printPlayerTable(workloads: workloads, cBaseline: cBaseline, paced: false).preload
        if let workload = workloads.first(where: { $0.name == nineWorkload }), let c = cBaseline[workload.name] {
            print()
            printNineTable(workload: workload, cBaseline: c, preload: preload)
        }
    }

    /// Probes every workload (and, when `paced`, again paced) and prints
    /// the player table; returns the runs and the malloc-counting library
    /// it preloaded.
    private static func printPlayerTable(
        workloads: [Workload], cBaseline: [String: Double], paced: Bool
    ) -> (runs: [PlayerRun], preload: String?) {
        print("Player: host-driven (advance to nextChangeInstant, currentImage, read a byte, the previous image held")
        print("  until the next arrives; no sleeping), README defaults; each workload in a fresh process.")
        let preload = mallocCountingPreload()
        print()
        let runs = workloads.map { workload in
            PlayerRun(
                workload: workload,
                loops: probe([workload.name], preload: preload).filter { $0.label == "loop" },
                pacedLoops: paced && workload.frameCount > 1
                    ? probe(["--paced", workload.name], preload: preload).filter { $0.label == "loop" } : [])
        }
        printPlayerTable(runs, cBaseline: cBaseline)
        return (runs, preload)
    }

    // MARK: Probes

    /// Runs a probe and returns its lines; prints its output when it fails.
    private static func probe(_ arguments: [String], preload: String?) -> [ProbeLine] {
        let (status, output) = ProcessProbe.runSelf(["--player-probe"] + arguments, preload: preload)
        guard status == 0 else {
            print("probe \(arguments.joined(separator: " ")) failed (status \(status)):\n\(output)")
            return []
        }
        return output.split(separator: "\n").compactMap { ProbeLine(parsing: $0) }
    }

    /// Checks that a probe process counts its mallocs when the interposer is
    /// linked in, else tries it preloaded; prints the outcome and returns
    /// the library to preload, if one is needed.
    static func mallocCountingPreload() -> String? {
        func counted(_ preload: String?) -> Int {
            probe(["malloc-check"], preload: preload).first?.fields["mallocs"] ?? 0
        }
        let linked = counted(nil)
        if (900...1100).contains(linked) {
            print("Malloc counting (MallocInterposerSwift, linked in) saw \(linked) of 1000 test allocations.")
            return nil
        }
        let library = ProcessProbe.interposerLibraryPath
        let preloaded = counted(library)
        print("Malloc counting saw \(linked) of 1000 test allocations linked in, \(preloaded) with LD_PRELOAD=\(library).")
        return (900...1100).contains(preloaded) ? library : nil
    }

    // MARK: Tables

    /// One row per workload: loop times, memory after each loop, mallocs
    /// and decodes in the steady state (loop 3).
    private static func printPlayerTable(_ runs: [PlayerRun], cBaseline: [String: Double]) {
        var rows: [[String]] = []
        for run in runs {
            let workload = run.workload, loops = run.loops
            guard loops.count == PlayerProbe.loops, let c = cBaseline[workload.name] else {
                rows.append([workload.name, "\(workload.frameCount)", "–", "probe failed", "", "", "", "", "", "", ""])
                continue
            }
            let last = loops[loops.count - 1], previous = loops[loops.count - 2]
            rows.append([
                workload.name, "\(workload.frameCount)",
                Timing.milliseconds(c),
                Timing.ratio(seconds(loops[0]) / c),
                Timing.ratio(seconds(last) / c),
                loops.map { mebibytes($0.fields["hwm"]) }.joined(separator: " / "),
                signedKiB(value(last, "rss") - value(previous, "rss")),
                perFrame(last),
                run.pacedLoops.count == PlayerProbe.loops ? perFrame(run.pacedLoops[PlayerProbe.loops - 1]) : "–",
                "\(value(last, "decodes"))",
                "\(value(last, "misses"))",
            ])
        }
        Timing.printTable(
            header: [
                "workload", "frames", "C baseline ms", "loop 1 ×C", "loop 3 ×C", "peak RSS after loops 1/2/3 MiB",
                "RSS growth loop 2→3", "mallocs per frame loop 3", "paced", "decodes loop 3", "misses loop 3",
            ],
            rows: rows)
        print()
        print("loop N ×C: one whole loop (frameCount frame changes, each with currentImage()) over one C baseline decode")
        print("  of the whole file. Peak RSS: VmHWM after each loop (the process's own start-up included).")
        print("RSS growth: VmRSS after loop 3 minus after loop 2. Mallocs: every thread, loop 3 only, per frame change.")
        print("Paced: the same in a run that waits for the cache's prefetch before each frame change, as a host")
        print("  drawing in real time would (no misses); the other columns are as fast as possible.")
        print("Misses: frames the cache had not decoded ahead when currentImage() asked (the host does not wait).")
        print("Where the mallocs come from: BenchmarkReport --player-probe malloc-sites WORKLOAD (one backtrace each).")
    }

    /// The issue's targets for the largest workload (by file size), as met
    /// or not; the report asserts nothing. Steady state is the paced run: a
    /// host drawing in real time, never waiting on a decode. The run as fast
    /// as possible, where every frame waits on a decode, is shown beside it.
    private static func printTargets(_ runs: [PlayerRun], workloads: [Workload]) {
        guard let largest = workloads.max(by: { $0.bytes.count < $1.bytes.count }),
            let run = runs.first(where: { $0.workload.name == largest.name }),
            run.loops.count == PlayerProbe.loops, run.pacedLoops.count == PlayerProbe.loops
        else { return }
        struct Figures {
            var peak: Int, growth: Int, mallocs: Int, frames: Int
            init(_ loops: [ProbeLine]) {
                let last = loops[loops.count - 1], previous = loops[loops.count - 2]
                peak = loops.map { PlayerReport.value($0, "hwm") }.max() ?? 0
                growth = PlayerReport.value(last, "rss") - PlayerReport.value(previous, "rss")
                mallocs = PlayerReport.value(last, "mallocs")
                frames = PlayerReport.value(last, "frames")
            }
        }
        let steady = Figures(run.pacedLoops), fast = Figures(run.loops)
        func verdict(_ met: Bool) -> String { met ? "met" : "NOT MET" }
        print()
        print("Targets for the largest workload (\(largest.name), by file size), 3 loops, default budget;")
        print("steady state = the paced run (as fast as possible, every frame a miss, in brackets):")
        print("  peak RSS < 64 MiB: \(mebibytes(steady.peak)) MiB (\(mebibytes(fast.peak))), \(verdict(steady.peak < 64 * 1024))")
        print("  no RSS growth loop 2→3: \(signedKiB(steady.growth)) (\(signedKiB(fast.growth))), \(verdict(steady.growth <= 0))")
        print("  zero mallocs per frame in loop 3: \(steady.mallocs) in \(steady.frames) frames"
            + " (\(fast.mallocs) in \(fast.frames)), \(verdict(steady.mallocs == 0))")
    }

    /// The playlist of every workload, one lap, against the C baselines of
    /// all its files added up.
    private static func printPlaylistTable(workloads: [Workload], cBaseline: [String: Double], preload: String?) {
        guard let lap = probe(["playlist"], preload: preload).first(where: { $0.label == "lap" }) else { return }
        let c = workloads.reduce(0) { $0 + (cBaseline[$1.name] ?? 0) }
        Timing.printTable(
            header: ["playlist", "frames", "C baselines ms", "lap ×C", "peak RSS MiB", "RSS after MiB", "mallocs per frame"],
            rows: [[
                "\(workloads.count) files, 1 lap", "\(value(lap, "frames"))", Timing.milliseconds(c),
                Timing.ratio(seconds(lap) / c), mebibytes(lap.fields["hwm"]), mebibytes(lap.fields["rss"]),
                perFrame(lap),
            ]])
        print()
        print("A Playlist of every workload file, each item once, its loader opening the file; one lap, load")
        print("  waits included, host time held still while an item loads. ×C: over the C baseline decodes of all")
        print("  the files, added up. Mallocs per frame: every allocation in the lap (loads included).")
    }

    /// Nine players of one GIF in step for one loop, with one shared cache
    /// or each with its own.
    private static func printNineTable(workload: Workload, cBaseline c: Double, preload: String?) {
        var rows: [[String]] = []
        for mode in ["nine-shared", "nine-private"] {
            guard let loop = probe([mode, workload.name], preload: preload).first(where: { $0.label == "loop" }) else {
                continue
            }
            rows.append([
                mode == "nine-shared" ? "shared: one source, one cache" : "private: own source and cache",
                "\(workload.frameCount) × \(PlayerProbe.groupSize)", Timing.milliseconds(seconds(loop)),
                Timing.ratio(seconds(loop) / c), mebibytes(loop.fields["hwm"]),
                "\(value(loop, "decodes"))", "\(value(loop, "misses"))", perFrame(loop),
            ])
        }
        Timing.printTable(
            header: [
                "nine players of \(workload.name)", "frames", "loop ms", "loop ×C", "peak RSS MiB", "decodes",
                "misses", "mallocs per image",
            ],
            rows: rows)
        print()
        print("Nine players on one epoch, advanced together through one loop, each calling currentImage() per frame.")
        print("  ×C: over one C baseline decode of the file. Decodes and misses: all caches added up.")
    }

    // MARK: Formatting

    static func value(_ line: ProbeLine, _ key: String) -> Int { line.fields[key] ?? 0 }

    private static func seconds(_ line: ProbeLine) -> Double { Double(value(line, "ns")) / 1e9 }

    private static func mebibytes(_ kibibytes: Int?) -> String {
        Timing.format(Double(kibibytes ?? 0) / 1024, digits: 1)
    }

    private static func signedKiB(_ kibibytes: Int) -> String {
        (kibibytes > 0 ? "+" : "") + "\(kibibytes) KiB"
    }

    private static func perFrame(_ line: ProbeLine) -> String {
        Timing.format(Double(value(line, "mallocs")) / Double(max(1, value(line, "frames"))), digits: 2)
    }
}
