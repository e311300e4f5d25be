// Plays one path's loops of one GIF and nothing else, for an instruction
// counter: `valgrind --tool=callgrind .build/release/LoopProfile MODE PATH
// WARM LOOPS` sets the path up, plays WARM loops, then LOOPS more. Two
// runs that differ only in LOOPS give one loop's instructions as their
// difference over the loops added. Modes:
// - `feed`: the feed path as BenchmarkReport's `--feed` sets it up (a
//   FrameCachePool over one 24 MiB FrameMemoryBudget, the source reading
//   frames from its file, one Player in a GroupDriver the host ticks at each
//   frame change, drawing with Player.draw into a canvas-sized buffer);
// - `drawing`: a lone DrawingPlayer advanced to each change and drawn;
// - `images`: the README's first example as BenchmarkReport's `--images`
//   plays it (one default player advanced to each change, currentImage(),
//   the previous image held until the next arrives);
// - `c`: the C baseline's decode of the whole file, once a loop.
// The main thread waits on a semaphore for a detached task (not one on the
// main actor, whose thread waits) that does the work:
// valgrind does not run a program whose main is async.
import BenchmarkSupport
import Dispatch
import Foundation
import GIF
@_spi(Benchmarks) import GIFPlayback
import Playback

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 4, let warm = Int(arguments[2]), let loops = Int(arguments[3]) else {
    print("usage: LoopProfile feed|drawing|images|c PATH WARM LOOPS")
    exit(2)
}
let path = arguments[1]

/// Plays the feed path for `frames` frame changes; returns a pixel sum and the late draws.
func feed(frames: @Sendable (Int) -> Int) async throws -> (touched: Int, late: Int) {
    // The real clock, as the probe has: the host ticks at the instants
    // the changes are due rather than waiting for them.
    let clock = ContinuousClock()
    let pool = FrameCachePool(budget: FrameMemoryBudget(byteBudget: 24 << 20))
    let cache = try await pool.cache(for: path) { try GIFFrameSource(readingFramesFromFileAt: path) }
    let player = try Player(
        source: cache.source, configuration: PlayerConfiguration(loop: .forever), startingAt: clock.now,
        epoch: clock.now, cache: cache)
    let group = GroupDriver(clock: clock)
    await group.add(player)
    await player.play(at: clock.now)
    let bytesPerRow = player.drawer.width * 4
    let pixels = UnsafeMutableRawBufferPointer.allocate(
        byteCount: max(1, bytesPerRow * player.drawer.height), alignment: 64)
    defer { pixels.deallocate() }
    pixels.initializeMemory(as: UInt8.self, repeating: 0)
    var touched = 0
    var due = player.nextChangeInstant
    for _ in 0..<frames(cache.source.frameCount) {
        guard let now = due else { throw PlayerWorkloadError.nothingScheduled }
        let tick = await group.tick(at: now)
        if !tick.changed.isEmpty {
            while case .late = try player.draw(into: pixels, bytesPerRow: bytesPerRow) {
                try await Task.sleep(for: .milliseconds(1))
            }
            touched &+= Int(pixels[pixels.count / 2])
        }
        due = tick.nextChange
    }
    return (touched, player.lateDrawCount)
}

/// Plays a DrawingPlayer for `frames` frame changes; returns a pixel sum.
func drawing(frames: (Int) -> Int) throws -> Int {
    var (player, buffer) = try DrawingPlayer.looping(try GIFImage(contentsOf: path))
    return try player.drawFrameChanges(frames(player.image.info.frameCount), into: &buffer, bytesPerRow: player.width * 4)
}

let done = DispatchSemaphore(value: 0)
nonisolated(unsafe) var status: Int32 = 0
Task.detached {
    defer { done.signal() }
    do {
        let frames: @Sendable (Int) -> Int = { (warm + loops) * $0 }
        switch arguments[0] {
        case "feed":
            let (touched, late) = try await feed(frames: frames)
            print("touched=\(touched & 0xff) late=\(late)")
        case "drawing":
            print("touched=\(try drawing(frames: frames) & 0xff)")
        case "images":
            let players = try await HostDrivenPlayers.single(path: path)
            var touched = 0
            for _ in 0..<(warm + loops) { touched &+= try await players.playLoop() }
            print("touched=\(touched & 0xff)")
        case "c":
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            var touched = 0
            for _ in 0..<(warm + loops) { touched &+= Decoders.cBaseline(bytes) }
            print("touched=\(touched & 0xff)")
        default:
            print("unknown mode \(arguments[0])")
            status = 2
        }
    } catch {
        print("failed: \(error)")
        status = 1
    }
}
done.wait()
exit(status)
