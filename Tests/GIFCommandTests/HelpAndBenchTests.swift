import Foundation
import Testing

@Suite("gif --help and bench")
struct HelpAndBenchTests {
    @Test("every subcommand's help shows an example", arguments: ["sniff", "info", "dump", "bench"])
    func helpHasExample(command: String) async throws {
        let run = try await GIFRun([command, "--help"])
        #expect(run.status == 0)
        #expect(run.text.contains("Example"))
        #expect(run.text.contains("$ gif \(command) "))
    }

    @Test("the top-level help lists the subcommands")
    func topLevelHelp() async throws {
        let run = try await GIFRun(["--help"])
        #expect(run.status == 0)
        for command in ["sniff", "info", "dump", "bench"] {
            #expect(run.text.contains("\n  \(command) "))
        }
    }

    @Test("sniff's help documents its exit status")
    func sniffExitStatus() async throws {
        let run = try await GIFRun(["sniff", "--help"])
        #expect(run.text.contains("1 when any file is not a GIF"))
    }

    @Test("bench --json reports every figure, with giflib's ratio")
    func benchJSON() async throws {
        let file = Corpus.path("blink/animated-10color.gif")
        let run = try await GIFRun(["bench", "--json", "--iterations", "1", file])
        #expect(run.status == 0)
        let reports = try #require(try JSONSerialization.jsonObject(with: Data(run.output)) as? [[String: Any]])
        let report = try #require(reports.first)
        #expect(reports.count == 1)
        #expect(report["file"] as? String == file)
        #expect((report["frames"] as? NSNumber)?.intValue == 10)
        for key in ["scanMilliseconds", "decodeMilliseconds", "framesPerSecond", "megapixelsPerSecond",
                    "giflibSlurpMilliseconds", "ratioToGiflib", "peakMemoryBytes"] {
            let value = try #require(report[key] as? NSNumber, "\(key)")
            #expect(value.doubleValue > 0, "\(key)")
        }
        #expect(report["giflibError"] is NSNull)
    }

    @Test("bench reports a bad file and still measures the good one")
    func benchMixed() async throws {
        let png = Corpus.path("not-gif/green-10.png")
        let run = try await GIFRun(["bench", "--iterations", "1", png, Corpus.path("blink/animated.gif")])
        #expect(run.status == 1)
        #expect(run.errorLines.last?.hasPrefix("gif: \(png): this is a PNG file, not a GIF") == true)
        #expect(run.text.contains("giflib DGifSlurp"))
    }
}
