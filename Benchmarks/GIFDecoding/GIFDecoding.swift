import Benchmark
import BenchmarkSupport
import GIF

// Absolute figures for each workload. `BenchmarkReport` turns the same
// measurements into ratios against the C baseline, which is what the targets
// in issue 6 are stated in.
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
