import Foundation
@_spi(Benchmarks) import GIF

/// Runs the built `gif` binary and captures what it did.
struct GIFRun {
    /// The exit status.
    var status: Int32
    /// Standard output, as bytes (dump writes binary there).
    var output: [UInt8]
    /// Standard error, as text.
    var error: String

    /// Standard output, as text.
    var text: String { String(decoding: output, as: UTF8.self) }
    /// Standard error's lines, without the last newline.
    var errorLines: [Substring] { error.split(separator: "\n", omittingEmptySubsequences: false).dropLast() }

    /// Runs `gif ARGUMENTS…` in `directory`, with stdout and stderr captured
    /// through files so that large outputs cannot fill a pipe.
    init(_ arguments: [String], in directory: URL? = nil) async throws {
        let scratch = try TemporaryDirectory()
        let outURL = scratch.url.appending(path: "stdout"), errURL = scratch.url.appending(path: "stderr")
        try Data().write(to: outURL)
        try Data().write(to: errURL)
        let out = try FileHandle(forWritingTo: outURL), err = try FileHandle(forWritingTo: errURL)
        let process = Process()
        process.executableURL = try Corpus.binary
        process.arguments = arguments
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        if let directory { process.currentDirectoryURL = directory }
        try await process.runUntilExit()
        try out.close()
        try err.close()
        status = process.terminationStatus
        output = [UInt8](try Data(contentsOf: outURL))
        error = String(decoding: try Data(contentsOf: errURL), as: UTF8.self)
    }
}

extension Process {
    /// Runs the process and waits, suspended, until it has exited.
    ///
    /// Not `waitUntilExit()`: Swift Testing runs tests on the cooperative
    /// pool (one thread per core), and a test blocking its thread for a
    /// child's lifetime starves every other test's tasks. On two cores, two
    /// such tests at once stopped all async work in the process for minutes
    /// and made the manual-clock tests' real-time waits run out.
    func runUntilExit() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            terminationHandler = { _ in continuation.resume() }
            do {
                try run()
            } catch {
                terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
    }
}

/// A directory under the system's temporary directory, removed when the value
/// goes away.
final class TemporaryDirectory: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appending(path: "gif-command-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// Writes `bytes` to a file named `name` here and returns its path.
    func file(_ name: String, _ bytes: [UInt8]) throws -> String {
        let path = url.appending(path: name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The names of the files in `subdirectory`, sorted.
    func names(in subdirectory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.appending(path: subdirectory).path).sorted()
    }
}

/// Where the binary and the shared corpus are, found from this file's path.
enum Corpus {
    /// The package root: three levels above this file.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `../shared/corpus`, next to the package.
    static let root = packageRoot.deletingLastPathComponent().appending(path: "shared/corpus")

    /// The path of `relative` inside the corpus.
    static func path(_ relative: String) -> String {
        root.appending(path: relative).path
    }

    /// The bytes of `relative` inside the corpus.
    static func bytes(_ relative: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: root.appending(path: relative)))
    }

    /// The `gif` binary: `$GIF_BINARY`, or next to the test bundle (same build
    /// directory, whatever the scratch path), or `.build/debug/gif`.
    static var binary: URL {
        get throws {
            var candidates: [String] = []
            if let path = ProcessInfo.processInfo.environment["GIF_BINARY"] { candidates.append(path) }
            for start in [Bundle.main.executablePath, CommandLine.arguments.first].compactMap(\.self) {
                var directory = URL(fileURLWithPath: start).deletingLastPathComponent()
                // On Darwin the runner sits inside `X.xctest/Contents/MacOS`.
                for _ in 0..<4 {
                    candidates.append(directory.appending(path: "gif").path)
                    directory = directory.deletingLastPathComponent()
                }
            }
            candidates.append(packageRoot.appending(path: ".build/debug/gif").path)
            guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
                throw BinaryNotFound(searched: candidates)
            }
            return URL(fileURLWithPath: found)
        }
    }

    struct BinaryNotFound: Error {
        var searched: [String]
    }

    /// The published NIA checksums: (file relative to the corpus, CRC32, OK).
    static func publishedNIAChecksums() throws -> [(file: String, crc: UInt32, ok: Bool)] {
        try ["blink", "go"].flatMap { folder in
            let text = try String(contentsOf: root.appending(path: "\(folder)/nia-crc32.txt"), encoding: .utf8)
            return text.split(separator: "\n").map { line in
                let fields = line.split(separator: " ")
                return ("\(folder)/\(fields[2])", UInt32(fields[1], radix: 16)!, fields[0] == "OK.")
            }
        }
    }

    /// Every GIF with a published NIA checksum.
    static let niaFiles: [String] = [
        "blink/animated-10color-fast.gif", "blink/animated-10color.gif", "blink/animated-gif-with-offsets.gif",
        "blink/animated.gif", "blink/animated2.gif", "blink/boston.gif", "blink/count-down-color-test.gif",
        "blink/crbug779261.gif", "blink/full2loop.gif", "blink/gif-loop-count.gif",
        "blink/large-gif-checkerboard.gif", "blink/quicksort.gif", "blink/short-app-extension-string.gif",
        "blink/size-failure.gif", "blink/wrong-block-length.gif",
        "go/triangle-001.gif", "go/video-001.5bpp.gif", "go/video-001.gif", "go/video-001.interlaced.gif",
        "go/video-005.gray.gif",
    ]

    /// The logical screen size from a GIF's header bytes 6–9.
    static func screenSize(_ bytes: [UInt8]) -> (width: Int, height: Int) {
        (Int(bytes[6]) | Int(bytes[7]) << 8, Int(bytes[8]) | Int(bytes[9]) << 8)
    }
}

/// CRC-32 (IEEE, reflected), written here so the check does not rest on the
/// library's own implementation.
func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    bytes.withUnsafeBufferPointer { buffer in
        crc32Table.withUnsafeBufferPointer { table in
            for byte in buffer { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        }
    }
    return ~crc
}

private let crc32Table: [UInt32] = (0..<256).map { n in
    (0..<8).reduce(UInt32(n)) { c, _ in c & 1 != 0 ? (c >> 1) ^ 0xEDB8_8320 : c >> 1 }
}
