import Foundation
@_spi(Benchmarks) import GIF
import Testing

/// `-` read as it arrives: frames are written before the
/// pipe closes, and what comes out equals the output for the same file.
@Suite("gif: standard input read as it arrives")
struct ProgressiveInputTests {
    static let demo = Corpus.packageRoot.appending(path: "Fixtures/demo.gif").path

    /// Runs `gif ARGUMENTS…` with standard input from a pipe fed with
    /// `bytes`: first `bytes[..<pauseAt]`, then, once `cue` bytes of standard
    /// output have arrived (or after 60 s of real time, so a failure cannot
    /// hang), the rest; all at once without `pauseAt`. Standard output is read as it arrives, on a thread of
    /// its own. Returns the exit status, standard output, and whether the cue
    /// came while the rest of the input was held back.
    static func runPiped(
        _ arguments: [String], bytes: [UInt8], pauseAt: Int? = nil, cue: Int = 0, in directory: URL
    ) async throws -> (status: Int32, output: [UInt8], resumedOnCue: Bool) {
        let input = Pipe(), output = Pipe()
        let process = Process()
        process.executableURL = try Corpus.binary
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let exited = OneShot<Int32>()
        process.terminationHandler = { exited.fire($0.terminationStatus) }
        try process.run()
        let reader = OutputReader(output.fileHandleForReading, cue: cue)
        let split = pauseAt ?? bytes.count
        input.fileHandleForWriting.write(Data(bytes[..<split]))
        let cued = pauseAt == nil ? true : await reader.waitForCue(limit: .seconds(60))
        input.fileHandleForWriting.write(Data(bytes[split...]))
        try input.fileHandleForWriting.close()
        let status = await exited.wait()
        return (status, await reader.everything(), cued)
    }

    @Test("gif dump - -o - from a slow pipe writes frame 0 before the pipe closes, and the file's frames")
    func dumpFromSlowPipe() async throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.demo)))
        let info = try GIFImage(bytes: bytes).info
        try #require(info.frameCount > 1)
        let frame0End = info.frames[0].dataEnd  // just past frame 0's block terminator
        try #require(frame0End < bytes.count)
        let scratch = try TemporaryDirectory()
        // A PPM frame: its header, then 3 bytes a pixel.
        let header = "P6\n\(info.canvasSize.width) \(info.canvasSize.height)\n255\n"
        let frameBytes = header.utf8.count + 3 * info.canvasSize.width * info.canvasSize.height
        let run = try await Self.runPiped(
            ["dump", "-", "-o", "-"], bytes: bytes, pauseAt: frame0End, cue: frameBytes, in: scratch.url)
        #expect(run.resumedOnCue, "frame 0 came out while the rest of the file was held back")
        #expect(run.status == 0)
        let whole = try await GIFRun(["dump", Self.demo, "-o", "-"], in: scratch.url)
        #expect(whole.status == 0)
        #expect(run.output == whole.output)
    }

    @Test("gif dump - -o DIR from a pipe writes the file's frames")
    func dumpFromPipeToDirectory() async throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.demo)))
        let info = try GIFImage(bytes: bytes).info
        let scratch = try TemporaryDirectory()
        let run = try await Self.runPiped(["dump", "-", "-o", "streamed"], bytes: bytes, in: scratch.url)
        #expect(run.status == 0)

        let whole = try await GIFRun(["dump", Self.demo, "-o", "whole"], in: scratch.url)
        #expect(whole.status == 0)
        let names = try scratch.names(in: "whole")
        #expect(names.count == info.frameCount)
        #expect(try scratch.names(in: "streamed") == names)
        for name in names {
            let streamed = try Data(contentsOf: scratch.url.appending(path: "streamed/" + name))
            let expected = try Data(contentsOf: scratch.url.appending(path: "whole/" + name))
            #expect(streamed == expected, "\(name)")
        }
        // The summary names the same frames.
        #expect(String(decoding: run.output, as: UTF8.self) == whole.text.replacingOccurrences(of: "whole", with: "streamed"))
    }

    @Test("gif info - from a pipe prints the file's report", arguments: [false, true])
    func infoFromPipe(json: Bool) async throws {
        let scratch = try TemporaryDirectory()
        let path = Corpus.path("blink/size-failure.gif")
        let flags = json ? ["--json"] : []
        let piped = try await Self.runPiped(["info", "-"] + flags, bytes: try Corpus.bytes("blink/size-failure.gif"), in: scratch.url)
        let file = try await GIFRun(["info", path] + flags)
        #expect(piped.status == file.status)
        // The report names its input: the path, or "-".
        let quoted = json ? "\"\(path)\"" : path
        let expected = file.text.replacingOccurrences(of: quoted, with: json ? "\"-\"" : "-")
        #expect(String(decoding: piped.output, as: UTF8.self) == expected)
    }

    @Test("NIA and PAM streams from a pipe equal the file's", arguments: [
        ("nia", "go/video-001.gif"), ("pam", "go/video-001.gif"), ("ppm", "blink/animated.gif"),
    ])
    func streamsFromPipe(format: String, file: String) async throws {
        let scratch = try TemporaryDirectory()
        let arguments = ["--format", format, "-o", "-"]
        let piped = try await Self.runPiped(["dump", "-"] + arguments, bytes: try Corpus.bytes(file), in: scratch.url)
        let whole = try await GIFRun(["dump", Corpus.path(file)] + arguments)
        #expect(piped.status == whole.status)
        #expect(piped.output == whole.output)
    }

    @Test("--frames past a stream's last frame is reported at its end, after the frames selected")
    func framesPastTheEnd() async throws {
        let scratch = try TemporaryDirectory()
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.demo)))
        let count = try GIFImage(bytes: bytes).info.frameCount
        let run = try await Self.runPiped(["dump", "-", "-o", "out", "--frames", "0,\(count)"], bytes: bytes, in: scratch.url)
        #expect(run.status == 1)
        #expect(try scratch.names(in: "out") == ["frame-000.ppm"])
    }
}

