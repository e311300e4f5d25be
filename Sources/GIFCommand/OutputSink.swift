#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Creates directories and writes files with POSIX calls, so that a failure
/// is reported with the system's own words ("Permission denied").
enum OutputFile {
    /// Writes `bytes` to `path`, replacing the file.
    static func save(_ bytes: [UInt8], to path: String) throws(CommandFailure) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw failure(path) }
        defer { close(fd) }
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { buffer in
                write(fd, buffer.baseAddress! + written, buffer.count - written)
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw failure(path)
            }
            written += n
        }
    }

    /// Creates `path` and its missing parents; an existing directory is fine.
    static func makeDirectory(_ path: String) throws(CommandFailure) {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component
            if mkdir(prefix, 0o755) != 0, errno != EEXIST { throw failure(prefix) }
            prefix += "/"
        }
        var status = stat()
        guard stat(path, &status) == 0 else { throw failure(path) }
        guard (status.st_mode & S_IFMT) == S_IFDIR else {
            throw CommandFailure(file: path, message: "Not a directory")
        }
    }

    private static func failure(_ path: String) -> CommandFailure {
        CommandFailure(file: path, message: String(cString: strerror(errno)))
    }
}
