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

/// The nine-grid figure: nine different animations, each in a 160 × 160
/// cell, played host-driven for ``loops`` loops, every player under one
/// ``budgetBytes`` `FrameMemoryBudget`, each file opened with
/// `GIFImage(readingFramesFromFileAt:)`; each grid in a fresh process (see
/// ``ProcessProbe/runSelf(_:preload:)``) whose peak RSS (`VmHWM`) is
/// printed beside the same grid with the files' bytes held in memory, with
/// one decoding thread per processor (the shared executor's size before it
/// kept to half the processors) and at full size.
///
/// `BenchmarkReport --nine-grid` prints the section; the children run
/// `BenchmarkReport --nine-grid-probe small|small-held|small-per-processor|full`.
enum NineGrid {
    /// Loops every player plays.
    static let loops = NineGridSetup.loops
    /// The shared budget: 24 MiB.
    static let budgetBytes = NineGridSetup.budgetBytes
    /// The target for the display-size grid's whole process: 48 MiB.
    static let targetKiB = 48 << 10
    /// Each source's seek checkpoint budget (`NINE_GRID_CHECKPOINTS` bytes,
    /// default 0): a grid plays forward, and a loop restarts from frame 0.
    static var checkpointBytes: Int {
        getenv("NINE_GRID_CHECKPOINTS").flatMap { Int(String(cString: $0)) } ?? 0
    }
    /// The decoding threads (`NINE_GRID_THREADS`, default: the shared
    /// executor's, `FrameDecodeExecutor.defaultThreadCount`).
    static var decodeThreads: Int? {
        getenv("NINE_GRID_THREADS").flatMap { Int(String(cString: $0)) }
    }
    /// The grids the section prints, each run by a child (its raw value
    /// names it on the child's command line).
    enum Grid: String, CaseIterable {
        /// At display size on the shared executor, each file opened with
        /// `GIFImage(readingFramesFromFileAt:)`: the feed setup the README
        /// recommends, and the row the target is for.
        case small
        /// The same with the files' bytes held in memory
        /// (`GIFImage(contentsOf:)`).
        case smallHeld = "small-held"
        /// At display size with one decoding thread per processor.
        case smallPerProcessor = "small-per-processor"
        /// At full size on the shared executor.
        case full
        /// The README's feed set-up with default budgets (seek checkpoints
        /// included), drawn with `Player.draw` into 160 × 160 host buffers,
        /// one of the nine files cut short mid-frame: the row the target
        /// is for.
        case drawn

        /// The row's name in the table.
        var name: String {
            switch self {
            case .small: "display size 160×160, frames read from the files"
            case .smallHeld: "display size, files held in memory"
            case .smallPerProcessor: "display size, a decoding thread per processor"
            case .full: "full size"
            case .drawn: "display size, drawn with Player.draw, default budgets, one file cut short"
            }
        }

        /// Whether the frames are at the cell's size.
        var atDisplaySize: Bool { self != .full }

        /// Whether each image keeps its file's bytes in memory rather than
        /// reading each frame's data from the file.
        var holdsBytes: Bool { self == .smallHeld }

        /// The decoding threads, `nil` for the shared executor's (or
        /// `NINE_GRID_THREADS`).
        var threads: Int? {
            switch self {
            case .smallPerProcessor: max(1, Timing.processorCount)
            case .drawn: nil
            default: decodeThreads
            }
        }
    }
    /// The cell every animation is shown in.
    static let cell = NineGridSetup.cell

    /// The nine animations (see ``NineGridSetup/files()``).
    static func files() -> [String] { NineGridSetup.files() }

    /// The child: plays the grid `mode` names (a ``Grid``'s raw value) and
    /// prints one ``ProbeLine``.
    static func probe(mode: String, cutCopy: String?) async -> Int32 {
        guard let grid = Grid(rawValue: mode) else {
            print("probe failed: no grid \(mode)")
            return 1
        }
        let small = grid.atDisplaySize
        do {
            let start = ProcessFigures.residentMemory().currentKiB
            let limit = getenv("NINE_GRID_BUDGET").flatMap { Int(String(cString: $0)) } ?? budgetBytes
            let budget = FrameMemoryBudget(byteBudget: limit)
            let pool = FrameCachePool(budget: budget)
            let origin = ContinuousClock.now
            let configuration = PlayerConfiguration(loop: .count(loops), autoplay: true)
            var players: [Player<ContinuousClock.Instant>] = []
            var canvasPixels = 0
            let executor = grid.threads.map { FrameDecodeExecutor(threadCount: $0) } ?? .shared
            for path in files() {
                let cache = try await pool.cache(for: path, displaySize: small ? cell : nil) {
                    // A grid only plays forward: seek checkpoints would only
                    // take the budget from frames.
                    let image = grid.holdsBytes
                        ? try GIFImage(contentsOf: path) : try GIFImage(readingFramesFromFileAt: path)
                    var budget = DecodingBudget.default
                    budget.checkpointBytes = checkpointBytes
                    return GIFFrameSource(image: image, budget: budget, executor: executor)
                }
                canvasPixels += cache.source.canvasSize.width * cache.source.canvasSize.height
                players.append(try Player(source: cache.source, configuration: configuration,
                                          startingAt: origin, epoch: origin, cache: cache))
            }
            // Host-driven: time jumps to the next change of any player, and
            // every player that changed is drawn.
            let setup = ProcessFigures.residentMemory().currentKiB
            var frames = 0, peakHeld = 0
            for player in players { _ = try await player.currentImage(); frames += 1 }
            while let next = await NineGridSetup.earliestChange(of: players) {
                let now = next
                for player in players where !(await player.advance(to: now)).isEmpty {
                    _ = try await player.currentImage()
                    frames += 1
                }
                peakHeld = max(peakHeld, budget.bytesHeld)
            }
            let cpu = Int(ProcessFigures.processCPUSeconds() * 1e6)
            let statistics = budget.statistics
            print(ProbeLine(label: "grid-" + mode, fields: [
                // VmHWM, not ru_maxrss: Linux carries ru_maxrss across exec,
                // so a child of the large report process would report the
                // parent's peak.
                "players": players.count, "frames": frames, "maxrss": ProcessFigures.residentMemory().peakKiB, "cpu": cpu,
                "peakheld": peakHeld, "evictions": statistics.evictions, "trims": statistics.decodingStateTrims,
                "pixels": canvasPixels, "startrss": start, "setuprss": setup,
                // giflib's frame decodes, whichever path asked for them (a
                // drawn image decodes through its source, not its cache).
                "decodes": players.reduce(0) { $0 + (($1.source as? GIFFrameSource)?.decodeCount ?? 0) },
            ]))
            return 0
        } catch {
            print("probe failed: \(error)")
            return 1
        }
    }


