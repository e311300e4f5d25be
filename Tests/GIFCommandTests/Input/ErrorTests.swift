import Foundation
import GIF
import Testing

/// Failures: one line on stderr, `gif: FILE: what went wrong (where)`, a
/// non-zero exit status, and partial work kept.
@Suite("gif errors")
struct ErrorTests {
    @Test("a missing file", arguments: ["info", "dump", "bench"])
    func missing(command: String) async throws {
        let run = try await GIFRun([command, "/nonexistent/missing.gif"])
        #expect(run.status == 1)
        #expect(run.errorLines.last == "gif: /nonexistent/missing.gif: No such file or directory")
        #expect(run.output.isEmpty)
    }

    @Test("a directory", arguments: ["info", "dump", "sniff"])
    func directory(command: String) async throws {
        let scratch = try TemporaryDirectory()
        let run = try await GIFRun([command, scratch.url.path] + (command == "dump" ? ["-o", "-"] : []))
        #expect(run.status == 1)
        #expect(run.error == "gif: \(scratch.url.path): Is a directory\n")
    }

    @Test("an empty file", arguments: ["info", "dump"])
    func empty(command: String) async throws {
        let scratch = try TemporaryDirectory()
        let path = try scratch.file("empty.gif", [])
        let run = try await GIFRun([command, path] + (command == "dump" ? ["-o", scratch.url.path] : []))
        #expect(run.status == 1)
        #expect(run.error == "gif: \(path): the file is empty\n")
        #expect(try scratch.names(in: "") == ["empty.gif"])
    }

    @Test("a PNG", arguments: ["info", "dump"])
    func png(command: String) async throws {
        let path = Corpus.path("not-gif/green-10.png")
        let run = try await GIFRun([command, path] + (command == "dump" ? ["-o", "-"] : []))
        #expect(run.status == 1)
        #expect(run.errorLines.count == 1)
        #expect(run.error.hasPrefix("gif: \(path): this is a PNG file, not a GIF"))
        #expect(run.output.isEmpty)
    }

    /// A copy of a 10-frame corpus GIF cut inside frame 3's image descriptor:
    /// frames 0–2 are whole.
    static func truncatedCopy(in scratch: TemporaryDirectory) throws -> (path: String, full: String) {
        let full = Corpus.path("blink/animated-10color.gif")
        let bytes = try Corpus.bytes("blink/animated-10color.gif")
        let cut = try GIFImage(bytes: bytes).info.frames[3].descriptorOffset + 5
        return (try scratch.file("cut.gif", Array(bytes[..<cut])), full)
    }

    @Test("a truncated GIF: dump keeps the frames before the cut, equal to the whole file's")
    func truncatedDump() async throws {
        let scratch = try TemporaryDirectory()
        let (path, full) = try Self.truncatedCopy(in: scratch)
        let run = try await GIFRun(["dump", path, "-o", "cut"], in: scratch.url)
        #expect(run.status == 1)
        #expect(try scratch.names(in: "cut") == ["frame-000.ppm", "frame-001.ppm", "frame-002.ppm"])
        #expect(run.text.hasPrefix("wrote 3 frames as PPM (100x100) to cut: frame-000.ppm … frame-002.ppm; stopped"))
        #expect(run.errorLines.count == 1)
        #expect(run.error.hasPrefix("gif: \(path): the file ends inside the image descriptor ("))
        #expect(run.error.contains("3 frames decoded"))

        let whole = try await GIFRun(["dump", full, "-o", "whole", "--frames", "0-2"], in: scratch.url)
        #expect(whole.status == 0)
        for name in try scratch.names(in: "cut") {
            let cutFrame = try Data(contentsOf: scratch.url.appending(path: "cut/\(name)"))
            let wholeFrame = try Data(contentsOf: scratch.url.appending(path: "whole/\(name)"))
            #expect(cutFrame == wholeFrame)
        }
    }

    @Test("a truncated GIF: NIA to stdout holds the frames before the cut and the footer")
    func truncatedNIA() async throws {
        let scratch = try TemporaryDirectory()
        let (path, _) = try Self.truncatedCopy(in: scratch)
        let run = try await GIFRun(["dump", path, "--format", "nia", "-o", "-"])
        #expect(run.status == 1)
        let niaBytes: Int = 16 + 3 * (24 + 100 * 100 * 4) + 8
        #expect(run.output.count == niaBytes)
        #expect(run.errorLines.count == 2)
    }

    @Test("a truncated GIF: info still reports, with the error, and exits 1")
    func truncatedInfo() async throws {
        let scratch = try TemporaryDirectory()
        let (path, _) = try Self.truncatedCopy(in: scratch)
        let run = try await GIFRun(["info", "--json", path])
        #expect(run.status == 1)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.output)) as? [String: Any])
        #expect((json["frameCount"] as? NSNumber)?.intValue == 3)
        let scanError = try #require(json["scanError"] as? [String: Any])
        #expect(scanError["reason"] as? String == "the file ends inside the image descriptor")
        #expect(run.errorLines.count == 1)
    }

    @Test("an unwritable output directory")
    func unwritable() async throws {
        let scratch = try TemporaryDirectory()
        let blocker = try scratch.file("blocker", [1])
        let run = try await GIFRun(["dump", Corpus.path("blink/animated.gif"), "-o", blocker + "/frames"])
        #expect(run.status == 1)
        #expect(run.error == "gif: \(blocker)/frames: Not a directory\n")
    }
}
