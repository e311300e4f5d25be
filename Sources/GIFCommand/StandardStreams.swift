#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writing to standard output and standard error without mixing text and
/// binary buffers.
enum StandardStreams {
    /// Writes `line` and a newline to standard error, unbuffered.
    static func error(_ line: String) {
        errorText(line + "\n")
    }

    /// Writes `text` to standard error as it is, without a newline.
    static func errorText(_ text: String) {
        try? OutputSink.standardError.write(text)  // When it fails there is nowhere left to say so.
    }

    /// Writes `text` to standard output with `write(2)`, checked: a failure
    /// (a full disk, a closed pipe) names standard output, the reason and
    /// the bytes written before it, instead of being lost at exit as stdio's
    /// buffered `print` would lose it.
    static func output(_ text: String) throws(CommandFailure) {
        try OutputSink.standardOutput.write(text)
    }

    /// Whether standard error is a terminal (where a progress bar may go).
    static var errorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }
}
