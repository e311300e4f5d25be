// The nine-grid's drawn row (`BenchmarkReport --nine-grid` runs it): the
// README's feed set-up with default budgets, nine animations in 160 × 160
// cells under one 24 MiB FrameMemoryBudget, each player drawn with
// Player.draw into its own buffer at each of its frame changes (a late draw
// waits a millisecond and draws again; a frame that fails is left, as a
// host would, and the grid goes on). One process that links the library
// and nothing else (no Foundation), so its peak resident memory is the
// grid's plus a library-sized process's.
//
// `GridProbe [NAME CUT]` puts the file CUT, a copy cut short mid-frame,
// in place of the grid's file whose name ends in NAME; prints one probe
// line.
import BenchmarkSupport
@_spi(Benchmarks) import GIF
@_spi(Benchmarks) import GIFPlayback
@_spi(Benchmarks) import Playback

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let arguments = CommandLine.arguments.dropFirst()
let cutCopy = arguments.count == 2 ? (name: arguments.first!, path: arguments.last!) : nil
    do {
        var paths = NineGridSetup.files()
        if let cutCopy, let cut = paths.firstIndex(where: { $0.hasSuffix(cutCopy.name) }) { paths[cut] = cutCopy.path }
        let start = ProcessFigures.residentMemory().currentKiB
        let budget = FrameMemoryBudget(byteBudget: NineGridSetup.budgetBytes)
        let pool = FrameCachePool(budget: budget)
        let origin = ContinuousClock.now
        let configuration = PlayerConfiguration(loop: .count(NineGridSetup.loops), autoplay: true)
        var players: [Player<ContinuousClock.Instant>] = []
        var buffers: [UnsafeMutableRawBufferPointer] = []
        var framesInAll = 0
        for path in paths {
            let cache = try await pool.cache(for: path, displaySize: NineGridSetup.cell) {
                try GIFFrameSource(readingFramesFromFileAt: path, pixelFormat: .premultipliedBGRA8)
            }
            framesInAll += cache.source.frameCount
            let player = try Player(source: cache.source, configuration: configuration, startingAt: origin,
                                    epoch: origin, cache: cache)
            players.append(player)
            buffers.append(.allocate(byteCount: player.drawer.width * player.drawer.height * 4, alignment: 64))
        }
        defer { for buffer in buffers { buffer.deallocate() } }
        let setup = ProcessFigures.residentMemory().currentKiB
        var frames = 0, late = 0, failed = 0, peakHeld = 0
        func draw(_ index: Int) async throws {
            let player = players[index]
            while true {
                switch try player.draw(into: buffers[index], bytesPerRow: player.drawer.width * 4) {
                case .late:
                    late += 1
                    try await Task.sleep(for: .milliseconds(1))
                    continue
                case .failed: failed += 1
                case .drawn: frames += 1
                case .unchanged, .still: break
                }
                return
            }
        }
        for index in players.indices { try await draw(index) }
        while let next = await NineGridSetup.earliestChange(of: players) {
            for index in players.indices where !(players[index].advance(to: next)).isEmpty {
                try await draw(index)
            }
            peakHeld = max(peakHeld, budget.bytesHeld)
        }
        print(ProbeLine(label: "grid-drawn", fields: [
            "players": players.count, "frames": frames, "late": late, "failed": failed,
            "maxrss": ProcessFigures.residentMemory().peakKiB, "cpu": Int(ProcessFigures.processCPUSeconds() * 1e6),
            "peakheld": peakHeld, "evictions": budget.statistics.evictions,
            "trims": budget.statistics.decodingStateTrims, "startrss": start, "setuprss": setup,
            "decodes": players.reduce(0) { $0 + (($1.source as? GIFFrameSource)?.decodeCount ?? 0) },
            "framesinall": framesInAll,
        ]))
        exit(0)
    } catch {
        print("probe failed: \(error)")
        exit(1)
    }
