import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The `gif` tool: looks inside GIFs, dumps their composited frames and
/// measures the decoder.
///
/// Each subcommand lives in its own file (`GIFTool+Info.swift`, …) as a
/// nested type. The root is asynchronous because `play` is.
@main
struct GIFTool: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gif",
        abstract: "Inspect, dump, play and benchmark GIF files, and lay their frames out in a sheet.",
        discussion: """
            Examples:
              gif sniff *.gif
              gif info cat.gif
              gif dump cat.gif -o frames
              gif sheet cat.gif -o sheet.png
              gif play cat.gif
              gif bench cat.gif --iterations 10

            Errors are reported on one line, "gif: FILE: what went wrong (where)", \
            with a non-zero exit status.
            """,
        subcommands: [Sniff.self, Info.self, Dump.self, Sheet.self, Play.self, Bench.self]
    )

    /// Runs the command like ArgumentParser's own `main`, except that a usage
    /// error (a bad flag, a missing argument) is one line on standard error,
    /// `gif: what is wrong (see 'gif dump --help')`, with exit status 64,
    /// like every other error of this tool. Help and version requests print
    /// as usual.
    ///
    /// A plain `dump` command line skips ArgumentParser
    /// (``DumpRequest/init(quickArguments:)``): for a small GIF, parsing it
    /// would cost more than the dump.
    static func main() async {
        if let request = DumpRequest(quickArguments: Array(CommandLine.arguments.dropFirst())) {
            do throws(CommandFailure) {
                try request.run()
                terminate(0)
            } catch {
                error.report()
                terminate(ExitCode.failure.rawValue)
            }
        }
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            let status = exitCode(for: error)
            let text = message(for: error).split(separator: "\n").first.map(String.init) ?? ""
            guard error is ExitCode || status == .success || text.isEmpty else {
                StandardStreams.error("gif: \(usageLine(text)) (see '\(helpCommand())')")
                terminate(status.rawValue)
            }
            exit(withError: error)
        }
    }

    /// "Error: Unknown option '--x'" becomes "unknown option '--x'".
    private static func usageLine(_ text: String) -> String {
        var line = text.hasPrefix("Error: ") ? String(text.dropFirst(7)) : text
        if let first = line.first { line.replaceSubrange(...line.startIndex, with: first.lowercased()) }
        return line
    }

    /// `gif SUBCOMMAND --help` when the arguments name a subcommand, else
    /// `gif --help`.
    private static func helpCommand() -> String {
        let names = configuration.subcommands.map { $0._commandName }
        let arguments = CommandLine.arguments.dropFirst()
        guard let name = arguments.first, names.contains(name) else { return "gif --help" }
        return "gif \(name) --help"
    }
}

/// Ends the process with `status`: C's `exit`, which inside a command is
/// hidden by ArgumentParser's `exit(withError:)`.
private func terminate(_ status: Int32) -> Never {
    exit(status)
}
