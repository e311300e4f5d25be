// Writes the project's own GIF fixtures with giflib's encoder, plus a
// README listing them.
//
//     swift run --scratch-path .build-fixtures GIFFixtureGenerator Fixtures
//
// The output is deterministic: the same bytes on every run.
import Foundation

/// Every fixture, in README order.
func allFixtures() throws(EncoderError) -> [Fixture] {
    var fixtures: [Fixture] = []
    for n in 0...7 { fixtures.append(try .disposal(n)) }
    fixtures.append(try .disposalFirstFrame())
    fixtures.append(try .transparency())
    fixtures.append(try .lastControlWins())
    fixtures.append(try .interlace())
    fixtures.append(try .localPalette())
    fixtures.append(try .noPalette())
    fixtures.append(try .indexPastPalette())
    fixtures.append(try .palette256())
    fixtures.append(try .firstFrameGrowth())
    fixtures.append(try .zeroSizeFrame())
    fixtures.append(try .extraPixelData())
    fixtures.append(try .loop(nil))
    fixtures.append(try .loop(0))
    fixtures.append(try .loop(2))
    fixtures.append(try .loopLatestWins())
    fixtures.append(try .delays())
    fixtures.append(try .truncated())
    fixtures.append(try .noTrailer())
    fixtures.append(try .unknownBlock())
    fixtures.append(try .demo())
    fixtures.append(try .screenRecording())
    return fixtures
}

/// `Fixtures/README.md`, generated so it cannot drift from the files.
func readme(for fixtures: [Fixture]) -> String {
    var text = """
        # Fixtures

        GIFs this project generates itself with giflib's encoder (through
        `CGIFLib`), each built so that its composited pixels are known by
        construction; `Tests/GIFTests/Conformance/FixtureTests.swift` and
        `Tests/GIFTests/Conformance/DemoFixtureTests.swift` spell those pixels out. Where
        giflib's encoder cannot produce a case (an empty frame, no colour table,
        an index past the table, extra pixel data, a cut file, a missing trailer,
        an unknown block), the generator edits the encoder's output. The rules are the browsers'.

        Small fixtures use the 8-entry table 0 red, 1 green, 2 blue, 3 yellow,
        4 cyan, 5 magenta, 6 white, 7 gray, with background index 5 (magenta),
        which must never be painted.

        Regenerate (the output is the same bytes every run):

            swift run --scratch-path .build-fixtures GIFFixtureGenerator Fixtures

        This file is generated too.

        | file | bytes | what it pins down |
        |---|---|---|

        """
    for fixture in fixtures {
        text += "| `\(fixture.name)` | \(fixture.bytes.count) | \(fixture.summary) |\n"
    }
    return text
}

let directory = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "Fixtures"
do {
    let fixtures = try allFixtures()
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    for fixture in fixtures {
        try Data(fixture.bytes).write(to: URL(fileURLWithPath: directory).appendingPathComponent(fixture.name))
    }
    try Data(readme(for: fixtures).utf8).write(to: URL(fileURLWithPath: directory).appendingPathComponent("README.md"))
    print("Wrote \(fixtures.count) fixtures and README.md to \(directory)")
} catch {
    FileHandle.standardError.write(Data("GIFFixtureGenerator: \(error)\n".utf8))
    exit(1)
}
