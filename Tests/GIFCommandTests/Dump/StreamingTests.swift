import Foundation
@_spi(Benchmarks) import GIF
import Testing

/// Runs a shell script with `$GIF` set to the built binary, in `directory`:
/// for redirections a `Process` cannot express (`> /dev/full`, a file size
/// limit, a pipe into standard input).
struct ShellRun {
    var status: Int32
    var output: [UInt8]
    var error: String
    var errorLines: [Substring] { error.split(separator: "\n", omittingEmptySubsequences: false).dropLast() }

    init(_ script: String, in directory: URL) async throws {
        let outURL = directory.appending(path: ".stdout"), errURL = directory.appending(path: ".stderr")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        process.currentDirectoryURL = directory
        process.environment = ProcessInfo.processInfo.environment.merging(
            ["GIF": try Corpus.binary.path, "OUT": outURL.path, "ERR": errURL.path]) { $1 }
        process.standardInput = FileHandle.nullDevice
        try await process.runUntilExit()
        status = process.terminationStatus
        output = (try? Data(contentsOf: outURL)).map { [UInt8]($0) } ?? []
        error = (try? String(contentsOf: errURL, encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(at: outURL)
        try? FileManager.default.removeItem(at: errURL)
    }
}

/// The command writes each frame as it is produced, to files or standard
/// output, byte-identical to the published checksums, and reports every
/// output failure on one line with a non-zero status, leaving no partial
/// frame file behind.
@Suite("gif: streamed output and output failures")
struct StreamingTests {
    /// The published NIA checksums, and whether each file decodes cleanly.
    static let published: [(file: String, crc: UInt32, ok: Bool)] = (try? Corpus.publishedNIAChecksums()) ?? []

    @Test("NIA streamed to a file matches the published CRC32", arguments: Corpus.niaFiles)
    func niaToFile(file: String) async throws {
        let entry = try #require(Self.published.first { $0.file == file })
        let out = try TemporaryDirectory()
        let run = try await GIFRun(["dump", Corpus.path(file), "--format", "nia", "-o", out.url.path])
        #expect(run.status == (entry.ok ? 0 : 1))
        let name = String(file.split(separator: "/").last!.dropLast(4)) + ".nia"
        #expect(try out.names(in: "") == [name])  // no temporary file left
        #expect(crc32([UInt8](try Data(contentsOf: out.url.appending(path: name)))) == entry.crc)
    }

    @Test("every subcommand's output to a full device fails on one line", arguments: [
        ("info", "gif: standard output: No space left on device (after 0 bytes)"),
        ("info --json", "gif: standard output: No space left on device (after 0 bytes)"),
        ("sniff", "gif: standard output: No space left on device (after 0 bytes)"),
        ("dump --format nia -o -", "gif: standard output: No space left on device (after 0 bytes); 0 of 4 frames written"),
        ("dump -o -", "gif: standard output: No space left on device (after 0 bytes); 0 of 4 frames written"),
        ("dump --format pam -o -", "gif: standard output: No space left on device (after 0 bytes); 0 of 4 frames written"),
    ])
    func fullDevice(command: String, line: String) async throws {
        let scratch = try TemporaryDirectory()
        let fixture = Corpus.packageRoot.appending(path: "Fixtures/delays.gif").path
        let words = command.split(separator: " ")
        let arguments = ([String(words[0]), "'\(fixture)'"] + words.dropFirst().map(String.init)).joined(separator: " ")
        let run = try await ShellRun("\"$GIF\" \(arguments) > /dev/full 2> \"$ERR\"", in: scratch.url)
        #expect(run.status == 1)
        #expect(run.error == line + "\n")
    }

    /// `gif dump` under a file size limit of `blocks` × 512 bytes (`ulimit -f`),
    /// with SIGXFSZ ignored so that the write past it fails with EFBIG.
    func limitedDump(_ arguments: String, blocks: Int, in directory: URL) async throws -> ShellRun {
        try await ShellRun(
            "trap '' XFSZ; ulimit -f \(blocks); \"$GIF\" dump \(arguments) 2> \"$ERR\"", in: directory)
    }

    @Test("a write failing part-way to standard output names what was written")
    func partWayToStandardOutput() async throws {
        let scratch = try TemporaryDirectory()
        let file = "blink/animated.gif"
        let bytes = try Corpus.bytes(file)
        let (width, height) = Corpus.screenSize(bytes)
        let frames = try GIFImage(bytes: bytes).info.frameCount
        try #require(frames >= 2)
        // NIA (Wuffs' layout): a 16-byte header, then 24 bytes and 4 a pixel
        // (padded to an even count) per frame. A limit between one frame and
        // two lets the header and frame 0 through and cuts frame 1 short.
        let frameSize = 24 + 4 * (width * height + (width * height) % 2)
        let blocks = (16 + frameSize + frameSize / 2) / 512
        try #require(blocks * 512 > 16 + frameSize && blocks * 512 < 16 + 2 * frameSize)
        let run = try await limitedDump("'\(Corpus.path(file))' --format nia -o - > \"$OUT\"", blocks: blocks, in: scratch.url)
        #expect(run.status == 1)
        #expect(run.errorLines.count == 1)
        #expect(run.output.count == blocks * 512)
        #expect(run.error
            == "gif: standard output: File too large (after \(blocks * 512) bytes); 1 of \(frames) frames written\n")
    }

    @Test("a write failing part-way to a directory leaves only whole frame files")
    func partWayToFiles() async throws {
        let scratch = try TemporaryDirectory()
        let file = "blink/animated.gif"
        let bytes = try Corpus.bytes(file)
        let (width, height) = Corpus.screenSize(bytes)
        let frames = try GIFImage(bytes: bytes).info.frameCount
        let header = Array("P6\n\(width) \(height)\n255\n".utf8)
        let frameSize = header.count + width * height * 3
        // The size limit is per file: under one that a PPM frame fits in and
        // a PAM frame (4 bytes a pixel) does not, the PPM dump succeeds and
        // the PAM dump fails in its first file.
        let pamSize = Array("P7\nWIDTH \(width)\nHEIGHT \(height)\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n".utf8)
            .count + width * height * 4
        let blocks = (pamSize - 1) / 512
        try #require(blocks * 512 >= frameSize && blocks * 512 < pamSize)
        let ppm = try await limitedDump("'\(Corpus.path(file))' -o out", blocks: blocks, in: scratch.url)
        #expect(ppm.status == 0)
        #expect(try scratch.names(in: "out").count == frames)
        let pam = try await limitedDump("'\(Corpus.path(file))' --format pam -o pam", blocks: blocks, in: scratch.url)
        #expect(pam.status == 1)
        #expect(pam.error == "gif: pam/frame-000.pam: File too large (after \(blocks * 512) bytes); 0 of \(frames) frames written\n")
        // No frame file, whole or partial, and no temporary file.
        #expect(try scratch.names(in: "pam") == [])
    }

    @Test("frame files appear under their names only, no temporary file left")
    func noTemporaryFiles() async throws {
        let out = try TemporaryDirectory()
        let file = "blink/animated.gif"
        let frames = try GIFImage(contentsOf: Corpus.path(file)).info.frameCount
        let run = try await GIFRun(["dump", Corpus.path(file), "-o", out.url.path])
        #expect(run.status == 0)
        let digits = max(3, String(frames - 1).count)
        #expect(try out.names(in: "") == (0..<frames).map { index in
            "frame-" + String(repeating: "0", count: digits - String(index).count) + "\(index).ppm"
        })
    }
}
