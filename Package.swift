// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "swift-gif-engine",
    products: [
        .library(name: "GIF", targets: ["GIF"]),
        .library(name: "Playback", targets: ["Playback"]),
        .library(name: "GIFPlayback", targets: ["GIFPlayback"]),
        .executable(name: "gif", targets: ["GIFCommand"]),
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
        .target(name: "GIF", dependencies: ["CGIFLib"]),
        .target(name: "Playback"),
        // giflib's DGifSlurp on the same bytes: the floor `gif bench` divides
        // by. Not a product, so it stays out of the GIF library's API.
        .target(name: "GIFLibBaseline", dependencies: ["CGIFLib", "GIF"]),
        // The glue: GIF's frames as a Playback frame source.
        .target(name: "GIFPlayback", dependencies: ["GIF", "Playback"]),
        .executableTarget(
            name: "GIFCommand",
            dependencies: [
                "GIF",
                "GIFLibBaseline",
                "GIFPlayback",
                "Playback",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Writes the GIFs in Fixtures/ with giflib's encoder: `make fixtures`.
        .executableTarget(name: "GIFFixtureGenerator", dependencies: ["CGIFLib"]),
        // FuzzRegressions/ holds inputs the fuzzer found; the tests read them from #filePath.
        .testTarget(name: "GIFTests", dependencies: ["GIF"], exclude: ["FuzzRegressions"]),
        // End-to-end tests of the built `gif` binary.
        .testTarget(name: "GIFCommandTests", dependencies: ["GIF", "GIFCommand"]),
        .testTarget(name: "PlaybackTests", dependencies: ["Playback"]),
        .testTarget(name: "GIFPlaybackTests", dependencies: ["GIFPlayback"]),
    ],
    swiftLanguageModes: [.v6]
)
