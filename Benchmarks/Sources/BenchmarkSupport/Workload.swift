import GIF

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One GIF the benchmarks decode: the large generated fixture, or a corpus
/// file read in place from `../shared/corpus`.
public struct Workload: Sendable {
    /// A short name for tables.
    public let name: String
    /// The file's path.
    public let path: String
    /// The file's bytes.
    public let bytes: [UInt8]
    /// The file, scanned.
    public let image: GIFImage

    /// The frame count.
    public var frameCount: Int { image.info.frameCount }

    /// Loads and scans `path`; `nil` when the file is missing.
    public init?(name: String, path: String) {
        guard let image = try? GIFImage(contentsOf: path) else { return nil }
        self.name = name
        self.path = path
        self.bytes = image.bytes
        self.image = image
    }

    /// The checkout's root, found from this file's path.
    public static let packageRoot: String = {
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        // …/Benchmarks/Sources/BenchmarkSupport/Workload.swift
        parts.removeLast(4)
        return parts.joined(separator: "/")
    }()

    /// `../shared/corpus` next to the checkout.
    public static let corpusRoot: String = {
        var parts = packageRoot.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast()
        return parts.joined(separator: "/") + "/shared/corpus"
    }()

    /// The corpus files the issue names.
    public static let corpusFiles = [
        "image-gif/samples/gifplayer-muybridge.gif",
        "image-gif/samples/sample_big.gif",
        "blink/boston.gif",
        "blink/large-gif-checkerboard.gif",
        "go/video-001.gif",
    ]

    /// More corpus files for the `gif` command's figures, which no code
    /// was tuned on: animations of 10 to 74 frames and a 2-frame file.
    public static let commandCorpusFiles = [
        "blink/count-down-color-test.gif",
        "blink/quicksort.gif",
        "pillow/iss634.gif",
        "pillow/chi.gif",
        "image-gif/samples/moon_impact.gif",
        "nsgif/waves.gif",
        "blink/animated-10color.gif",
        "pillow/dispose_none_load_end.gif",
    ]

    /// The names and paths of ``commandCorpusFiles`` that are present.
    public static func commandFiles() -> [(name: String, path: String)] {
        named(commandCorpusFiles).filter { isReadable($0.path) }
    }

    /// The generated 200+ frame animation, `Fixtures/demo.gif`, when present,
    /// else the largest GIF in `Fixtures/`, else `nil`.
    public static func largeFixture() -> Workload? {
        largeFixtureLocation().flatMap { Workload(name: $0.name, path: $0.path) }
    }

    /// The name and path of ``largeFixture()``, without reading the file.
    public static func largeFixtureLocation() -> (name: String, path: String)? {
        let fixtures = packageRoot + "/Fixtures"
        if isReadable(fixtures + "/demo.gif") { return ("demo", fixtures + "/demo.gif") }
        guard let directory = opendir(fixtures) else { return nil }
        defer { closedir(directory) }
        var best: (size: Int, name: String)?
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name.hasSuffix(".gif") else { continue }
            var status = stat()
            guard stat(fixtures + "/" + name, &status) == 0 else { continue }
            if Int(status.st_size) > best?.size ?? -1 { best = (Int(status.st_size), name) }
        }
        guard let best else { return nil }
        return (String(best.name.dropLast(4)), fixtures + "/" + best.name)
    }

    /// The names and paths of the workloads ``all()`` loads, in the same
    /// order, without reading them: for a process that wants one file only
    /// (a memory probe must not hold the others).
    public static func locations() -> [(name: String, path: String)] {
        (largeFixtureLocation().map { [$0] } ?? []) + named(corpusFiles).filter { isReadable($0.path) }
    }

    /// Each corpus file's name (without directory and extension) and path.
    private static func named(_ files: [String]) -> [(name: String, path: String)] {
        files.map { file in (name: String(file.split(separator: "/").last!.dropLast(4)), path: corpusRoot + "/" + file) }
    }

    /// The large fixture (if any) and every corpus file that is present.
    public static func all() -> [Workload] {
        locations().compactMap { Workload(name: $0.name, path: $0.path) }
    }

    private static func isReadable(_ path: String) -> Bool {
        access(path, R_OK) == 0
    }
}
