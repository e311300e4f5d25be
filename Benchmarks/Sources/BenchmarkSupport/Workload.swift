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

    /// The third-party corpus, read in place: `$BENCHMARK_CORPUS`, or
    /// `../shared/corpus` next to the checkout.
    public static let corpusRoot: String = {
        if let root = getenv("BENCHMARK_CORPUS") { return String(cString: root) }
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

    /// The generated 240-frame animation, `Fixtures/demo.gif`, or `nil` when
    /// it cannot be read and scanned.
    public static func largeFixture() -> Workload? {
        Workload(name: largeFixtureLocation.name, path: largeFixtureLocation.path)
    }

    /// The name and path of ``largeFixture()``, without reading the file.
    public static let largeFixtureLocation = (name: "demo", path: packageRoot + "/Fixtures/demo.gif")

    /// `Fixtures/screen-recording.gif`: 600 frames, 640 × 400, generated.
    public static let screenRecordingPath = packageRoot + "/Fixtures/screen-recording.gif"

    /// The names and paths of the workloads ``all()`` loads, in the same
    /// order, without reading them: for a process that wants one file only
    /// (a memory probe must not hold the others). The process stops
    /// (``requireReadable(_:for:)``) when any of them is missing.
    public static func locations() -> [(name: String, path: String)] {
        let files = [largeFixtureLocation] + named(corpusFiles)
        requireReadable(files.map(\.path), for: "the benchmark workloads")
        return files
    }

    /// ``locations()`` then the names and paths of ``commandCorpusFiles``,
    /// checked together, so that a missing corpus is named in one message;
    /// the process stops (``requireReadable(_:for:)``) when any is missing.
    public static func locationsAndCommandFiles() -> [(name: String, path: String)] {
        let files = [largeFixtureLocation] + named(corpusFiles) + named(commandCorpusFiles)
        requireReadable(files.map(\.path), for: "the benchmark files")
        return files
    }

    /// Each corpus file's name (without directory and extension) and path.
    private static func named(_ files: [String]) -> [(name: String, path: String)] {
        files.map { file in (name: String(file.split(separator: "/").last!.dropLast(4)), path: corpusRoot + "/" + file) }
    }

    /// The large fixture and every corpus file of ``corpusFiles``, read and
    /// scanned; the process stops when one is missing or does not scan.
    public static func all() -> [Workload] {
        locations().map { location in
            let image = scanned(location.path, for: "the benchmark workloads")
            return Workload(name: location.name, path: location.path, image: image)
        }
    }

    private init(name: String, path: String, image: GIFImage) {
        self.name = name
        self.path = path
        self.bytes = image.bytes
        self.image = image
    }

    /// Stops the process with status 1 when any of `paths` cannot be read,
    /// naming each one on standard error: a figure measured over fewer files
    /// than it names would be another figure, and a missing corpus must not
    /// pass for a small one.
    /// - Parameters:
    ///   - paths: The files a section reads.
    ///   - section: What reads them, for the message.
    public static func requireReadable(_ paths: [String], for section: String) {
        let missing = paths.filter { !isReadable($0) }
        guard !missing.isEmpty else { return }
        let message = "error: \(missing.count) of the \(paths.count) input files of \(section) cannot be read "
            + "(the corpus is read from \(corpusRoot); BENCHMARK_CORPUS names another):\n"
            + missing.map { "  \($0)\n" }.joined()
        writeError(message)
        exit(1)
    }

    /// The GIF at `path`, scanned with its bytes held (`readingFramesFromFile`:
    /// read a frame at a time when decoded); stops the process with status 1,
    /// naming the file and the error, when it cannot be read or scanned.
    /// - Parameters:
    ///   - path: The file.
    ///   - section: What reads it, for the message.
    ///   - readingFramesFromFile: Whether to leave the frames in the file.
    public static func scanned(_ path: String, for section: String, readingFramesFromFile: Bool = false) -> GIFImage {
        do {
            return readingFramesFromFile ? try GIFImage(readingFramesFromFileAt: path) : try GIFImage(contentsOf: path)
        } catch {
            writeError("error: \(path), an input file of \(section), cannot be scanned: \(error)\n")
            exit(1)
        }
    }

    /// Writes `message` to standard error (file descriptor 2: the C
    /// library's `stderr` is shared mutable state to Swift 6).
    private static func writeError(_ message: String) {
        var message = message
        message.withUTF8 { bytes in
            var done = 0
            while done < bytes.count {
                let written = write(2, bytes.baseAddress! + done, bytes.count - done)
                guard written > 0 else { return }
                done += written
            }
        }
    }

    private static func isReadable(_ path: String) -> Bool {
        access(path, R_OK) == 0
    }
}
