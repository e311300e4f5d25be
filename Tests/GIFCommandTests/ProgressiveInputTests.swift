import Foundation
import GIF
import Testing

/// `-` read as it arrives (issue 16, item 4): frames are written before the
/// pipe closes, and what comes out equals the output for the same file.
@Suite("gif: standard input read as it arrives")
struct ProgressiveInputTests {
    static let demo = Corpus.packageRoot.appending(path: "Fixtures/demo.gif").path

    /// Runs `gif ARGUMENTS…` with standard input from a pipe fed with
    /// `bytes`: first `bytes[..<pauseAt]`, then, once `resume` says so (or
    /// after 60 s of real time, so a failure cannot hang), the rest.
    /// Returns the exit status, standard output, and what `resume` said.
    static func runPiped(
        _ arguments: [String], bytes: [UInt8], pauseAt: Int? = nil, in directory: URL,
        resume: () -> Bool = { true }
    ) async throws -> (status: Int32, output: [UInt8], resumedOnCue: Bool) {
        let outURL = directory.appending(path: ".stdout")
        try Data().write(to: outURL)
        let out = try FileHandle(forWritingTo: outURL)
        let input = Pipe()
        let process = Process()
        process.executableURL = try Corpus.binary
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.standardInput = input
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        let exited = Task { try await process.runUntilExit() }
        // The process must be running before its pipe is written to.
        while !process.isRunning, !exited.isCancelled {
            try await Task.sleep(for: .milliseconds(1))
            if process.processIdentifier != 0 { break }
        }
        let split = pauseAt ?? bytes.count
        input.fileHandleForWriting.write(Data(bytes[..<split]))
        let deadline = Date().addingTimeInterval(60)
        var cued = resume()
        while !cued, Date() < deadline {
            try await Task.sleep(for: .milliseconds(20))
            cued = resume()
        }
        input.fileHandleForWriting.write(Data(bytes[split...]))
        try input.fileHandleForWriting.close()
        try await exited.value
        try out.close()
        return (process.terminationStatus, [UInt8](try Data(contentsOf: outURL)), cued)
    }

    @Test("gif dump - -o DIR from a slow pipe writes frame 0 before the pipe closes, and the file's frames")
    func dumpFromSlowPipe() async throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.demo)))
        let info = try GIFImage(bytes: bytes).info
        try #require(info.frameCount > 1)
        let frame0End = info.frames[0].dataEnd  // just past frame 0's block terminator
        try #require(frame0End < bytes.count)
        let scratch = try TemporaryDirectory()
        let first = scratch.url.appending(path: "streamed/frame-000.ppm").path
        let run = try await Self.runPiped(
            ["dump", "-", "-o", "streamed"], bytes: bytes, pauseAt: frame0End, in: scratch.url
        ) { FileManager.default.fileExists(atPath: first) }
        #expect(run.resumedOnCue, "frame-000.ppm appeared while the rest of the file was held back")
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
