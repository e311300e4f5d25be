import ArgumentParser

/// The `gif` tool: looks inside GIFs, dumps their composited frames and
/// measures the decoder.
///
/// Each subcommand lives in its own file (`GIFCommand+Info.swift`, …) as a
/// nested type. `play` joins the list once the Playback module lands.
@main
struct GIFCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gif",
        abstract: "Inspect, dump and benchmark GIF files.",
        discussion: """
            Examples:
              gif sniff *.gif
              gif info cat.gif
              gif dump cat.gif -o frames
              gif bench cat.gif --iterations 10

            Errors are reported on one line, "gif: FILE: what went wrong (where)", \
            with a non-zero exit status.
            """,
        subcommands: [Sniff.self, Info.self, Dump.self, Bench.self]
    )
}
