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
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let n = write(STDERR_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
                if n > 0 {
                    offset += n
                } else if n < 0, errno == EINTR {
                    continue
                } else {
                    return  // Nowhere left to say it.
                }
            }
        }
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
