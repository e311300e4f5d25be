import Foundation
import Testing

/// Whatever the command line names, `gif` answers with one line on standard
/// error and a non-zero exit status: never a crash, a stack trace or a hang.
@Suite("gif abuse: bad files and bad flags")
struct CommandAbuseTests {
    /// Runs `gif COMMAND PATH` (with `-o` for dump) and checks the contract:
    /// exit status 1, nothing on standard output, exactly the line expected.
    func expectOneLineFailure(_ command: String, _ path: String, _ message: String,
                              sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let scratch = try TemporaryDirectory()
        let run = try await GIFRun([command, path] + (command == "dump" ? ["-o", scratch.url.path + "/out"] : []))
        #expect(run.status == 1, "\(command) \(path)", sourceLocation: sourceLocation)
        #expect(run.error == "gif: \(path): \(message)\n", "\(command) \(path)", sourceLocation: sourceLocation)
        #expect(run.output.isEmpty, "\(command) \(path)", sourceLocation: sourceLocation)
        #expect(!FileManager.default.fileExists(atPath: scratch.url.path + "/out"), sourceLocation: sourceLocation)
        expectNoCrashReport(run, sourceLocation: sourceLocation)
    }

    func expectNoCrashReport(_ run: GIFRun, sourceLocation: SourceLocation = #_sourceLocation) {
        for marker in ["Fatal error", "Stack dump", "Backtrace", "backtrace", "Crashed", "💣", "#0 ", "0x0000"] {
            #expect(!run.error.contains(marker), "\(marker) in: \(run.error)", sourceLocation: sourceLocation)
        }
    }

    static let commands = ["info", "dump"]

    @Test("a missing file", arguments: commands)
    func missing(command: String) async throws {
        try await expectOneLineFailure(command, "/nonexistent/dir/missing.gif", "No such file or directory")
    }

    @Test("a directory", arguments: commands)
    func directory(command: String) async throws {
        let scratch = try TemporaryDirectory()
        try await expectOneLineFailure(command, scratch.url.path, "Is a directory")
    }

    @Test("an unreadable file (chmod 000)", .enabled(if: geteuid() != 0, "root reads a file whatever its mode"),
          arguments: commands)
    func unreadable(command: String) async throws {
        let scratch = try TemporaryDirectory()
        let path = try scratch.file("locked.gif", Array(try Corpus.bytes("blink/animated.gif")))
        #expect(chmod(path, 0) == 0)
        defer { chmod(path, 0o644) }
        try await expectOneLineFailure(command, path, "Permission denied")
    }

    #if os(Linux)
    /// Readable by mode but failing on read, for root too: reading
    /// /proc/self/mem at offset 0 (unmapped) gives EIO.
    @Test("a file whose read fails", arguments: commands)
    func readFails(command: String) async throws {
        try await expectOneLineFailure(command, "/proc/self/mem", "Input/output error")
    }
    #endif

    @Test("an empty file", arguments: commands)
    func empty(command: String) async throws {
        let scratch = try TemporaryDirectory()
        try await expectOneLineFailure(command, try scratch.file("empty.gif", []), "the file is empty")
    }

    @Test("a 2-byte file", arguments: commands)
    func twoBytes(command: String) async throws {
        let scratch = try TemporaryDirectory()
        let path = try scratch.file("two.gif", Array("GI".utf8))
        try await expectOneLineFailure(command, path, "this is not a GIF file (unknown signature) (byte 0)")
    }

    @Test("a GIF signature and nothing else", arguments: commands)
    func signatureOnly(command: String) async throws {
        let scratch = try TemporaryDirectory()
        let path = try scratch.file("sig.gif", Array("GIF89a".utf8))
        try await expectOneLineFailure(command, path, "the file ends inside the logical screen descriptor (byte 6)")
    }

    @Test("a PNG", arguments: commands)
    func png(command: String) async throws {
        try await expectOneLineFailure(command, Corpus.path("not-gif/green-10.png"), "this is a PNG file, not a GIF (byte 0)")
    }

    /// /dev/zero never ends, and is not a GIF: the reader refuses it once
    /// the first bytes are in, instead of reading up to the input limit.
    @Test("/dev/zero is refused from its first bytes")
    func devZero() async throws {
        let run = try await GIFRun(["info", "/dev/zero"])
        #expect(run.status == 1)
        #expect(run.error == "gif: /dev/zero: this is not a GIF file (unknown signature) (byte 0)\n")
        #expect(run.errorLines.count == 1)
        #expect(run.output.isEmpty)
        expectNoCrashReport(run)
    }

    /// A usage error is one line, like every other error of the tool:
    /// `gif: ` and ArgumentParser's message, then where to find help;
    /// status 64 (EX_USAGE), nothing on standard output, no stack trace.
    @Test("bad flags and arguments", arguments: [
        (["info", "--bogus", "x.gif"], "gif: unknown option '--bogus'", "gif info --help"),
        (["info"], "gif: missing expected argument '<file>'", "gif info --help"),
        (["frobnicate"], "gif: unexpected argument 'frobnicate'", "gif --help"),
        (["dump", "x.gif", "--format", "tiff"], "gif: the value 'tiff' is invalid for '--format <format>'", "gif dump --help"),
        (["dump", "x.gif", "--frames", "9-2"], "gif: ", "gif dump --help"),
        (["bench", "x.gif", "--iterations", "-3"], "gif: ", "gif bench --help"),
        (["info", "x.gif", "y.gif"], "gif: unexpected argument 'y.gif'", "gif info --help"),
    ])
    func badFlags(arguments: [String], firstLine: String, help: String) async throws {
        let run = try await GIFRun(arguments)
        #expect(run.status == 64, "\(arguments): \(run.error)")
        #expect(run.errorLines.count == 1, "\(arguments): \(run.error)")
        #expect(run.errorLines.first?.hasPrefix(firstLine) == true, "\(arguments): \(run.error)")
        #expect(run.errorLines.first?.hasSuffix("(see '\(help)')") == true, "\(arguments): \(run.error)")
        #expect(run.output.isEmpty)
        expectNoCrashReport(run)
    }
}
