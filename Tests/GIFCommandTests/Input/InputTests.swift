import Foundation
@_spi(Benchmarks) import GIF
import Testing

/// Inputs that are not regular files: standard input (`-`) from a file or a
/// pipe, and FIFOs, with or without a writer.
@Suite("gif: standard input, pipes and FIFOs")
struct InputTests {
    static let published: [(file: String, crc: UInt32, ok: Bool)] = (try? Corpus.publishedNIAChecksums()) ?? []

    @Test("NIA from standard input, a file or a pipe, matches the published CRC32",
          arguments: ["go/video-001.gif", "blink/animated.gif", "blink/size-failure.gif"])
    func niaFromStandardInput(file: String) async throws {
        let entry = try #require(Self.published.first { $0.file == file })
        let scratch = try TemporaryDirectory()
        let path = Corpus.path(file)
        for script in ["\"$GIF\" dump - --format nia -o - < '\(path)' > \"$OUT\" 2> \"$ERR\"",
                       "cat '\(path)' | \"$GIF\" dump - --format nia -o - > \"$OUT\" 2> \"$ERR\""] {
            let run = try await ShellRun(script, in: scratch.url)
            #expect(crc32(run.output) == entry.crc, "\(script)")
            #expect(run.status == (entry.ok ? 0 : 1))
        }
    }

    @Test("gif info reads a FIFO that a writer opens")
    func infoFromFIFO() async throws {
        let scratch = try TemporaryDirectory()
        let path = Corpus.path("go/video-001.gif")
        let run = try await ShellRun(
            "mkfifo in.gif && (cat '\(path)' > in.gif &) && \"$GIF\" info in.gif > \"$OUT\" 2> \"$ERR\"", in: scratch.url)
        #expect(run.status == 0)
        #expect(String(decoding: run.output, as: UTF8.self).contains("decode:           all frames OK"))
    }

    @Test("a FIFO that no one opens for writing fails after 10 seconds, saying so")
    func fifoWithoutWriter() async throws {
        let scratch = try TemporaryDirectory()
        let run = try await ShellRun("mkfifo in.gif && \"$GIF\" info in.gif > \"$OUT\" 2> \"$ERR\"", in: scratch.url)
        #expect(run.status == 1)
        #expect(run.error == "gif: in.gif: no writer opened the FIFO within 10.0 seconds\n")
    }
}
