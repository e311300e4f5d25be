import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Proof that hostile sizes are refused or bounded by the decoding limits
/// before any large allocation: the built `gif` decodes each file in a child
/// process (`gif dump FILE --format nia -o -`, which scans, decodes and
/// composites every frame and streams it out) under GNU `time`, which reports
/// that process's own peak resident set size. Each test compares it with the
/// same command on a 4-frame 2 × 2 fixture, so the binary's own footprint
/// cancels out, and the control shows that a legitimate 4096 × 4096 canvas
/// (64 MiB of RGBA) does show up in the measure.
///
/// Why `time` and not `wait4` on a direct child: a child started with
/// `posix_spawn` (or `fork`) takes the parent's resident high-water mark with
/// it through `exec`, so under a test runner holding hundreds of MiB every
/// child would look that large. `time` is a small process that forks the
/// command, so the figure is the command's alone. Without `/usr/bin/time`
/// (Debian package `time`) these tests are skipped, saying so.
///
/// The errors that name each limit are pinned in-process by
/// `GIFTests/LimitsTests.swift`.
@Suite("Hostile sizes: the decoder's peak memory stays bounded",
       .enabled(if: FileManager.default.isExecutableFile(atPath: ChildRun.time), "needs GNU time at /usr/bin/time"))
struct PeakMemoryTests {
    static let mebibyte = 1 << 20

    /// `gif dump PATH --format nia -o -`: its status, peak RSS and stderr.
    func dump(_ path: String) throws -> ChildRun {
        try ChildRun(try Corpus.binary.path, ["dump", path, "--format", "nia", "-o", "-"])
    }

    /// The peak RSS of the same command on a tiny fixture.
    func baseline() throws -> Int {
        let run = try dump(Corpus.packageRoot.appending(path: "Fixtures/delays.gif").path)
        #expect(run.status == 0)
        return run.peakBytes
    }

    @Test("a 65535 × 65535 header is refused at the canvas limit, before allocating")
    func hugeHeader() throws {
        let scratch = try TemporaryDirectory()
        let path = try scratch.file("huge.gif", HostileGIF.header(width: 65535, height: 65535)
            + HostileGIF.tinyFrame + [0x3B])
        let run = try dump(path)
        #expect(run.status == 1)
        #expect(run.error == "gif: \(path): the canvas pixels limit is exceeded (4294836225 > 67108864) (byte 6)\n")
        #expect(run.peakBytes - (try baseline()) < 16 * Self.mebibyte)
    }

    @Test("100,000 tiny frames stop at the frame count limit, in a few MiB")
    func hundredThousandFrames() throws {
        let scratch = try TemporaryDirectory()
        let bytes = HostileGIF.header(width: 1, height: 1)
            + Array(repeating: HostileGIF.tinyFrame, count: 100_000).flatMap { $0 } + [0x3B]
        let path = try scratch.file("many.gif", bytes)
        let run = try dump(path)
        #expect(run.status == 1)
        #expect(run.error.contains("gif: \(path): the frame count limit is exceeded (65537 > 65536) (frame 65536, byte "))
        // 1.5 MB of input and 65,536 frame records; measured about 8 MiB.
        #expect(run.peakBytes - (try baseline()) < 32 * Self.mebibyte)
    }

    /// 8000 × 8000 = 64 M pixels of real LZW data (25 KB) on a 2 × 2 canvas.
    /// The decoder holds one frame's palette indices (one byte a pixel, so at
    /// most maxFramePixels = 64 MiB), never the frame as RGBA (256 MB).
    @Test("an 8000 × 8000 frame on a 2 × 2 canvas is bounded by the frame pixels limit")
    func frameMuchLargerThanTheCanvas() throws {
        let scratch = try TemporaryDirectory()
        let bytes = HostileGIF.header(width: 2, height: 2) + HostileGIF.tinyFrame
            + HostileGIF.zeroRunFrame(width: 8000, height: 8000) + [0x3B]
        let path = try scratch.file("big-frame.gif", bytes)
        let run = try dump(path)
        #expect(run.status == 0, "\(run.error)")
        #expect(run.error.hasPrefix("wrote 2 frames as NIA (2x2, "))
        #expect(run.peakBytes - (try baseline()) < 64 * Self.mebibyte + 16 * Self.mebibyte)
    }

    @Test("a 65535 × 65535 frame on a small canvas is refused at the frame limit, before allocating")
    func frameBeyondTheFrameLimit() throws {
        let scratch = try TemporaryDirectory()
        let bytes = HostileGIF.header(width: 2, height: 2) + HostileGIF.tinyFrame
            + HostileGIF.zeroRunFrame(width: 65535, height: 65535) + [0x3B]
        let path = try scratch.file("huge-frame.gif", bytes)
        let run = try dump(path)
        #expect(run.status == 1)
        #expect(run.error.contains(
            "gif: \(path): the frame pixels limit is exceeded (4294836225 > 67108864) (frame 1, byte "))
        #expect(run.peakBytes - (try baseline()) < 16 * Self.mebibyte)
    }

    @Test("control: a legitimate 4096 × 4096 canvas shows up in the measure")
    func control() throws {
        let scratch = try TemporaryDirectory()
        let path = try scratch.file("large.gif", HostileGIF.header(width: 4096, height: 4096)
            + HostileGIF.tinyFrame + [0x3B])
        let run = try dump(path)
        #expect(run.status == 0, "\(run.error)")
        #expect(run.peakBytes - (try baseline()) > 60 * Self.mebibyte)
    }
}

