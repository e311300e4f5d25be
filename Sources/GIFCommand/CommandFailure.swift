import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import GIF

/// A problem with one file, reported as `gif: FILE: message` on standard
/// error.
struct CommandFailure: Error {
    /// The file (or output path) the problem is about.
    var file: String
    /// What went wrong and where, without the file name.
    var message: String

    init(file: String, message: String) {
        self.file = file
        self.message = message
    }

    /// Describes a ``GIFError`` for `file`: its reason, where it happened and
    /// how many frames were decoded before it.
    init(file: String, error: GIFError) {
        self.file = file
        switch error.kind {
        case .io(_, let errno):
            message = errno.description  // The path is already the line's prefix.
        case .noWriter, .noDataFromWriter:
            message = error.reason
        case .notAGIF(.unknown) where Self.isEmptyFile(file):
            message = "the file is empty"
        default:
            message = error.description
        }
    }

    /// Writes the one-line report to standard error.
    func report() {
        StandardStreams.error("gif: \(file): \(message)")
    }

    /// Whether `path` is a regular file of 0 bytes (a device such as
    /// /dev/zero also reports size 0, but is not empty).
    private static func isEmptyFile(_ path: String) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0 else { return false }
        return status.st_mode & S_IFMT == S_IFREG && status.st_size == 0
    }
}

/// Opens and scans `path` (`-` for standard input, read like any pipe: in
/// chunks, within the input limit), turning a failure into a
/// ``CommandFailure``.
func openGIF(_ path: String) throws(CommandFailure) -> GIFImage {
    do {
        return try GIFImage(contentsOf: path == "-" ? "/dev/stdin" : path)
    } catch {
        throw CommandFailure(file: path, error: error)
    }
}

extension ParsableCommand {
    /// ``openGIF(_:)``, for the subcommands.
    func openImage(_ path: String) throws(CommandFailure) -> GIFImage {
        try openGIF(path)
    }

    /// Runs `body`; a ``CommandFailure`` it throws is reported on standard
    /// error and ends the command with exit status 1.
    func reportingFailures(_ body: () throws(CommandFailure) -> Void) throws(ExitCode) {
        do {
            try body()
        } catch {
            error.report()
            throw ExitCode.failure
        }
    }
}