/// A value set once, which tasks can wait for.
final class OneShot<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value?
    private var waiters: [CheckedContinuation<Value, Never>] = []

    /// Sets the value and wakes the waiters; later calls change nothing.
    func fire(_ newValue: Value) {
        let woken = lock.withLock { () -> [CheckedContinuation<Value, Never>] in
            guard value == nil else { return [] }
            value = newValue
            defer { waiters.removeAll() }
            return waiters
        }
        for waiter in woken { waiter.resume(returning: newValue) }
    }

    /// The value, once it is set.
    func wait() async -> Value {
        await withCheckedContinuation { continuation in
            let ready = lock.withLock { () -> Value? in
                if value == nil { waiters.append(continuation) }
                return value
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}

/// Reads a pipe to its end on a thread of its own, and tells a waiting test
/// when a number of bytes (the cue) has arrived.
final class OutputReader: @unchecked Sendable {
    private let lock = NSLock()
    private var bytes: [UInt8] = []
    /// `true` once `cue` bytes are in, `false` if the pipe ends short of them.
    private let cueReached = OneShot<Bool>()
    private let ended = OneShot<Bool>()

    init(_ handle: FileHandle, cue: Int) {
        Thread.detachNewThread { [self] in
            while true {
                let chunk = handle.availableData
                let count = lock.withLock {
                    bytes += chunk
                    return bytes.count
                }
                if count >= cue { cueReached.fire(true) }
                if chunk.isEmpty {
                    cueReached.fire(false)
                    ended.fire(true)
                    return
                }
            }
        }
    }

    /// Waits until the cue's bytes have arrived (`true`), the output ended
    /// short of them or `limit` passed (`false`).
    func waitForCue(limit: Duration) async -> Bool {
        let timer = Task { [cueReached] in
            guard (try? await Task.sleep(for: limit)) != nil else { return }
            cueReached.fire(false)
        }
        defer { timer.cancel() }
        return await cueReached.wait()
    }

    /// Everything the pipe gave, once it has ended.
    func everything() async -> [UInt8] {
        _ = await ended.wait()
        return lock.withLock { bytes }
    }
}
