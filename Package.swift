// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "swift-gif-engine",
    // The floor on Apple platforms the package is written for (the Clock API, typed throws).
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "GIF", targets: ["GIF"]),
        .library(name: "Playback", targets: ["Playback"]),
        .library(name: "GIFPlayback", targets: ["GIFPlayback"]),
        .executable(name: "gif", targets: ["GIFCommand", "GIFStaticLink"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CGIFLib",
            pkgConfig: "libgif",
            providers: [.apt(["libgif-dev"]), .brew(["giflib"])]
        ),
        // libpng, which `gif dump --format png` and `gif sheet` write with
        // (the library itself never needs it).
        .systemLibrary(
            name: "CLibPNG",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"]), .brew(["libpng"])]
        ),
        // Locks and threads the library's modules share (pthread-based, so
        // that ThreadSanitizer sees them). Internal: no product holds it.
        .target(name: "EngineSupport"),
        // The decoder's AVX-512 and AVX2 kernels, compiled once with the
        // instruction sets they name and called only where the processor
        // has them, and the runs drawer (portable loops everywhere).
        .target(name: "GIFKernels"),
        // The pixel types GIF and Playback share (the pixel format, the
        // rectangle, the buffer error), so that both speak of the same
        // values; each re-exports it.
        .target(name: "Pixels"),
        // The player's per-pixel loops (the box filter) in C, so that they
        // are fast in debug builds too.
        .target(name: "PixelKernels"),
        .target(name: "GIF", dependencies: ["CGIFLib", "EngineSupport", "GIFKernels", "Pixels"]),
        .target(name: "Playback", dependencies: ["EngineSupport", "PixelKernels", "Pixels"]),
        // giflib's DGifSlurp on the same bytes: the floor `gif bench` divides
        // by. Not a product, so it stays out of the GIF library's API.
        .target(name: "GIFLibBaseline", dependencies: ["CGIFLib", "GIF"]),
        // The glue: GIF's frames as a Playback frame source.
        .target(name: "GIFPlayback", dependencies: ["EngineSupport", "GIF", "Playback"]),
        .executableTarget(
            name: "GIFCommand",
            dependencies: [
                "CLibPNG",
                "GIF",
                "GIFLibBaseline",
                "GIFPlayback",
                "Playback",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // On Linux a release `gif` is one static executable, as `make
        // release` builds it: with the shared Swift runtime the dynamic
        // loader's relocations alone cost more than a small file's whole dump.
        // Linked against the static archives, FoundationEssentials (which
        // ArgumentParser imports) needs the three libraries named. It is
        // linked by the toolchain's lld, which puts the functions a dump runs
        // and the data it touches (startup-order.txt, written by
        // scripts/startup-order.sh) together at the start of the code and
        // of each data section: the kernel maps code 64 KiB around each page
        // fault, but a written page faults alone, and a 1-frame dump takes
        // 121 page faults, 168 with the code and data where gold leaves them. The flags sit on a target of
        // their own that only the `gif` product holds, so that test
        // executables linking GIFCommand stay dynamic.
        .target(
            name: "GIFStaticLink",
            exclude: ["startup-order.txt"],
            linkerSettings: [
                .unsafeFlags(
                    [
                        "-static-executable", "-l_FoundationCollections", "-l_FoundationCShims",
                        "-lswiftSynchronization", "-use-ld=lld",
                        "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/Sources/GIFStaticLink/startup-order.txt",
                        "-Xlinker", "--no-warn-symbol-ordering",
                    ],
                    .when(platforms: [.linux], configuration: .release)),
            ]
        ),
        // Writes the GIFs in Fixtures/ with giflib's encoder: `make fixtures`.
        .executableTarget(name: "GIFFixtureGenerator", dependencies: ["CGIFLib"]),
        // FuzzRegressions/ holds inputs the fuzzer found; the tests read them from #filePath.
        .testTarget(name: "GIFTests", dependencies: ["GIF"], exclude: ["FuzzRegressions"]),
        // End-to-end tests of the built `gif` binary.
        // They read the PNGs the command writes back with libpng, and write
        // GIFs with the fixture generator's encoder.
        .testTarget(name: "GIFCommandTests", dependencies: ["CLibPNG", "GIF", "GIFCommand", "GIFFixtureGenerator"]),
        // Waits for background work without polling, for the player tests.
        .target(name: "PlaybackTestSupport", dependencies: ["Playback"], path: "Tests/PlaybackTestSupport"),
        .testTarget(name: "PlaybackTests", dependencies: ["Playback", "PlaybackTestSupport"]),
        // The drawing contract's checker: guarded host buffers, a resampler
        // written from its definition, GIFs generated from seeds; for
        // GIFPlaybackTests and the draw fuzzer (Fuzz/DrawFuzzer).
        .target(name: "DrawingContract", dependencies: ["GIFPlayback"], path: "Tests/DrawingContract"),
        .testTarget(name: "GIFPlaybackTests", dependencies: ["DrawingContract", "GIFPlayback", "PlaybackTestSupport"]),
        // Every Swift snippet of the README and the DocC articles, compiled
        // (Snippets.swift is generated by scripts/snippets.py) and run, and
        // every Swift example of the doc comments, compiled
        // (DocCommentSnippets.swift); GIFLibBaseline's among them.
        .testTarget(name: "DocSnippetTests", dependencies: ["GIF", "GIFLibBaseline", "GIFPlayback", "Playback"]),
    ],
    swiftLanguageModes: [.v6]
)

// `GIF_PACKAGE=threads` keeps only what the ThreadSanitizer run of
// `scripts/test.sh long` executes (the player tests, the GIF frame source's
// and the parallel decoder's): the command, its argument parser and the
// snippet tests are left unbuilt. `GIF_PACKAGE=player-threads` keeps the
// library's modules with the player tests and the GIF frame source's and
// drawers' (not the decoder's), the ThreadSanitizer sample of `make test`.
// `GIF_PACKAGE=library` keeps the library's modules alone, for
// a package that depends on this one by path (`scripts/example.sh` builds
// Examples/GridHost so): no argument parser to fetch, and no plugins of it
// to compile.
let player: Set = ["EngineSupport", "PixelKernels", "Pixels", "Playback"]
let library = player.union(["CGIFLib", "GIFKernels", "GIF", "GIFPlayback"])
let playerTests: Set = ["PlaybackTestSupport", "PlaybackTests"]
let threadTests = playerTests.union(["DrawingContract", "GIFPlaybackTests", "GIFTests"])
let gifPlayerTests = playerTests.union(["DrawingContract", "GIFPlaybackTests"])
let kept = [
    "threads": library.union(threadTests), "player-threads": library.union(gifPlayerTests), "library": library,
][Context.environment["GIF_PACKAGE"] ?? ""]
if let kept {
    package.targets.removeAll { !kept.contains($0.name) }
    // A product names its module: the libraries' are the targets of the same name.
    package.products.removeAll { product in !kept.contains(product.name) }
    package.dependencies.removeAll()
}
