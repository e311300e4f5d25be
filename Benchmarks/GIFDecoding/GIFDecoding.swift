import Benchmark
import BenchmarkSupport
import GIF

// Absolute figures for each workload. `BenchmarkReport` turns the same
// measurements into ratios against the C baseline, which is what the
// project's speed targets are stated in.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident],
        warmupIterations: 1,
        maxDuration: .seconds(2),
        maxIterations: 200
    )

    // BenchmarkReport and the BaselineTests check once that the C baseline
    // draws what GIF draws; not here, as this runs once per benchmark.
    let workloads = Workload.all()

    for workload in workloads {
        let name = workload.name
        Benchmark("scan \(name)") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(Decoders.scan(workload.bytes)) }
        }
        Benchmark("decode C baseline \(name)") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(Decoders.cBaseline(workload.bytes)) }
        }
        Benchmark("decode GIF \(name)") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(Decoders.sequential(workload.image)) }
        }
        if workload.frameCount > 1 {
            Benchmark("decode GIF parallel \(name)") { benchmark in
                for _ in benchmark.scaledIterations { blackHole(Decoders.parallel(workload.image)) }
            }
            let indices = Decoders.shuffledIndices(frameCount: workload.frameCount)
            // Checkpoints are saved once per process, outside the measurement.
            let prepared = SeekerBox(workload.image)
            Benchmark("seek GIF \(name) (every frame once, shuffled, checkpoints saved)") { benchmark in
                prepared.prepare()
                benchmark.startMeasurement()
                for _ in benchmark.scaledIterations { blackHole(Decoders.seek(&prepared.seeker, to: indices)) }
            }
            // A host-driven player in its steady state: two loops played once
            // per process, outside the measurement; then one whole loop per
            // iteration (every frame change with currentImage()).
            let player = WarmPlayer(path: workload.path)
            Benchmark("player loop \(name)") { benchmark in
                let run = try await player.warmed()
                benchmark.startMeasurement()
                for _ in benchmark.scaledIterations { blackHole(try await run.playLoop()) }
            }
        }
    }
}

/// A seeker whose checkpoints are saved on first use and kept between the
/// benchmark's samples.
final class SeekerBox {
    let image: GIFImage
    var seeker: FrameSeeker
    private var prepared = false

    init(_ image: GIFImage) {
        self.image = image
        seeker = image.makeSeeker()
    }

    func prepare() {
        guard !prepared else { return }
        seeker = Decoders.preparedSeeker(image)
        prepared = true
    }
}

/// A host-driven player of one file, made and played for
/// ``warmUpLoops`` loops on first use, then kept between the benchmark's
/// samples.
actor WarmPlayer {
    /// Loops played before the first measurement.
    static let warmUpLoops = 2

    private let path: String
    private var run: HostDrivenPlayers?

    init(path: String) {
        self.path = path
    }

    /// The player, warmed.
    func warmed() async throws -> HostDrivenPlayers {
        if let run { return run }
        let made = try await HostDrivenPlayers.single(path: path)
        for _ in 0..<Self.warmUpLoops { _ = try await made.playLoop() }
        run = made
        return made
    }
}
