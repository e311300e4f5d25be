// swift-tools-version:6.1
// The benchmarks live in their own package, as swift-collections keeps its,
// so that users of GIF never resolve the benchmark package's dependencies.
import PackageDescription

let package = Package(
    name: "swift-gif-engine-benchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "swift-gif-engine", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        // Malloc counts around one player loop in BenchmarkReport's probe.
        .package(url: "https://github.com/ordo-one/malloc-interposer.git", from: "1.6.1"),
    ],
    targets: [
        // giflib called straight from C with a plain compositor: the floor
        // every decode figure is divided by.
        .target(
            name: "CBaseline",
            linkerSettings: [.linkedLibrary("gif")]
        ),
        // The system's liblz4 (liblz4-dev), which only the index candidates'
        // figures use: the library itself does not link it.
        .systemLibrary(
            name: "CLZ4",
            pkgConfig: "liblz4",
            providers: [.apt(["liblz4-dev"]), .brew(["lz4"])]
        ),
        // Compact forms of stored indices measured beside the library's
        // IndexLZ by BenchmarkReport --index-candidates.
        .target(
            name: "IndexCandidates",
            dependencies: ["CBaseline", "CLZ4"],
            linkerSettings: [.linkedLibrary("gif")]
        ),
        // The workloads, shared by the benchmark target and the ratio report.
        .target(
            name: "BenchmarkSupport",
            dependencies: [
                "CBaseline",
                .product(name: "GIF", package: "swift-gif-engine"),
                .product(name: "Playback", package: "swift-gif-engine"),
                .product(name: "GIFPlayback", package: "swift-gif-engine"),
            ]
        ),
        // ordo-one's runner: `swift package benchmark`.
        .executableTarget(
            name: "GIFDecoding",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "GIF", package: "swift-gif-engine"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "GIFDecoding",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Times ours against the C baseline in one run and prints ratios.
        .executableTarget(
            name: "BenchmarkReport",
            dependencies: [
                "BenchmarkSupport",
                // Built with the report, which runs it.
                "GridProbe",
                "IndexCandidates",
                .product(name: "GIF", package: "swift-gif-engine"),
                .product(name: "Playback", package: "swift-gif-engine"),
                .product(name: "GIFPlayback", package: "swift-gif-engine"),
                .product(name: "MallocInterposerSwift", package: "malloc-interposer"),
            ]
        ),
        // The nine-grid's drawn row in a process that links the library and
        // nothing else (no Foundation), run by BenchmarkReport --nine-grid.
        .executableTarget(
            name: "GridProbe",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "GIF", package: "swift-gif-engine"),
                .product(name: "Playback", package: "swift-gif-engine"),
                .product(name: "GIFPlayback", package: "swift-gif-engine"),
            ]
        ),
        // One path's loops and nothing else, for an instruction counter
        // (valgrind cannot run an async main, so this one blocks on a task).
        .executableTarget(
            name: "LoopProfile",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "GIF", package: "swift-gif-engine"),
                .product(name: "Playback", package: "swift-gif-engine"),
                .product(name: "GIFPlayback", package: "swift-gif-engine"),
            ]
        ),
        // The C baseline draws what GIF draws, checked once by CRC.
        .testTarget(
            name: "BaselineTests",
            dependencies: ["BenchmarkSupport", "CBaseline", .product(name: "GIF", package: "swift-gif-engine")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