    /// The file of the ``Grid/drawn`` grid that is cut short.
    static func cutIndex(in paths: [String]) -> Int {
        paths.firstIndex { $0.hasSuffix("quicksort.gif") } ?? 0
    }

    /// `path`'s bytes cut in the middle of the data of its middle frame,
    /// written to a temporary file: a download that stopped. Returns the
    /// temporary file's path.
    static func cutShortCopy(of path: String) throws -> String {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let image = try GIFImage(bytes: bytes)
        let frame = image.info.frames[image.info.frameCount / 2]
        let cut = (frame.dataOffset + frame.dataEnd) / 2
        let copy = NSTemporaryDirectory() + "/nine-grid-cut-\(getpid()).gif"
        try Data(bytes[..<cut]).write(to: URL(fileURLWithPath: copy))
        return copy
    }

    /// The parent: runs both grids in their own processes and prints them.
    static func printSection() {
        print("\n## Nine-grid: nine animations, 160×160 cells, \(loops) loops, one \(budgetBytes >> 20) MiB budget\n")
        print("files: " + files().map { String($0.split(separator: "/").last!) }.joined(separator: ", "))
        print("")
        print("| grid | frames drawn | giflib decodes | RSS at start / after opening MiB | peak RSS MiB | target | budget peak MiB | evictions | state trims | CPU s |")
        print("|---|---:|---:|---:|---:|---|---:|---:|---:|---:|")
        // The parent writes the cut-short copy, so that the child's figures
        // hold the grid and not the copying (Foundation's file reading and
        // writing alone add about 3 MiB to a process).
        let paths = files()
        let cut = paths.isEmpty ? nil : try? cutShortCopy(of: paths[cutIndex(in: paths)])
        defer { if let cut { unlink(cut) } }
        for grid in Grid.allCases {
            let cutName = paths.isEmpty ? "" : String(paths[cutIndex(in: paths)].split(separator: "/").last!)
            let cutArgument = grid == .drawn ? cut.map { [cutName, $0] } ?? [] : []
            // The drawn grid runs in GridProbe, which links the library and
            // nothing else (no Foundation): its peak is the grid's and a
            // library-sized process's, as a host that uses only the
            // library has.
            let (status, output) = grid == .drawn
                ? ProcessProbe.run(ProcessProbe.sibling("GridProbe"), cutArgument)
                : ProcessProbe.runSelf(["--nine-grid-probe", grid.rawValue] + cutArgument)
            guard status == 0, let line = output.split(separator: "\n").compactMap(ProbeLine.init(parsing:)).first else {
                print("| \(grid.name) | probe failed (status \(status)) | | | | | | | | |")
                continue
            }
            let f = line.fields
            let rss = Double(f["maxrss"] ?? 0) / 1024
            let target = grid.atDisplaySize ? "≤ \(targetKiB >> 10) (\((f["maxrss"] ?? .max) <= targetKiB ? "met" : "missed"))" : "–"
            print("| \(grid.name) | \(f["frames"] ?? 0) | \(f["decodes"] ?? 0) | "
                + "\(decimal(Double(f["startrss"] ?? 0) / 1024, 1)) / \(decimal(Double(f["setuprss"] ?? 0) / 1024, 1)) | "
                + "\(decimal(rss, 1)) | \(target) | \(decimal(Double(f["peakheld"] ?? 0) / 1_048_576, 1)) | "
                + "\(f["evictions"] ?? 0) | \(f["trims"] ?? 0) | \(decimal(Double(f["cpu"] ?? 0) / 1e6, 2)) |")
        }
    }

    /// `value` with `places` decimals, without Foundation.
    static func decimal(_ value: Double, _ places: Int) -> String {
        var scale = 1
        for _ in 0..<places { scale *= 10 }
        let scaled = Int((value * Double(scale)).rounded())
        let whole = scaled / scale, fraction = String(scaled % scale)
        return places == 0 ? "\(whole)" : "\(whole)." + String(repeating: "0", count: places - fraction.count) + fraction
    }
}