/// A command run under GNU `time` with `posix_spawn` and reaped with
/// `wait4`: its exit status, its own peak resident set size, and its
/// standard error (standard output goes to /dev/null).
struct ChildRun {
    static let time = "/usr/bin/time"

    /// The test process's environment, with AddressSanitizer (`make test`
    /// builds the `gif` it runs with it) told to reuse freed memory at once
    /// and to keep no allocation stacks: its quarantine alone would hold up
    /// to 256 MiB of freed blocks. What remains of the sanitizer (shadow
    /// memory, red zones) only adds to the peak, so a bound met by that
    /// build is met by a plain one. A plain build ignores the variable.
    static let environment: [String] = {
        var variables = ProcessInfo.processInfo.environment
        let lean = "quarantine_size_mb=0:thread_local_quarantine_size_kb=0:malloc_context_size=0"
        variables["ASAN_OPTIONS"] = [variables["ASAN_OPTIONS"], lean].compactMap(\.self).joined(separator: ":")
        return variables.map { "\($0.key)=\($0.value)" }
    }()

    var status: Int32
    var peakBytes: Int
    var error: String

    init(_ executable: String, _ arguments: [String]) throws {
        let scratch = try TemporaryDirectory()
        let errorPath = scratch.url.appending(path: "stderr").path
        let statsPath = scratch.url.appending(path: "maxrss").path
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let command = [Self.time, "-f", "%M", "-o", statsPath, executable] + arguments
        let argv = command.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let environment = Self.environment.map { strdup($0) } + [nil]
        defer { environment.forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, Self.time, &actions, nil, argv, environment)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EINVAL) }
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0 {
            guard errno == EINTR else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EINVAL) }
        }
        // WIFEXITED / WEXITSTATUS, spelled out: Swift does not import the
        // macros. `time` exits with the command's status.
        status = raw & 0x7F == 0 ? (raw >> 8) & 0xFF : 128 + (raw & 0x7F)
        // The last line of time's output is %M, in kilobytes.
        let stats = try String(contentsOf: URL(fileURLWithPath: statsPath), encoding: .utf8)
        peakBytes = (stats.split(separator: "\n").last.flatMap { Int($0) } ?? -1) * 1024
        error = String(decoding: try Data(contentsOf: URL(fileURLWithPath: errorPath)), as: UTF8.self)
    }
}

/// Hand-assembled hostile GIFs (GIFTests' GIFBuilder is not visible here).
enum HostileGIF {
    /// `GIF89a`, the logical screen, a 2-entry global table (black, white).
    static func header(width: Int, height: Int) -> [UInt8] {
        Array("GIF89a".utf8) + le16(width) + le16(height) + [0x80, 0, 0] + [0, 0, 0, 255, 255, 255]
    }

    /// A 1 × 1 frame at the origin: code size 2, clear, index 1, end.
    static let tinyFrame: [UInt8] = [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x4C, 0x01, 0]

    /// A frame at the origin whose LZW data (code size 2) decodes to at least
    /// `width × height` zeros: literal 0, each new code one zero longer than
    /// the last, then code 4095 (4091 zeros) with the table full.
    static func zeroRunFrame(width: Int, height: Int) -> [UInt8] {
        var codes: [(code: Int, width: Int)] = [(4, 3), (0, 3)]
        var covered = 1, next = 6, codeWidth = 3
        while covered < width * height {
            codes.append((min(next, 4095), codeWidth))
            covered += next < 4096 ? next - 4 : 4091
            if next < 4096 {
                next += 1
                if next == 1 << codeWidth, codeWidth < 12 { codeWidth += 1 }
            }
        }
        codes.append((5, codeWidth))
        var packed: [UInt8] = []
        var bits = 0, count = 0
        for (code, width) in codes {
            bits |= code << count
            count += width
            while count >= 8 {
                packed.append(UInt8(bits & 0xFF))
                bits >>= 8
                count -= 8
            }
        }
        if count > 0 { packed.append(UInt8(bits)) }
        var data: [UInt8] = [2]
        for start in stride(from: 0, to: packed.count, by: 255) {
            let chunk = packed[start..<min(start + 255, packed.count)]
            data += [UInt8(chunk.count)] + chunk
        }
        return [0x2C, 0, 0, 0, 0] + le16(width) + le16(height) + [0] + data + [0]
    }

    static func le16(_ value: Int) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)]
    }
}
