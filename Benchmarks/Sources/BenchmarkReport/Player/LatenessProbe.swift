import BenchmarkSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@_spi(Benchmarks) import GIF
@_spi(Benchmarks) import GIFPlayback
@_spi(Benchmarks) import Playback

/// The lateness figure of a real-time driver (`PlaybackDriver` on
/// `ContinuousClock`) plays a small GIF while two other players, each with
/// its own `GIFFrameSource`, decode a 4096 × 4096 GIF (a 64 MiB RGBA canvas)
/// as fast as they can, on the same cores. Each frame change's lateness is
/// the instant the driver showed it minus the instant its frame was due
/// (the start of the step shown, on the player's anchor). The same player
/// alone, in the same run, is the baseline.
///
/// Run alone: `BenchmarkReport --lateness [SECONDS]`.
enum LatenessProbe {
    /// The target: p99 lateness in milliseconds.
    static let targetP99 = 5.0
    /// The large GIF's side.
    static let side = 4096
    /// Its frames: each a whole canvas.
    static let bigFrames = 3

    /// Plays `demo` (the generated fixture: 40 ms frames, so 25 changes a
    /// second) when present, else the nine-player workload.
    static func printSection(workloads: [Workload], seconds: Double = 10) async {
        guard let small = workloads.first(where: { $0.name == "demo" })
            ?? workloads.first(where: { $0.name == PlayerReport.nineWorkload }) ?? workloads.first
        else { return }
        do {
            let big = try GIFImage(bytes: largeGIF())
            let alone = try await measure(small, loaded: nil, seconds: seconds)
            let loaded = try await measure(small, loaded: big, seconds: seconds)
            print()
            print("Real-time lateness: \(small.name) under a PlaybackDriver on ContinuousClock, "
                + "\(Timing.format(seconds, digits: 1)) s each; lateness = shown − due, per frame change (ms):")
            print("  alone: \(alone.summary)")
            print("  with two players decoding a \(side)×\(side) GIF (64 MiB canvas, \(bigFrames) whole-canvas frames) "
                + "as fast as they can: \(loaded.summary); their frames decoded: \(loaded.bigDecodes)")
            let met = loaded.p99 <= targetP99 ? "met" : "NOT MET"
            print("  p99 with the decoders: \(Timing.format(loaded.p99, digits: 2)) ms (target ≤ "
                + "\(Timing.format(targetP99, digits: 0)) ms), \(met); ×alone p99: "
                + "\(Timing.format(loaded.p99 / max(alone.p99, 0.001), digits: 1))")
        } catch {
            print("lateness probe failed: \(error)")
        }
    }

    struct Outcome {
        var changes: Int
        var p50: Double
        var p99: Double
        var max: Double
        var bigDecodes: Int

        var summary: String {
            "p50 \(Timing.format(p50, digits: 2)), p99 \(Timing.format(p99, digits: 2)), "
                + "max \(Timing.format(max, digits: 2)) over \(changes) changes"
        }
    }

    /// Lateness of each change, in milliseconds, recorded by the observer.
    private final class Recorder: @unchecked Sendable {
        private let lock = NSLockLike()
        private var values: [Double] = []
        func record(_ value: Double) { lock.locked { values.append(value) } }
        var all: [Double] { lock.locked { values } }
    }

    private static func measure(_ small: Workload, loaded big: GIFImage?, seconds: Double) async throws -> Outcome {
        let clock = ContinuousClock()
        let start = clock.now
        let player = try Player(
            source: GIFFrameSource(image: small.image), startingAt: start, epoch: start)
        let timeline = player.timeline
        let starts = timeline.playOrder.indices.map { step in
            timeline.playOrder.prefix(step).reduce(Duration.zero) { $0 + timeline.frameDurations[$1] }
        }
        let loop = timeline.loopDuration
        let recorder = Recorder()
        let measuring = AtomicFlag()
        await player.addObserver { event in
            guard case .frameChanged = event, measuring.isSet else { return }
            let now = clock.now
            // Due: the start of the step the clock is in (the change shown).
            let media = start.duration(to: now)
            let within = media - loop * Int(media / loop)
            let stepStart = starts.last { $0 <= within } ?? .zero
            recorder.record(milliseconds(within - stepStart))
        }
        // The decoders: two players of the big GIF, each pulled through its
        // cache frame after frame, as fast as the decodes come.
        var decoders: [Task<Int, Never>] = []
        let stop = AtomicFlag()
        if let big {
            for _ in 0..<2 {
                let heavy = try Player(
                    source: GIFFrameSource(image: big), configuration: PlayerConfiguration(rate: 100),
                    startingAt: start)
                decoders.append(Task {
                    var decoded = 0
                    await heavy.play(at: clock.now)
                    while !stop.isSet {
                        await heavy.advance(to: clock.now)
                        if (try? await heavy.currentImage()) != nil { decoded += 1 }
                    }
                    return decoded
                })
            }
        }
        let driving = Task { await PlaybackDriver(player: player, clock: clock).run() }
        await player.play(at: start)
        try await clock.sleep(for: .milliseconds(300))
        measuring.set()
        try await clock.sleep(for: .seconds(seconds))
        measuring.clear()
        stop.set()
        driving.cancel()
        await driving.value
        var bigDecodes = 0
        for decoder in decoders { bigDecodes += await decoder.value }
        let values = recorder.all.sorted()
        func percentile(_ p: Double) -> Double {
            guard !values.isEmpty else { return 0 }
            return values[min(values.count - 1, Int((p * Double(values.count)).rounded(.up)) - 1)]
        }
        return Outcome(
            changes: values.count, p50: percentile(0.5), p99: percentile(0.99), max: values.last ?? 0,
            bigDecodes: bigDecodes)
    }

    private static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1e3 + Double(duration.components.attoseconds) * 1e-15
    }

    // MARK: The large GIF

    /// A `side` × `side` GIF of ``bigFrames`` whole-canvas frames (10 cs
    /// each, looping), its LZW data written uncompressed: 9-bit literal codes
    /// with a clear code every 250, so the decoder does a full frame's work.
    static func largeGIF() -> [UInt8] {
        var out: [UInt8] = Array("GIF89a".utf8)
        func le16(_ value: Int) { out += [UInt8(value & 0xFF), UInt8(value >> 8)] }
        le16(side)
        le16(side)
        out += [0xF7, 0, 0]  // global table of 256 colours
        for index in 0..<256 { out += [UInt8(index), UInt8(255 - index), UInt8((index * 7) & 0xFF)] }
        out += [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1, 0, 0, 0]
        for frame in 0..<bigFrames {
            out += [0x21, 0xF9, 4, 0x04, 10, 0, 0, 0]  // keep, 10 cs
            out += [0x2C, 0, 0, 0, 0]
            le16(side)
            le16(side)
            out.append(0)  // no local table
            LiteralLZW.append(pixels: side * side, { pixel in (pixel % side / 16 + pixel / side / 16 + frame * 40) & 0xFF },
                              to: &out)
        }
        out.append(0x3B)
        return out
    }
}

/// A flag set and read across tasks.
private final class AtomicFlag: @unchecked Sendable {
    private let lock = NSLockLike()
    private var value = false
    var isSet: Bool { lock.locked { value } }
    func set() { lock.locked { value = true } }
    func clear() { lock.locked { value = false } }
}

/// A pthread mutex, so the probe needs no Foundation.
private final class NSLockLike: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    init() { pthread_mutex_init(&mutex, nil) }
    deinit { pthread_mutex_destroy(&mutex) }
    func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return body()
    }
}
