// swift-tools-version:6.1
// A host in a real window: the library's players drawing a grid of GIFs
// into an X11 window. Its own package, so that neither the library's users
// nor the library's own build ever need X11.
import PackageDescription

let package = Package(
    name: "GridHost",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "swift-gif-engine", path: "../.."),
    ],
    targets: [
        // Xlib, from the system (pkg-config `x11`).
        .systemLibrary(name: "CX11", pkgConfig: "x11", providers: [.apt(["libx11-dev"]), .brew(["libx11"])]),
        .executableTarget(
            name: "GridHost",
            dependencies: [
                "CX11",
                .product(name: "GIF", package: "swift-gif-engine"),
                .product(name: "Playback", package: "swift-gif-engine"),
                .product(name: "GIFPlayback", package: "swift-gif-engine"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
