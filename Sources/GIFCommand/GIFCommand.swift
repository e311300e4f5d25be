import ArgumentParser

/// The `gif` tool: looks inside GIFs, dumps their composited frames and
/// measures the decoder.
///
/// Each subcommand lives in its own file (`GIFCommand+Info.swift`, …) as a
/// nested type. The root is asynchronous because `play` is.
@main
struct GIFCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gif",
        abstract: "Inspect, dump, play and benchmark GIF files.",
        discussion: """
            Examples:
              gif sniff *.gif
              gif info cat.gif
              gif dump cat.gif -o frames
              gif play cat.gif
              gif bench cat.gif --iterations 10

            Errors are reported on one line, "gif: FILE: what went wrong (where)", \
            with a non-zero exit status.
            """,
        subcommands: [Sniff.self, Info.self, Dump.self, Play.self, Bench.self]
    )
}
