import Foundation
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
        try? FileHandle.standardError.write(contentsOf: Data((line + "\n").utf8))
    }

    /// Writes `text` to standard error as it is, without a newline.
    static func errorText(_ text: String) {
        try? FileHandle.standardError.write(contentsOf: Data(text.utf8))
    }

    /// Writes raw bytes to standard output.
    static func output(_ bytes: [UInt8]) throws(CommandFailure) {
        do {
            try FileHandle.standardOutput.write(contentsOf: bytes)
        } catch {
            throw CommandFailure(file: "standard output", message: error.localizedDescription)
        }
    }

    /// Whether standard error is a terminal (where a progress bar may go).
    static var errorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }
}
