#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the command's output goes: standard output, or a file written under
/// a temporary name in its directory and renamed into place by ``commit()``,
/// so that a failure part-way never leaves a truncated file behind.
///
/// Every write is checked, short writes are resumed, and a failure is a
/// ``CommandFailure`` naming the output, the system's reason and how many
/// bytes had been written: `gif: out/frame-003.ppm: No space left on device
/// (after 65536 bytes)`.
final class OutputSink {
    /// The output's name in messages: its final path, or "standard output".
    let name: String
    /// Bytes written so far.
    private(set) var bytesWritten = 0
    private var fd: Int32
    /// The temporary file being written, until ``commit()`` renames it.
    private var temporaryPath: String?

    private init(name: String, fd: Int32, temporaryPath: String?) {
        self.name = name
        self.fd = fd
        self.temporaryPath = temporaryPath
    }

    /// Standard output, written with `write(2)` (never buffered by stdio).
    static var standardOutput: OutputSink { OutputSink(name: "standard output", fd: STDOUT_FILENO, temporaryPath: nil) }

    /// Standard error, written the same way.
    static var standardError: OutputSink { OutputSink(name: "standard error", fd: STDERR_FILENO, temporaryPath: nil) }

    /// A new file that becomes `path` on ``commit()``; until then it is a
    /// hidden temporary file beside it (`.NAME.PID.tmp`).
    static func file(_ path: String) throws(CommandFailure) -> OutputSink {
        var parts = path.split(separator: "/", omittingEmptySubsequences: false)
        let last = parts.popLast().map(String.init) ?? path
        let temporary = (parts.isEmpty ? "" : parts.joined(separator: "/") + "/") + ".\(last).\(getpid()).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw CommandFailure(file: path, message: String(cString: strerror(errno))) }
        return OutputSink(name: path, fd: fd, temporaryPath: temporary)
    }

    deinit {
        discard()
    }

    /// Writes all of `bytes`.
    func write(_ bytes: [UInt8]) throws(CommandFailure) {
        try writeAll(bytes.count) { done in
            bytes.withUnsafeBytes { buffer in systemWrite(fd, buffer.baseAddress! + done, buffer.count - done) }
        }
    }

    /// Writes all of `first`, then all of `second`, in one `writev(2)` when
    /// the system takes both at once: a small header and the large block
    /// after it in one system call rather than two.
    func write(_ first: [UInt8], then second: [UInt8]) throws(CommandFailure) {
        guard !first.isEmpty, !second.isEmpty else { return try write(first.isEmpty ? second : first) }
        try writeAll(first.count + second.count) { done in
            first.withUnsafeBytes { head in
                second.withUnsafeBytes { tail in
                    guard done < head.count else {
                        return systemWrite(fd, tail.baseAddress! + (done - head.count), tail.count - (done - head.count))
                    }
                    return withUnsafeTemporaryAllocation(of: iovec.self, capacity: 2) { parts in
                        parts[0] = iovec(iov_base: UnsafeMutableRawPointer(mutating: head.baseAddress! + done), iov_len: head.count - done)
                        parts[1] = iovec(iov_base: UnsafeMutableRawPointer(mutating: tail.baseAddress!), iov_len: tail.count)
                        return writev(fd, parts.baseAddress!, 2)
                    }
                }
            }
        }
    }

    /// Calls `attempt` with the bytes done so far until `count` are done,
    /// resuming after a short write or `EINTR`; `attempt` returns what
    /// `write(2)` returns.
    private func writeAll(_ count: Int, _ attempt: (_ done: Int) -> Int) throws(CommandFailure) {
        var done = 0
        while done < count {
            let n = attempt(done)
            if n < 0 {
                if errno == EINTR { continue }
                throw failure(errno)
            }
            if n == 0 { throw failure(EIO) }
            done += n
            bytesWritten += n
        }
    }

    /// Writes `text` as UTF-8.
    func write(_ text: String) throws(CommandFailure) {
        try write(Array(text.utf8))
    }

    /// Closes the file, checking that the close succeeded, and renames it to
    /// its final name. Standard output is left open.
    func commit() throws(CommandFailure) {
        guard let temporaryPath else { return }
        let status = close(fd)
        fd = -1
        if status != 0 {
            let code = errno
            discard()
            throw failure(code)
        }
        if rename(temporaryPath, name) != 0 {
            let code = errno
            discard()
            throw CommandFailure(file: name, message: "cannot rename \(temporaryPath) to it: \(Self.reason(code))")
        }
        self.temporaryPath = nil
    }

    /// Closes and removes a temporary file not committed (after a failure).
    func discard() {
        guard let temporaryPath else { return }
        if fd >= 0 { close(fd) }
        fd = -1
        unlink(temporaryPath)
        self.temporaryPath = nil
    }

    private func failure(_ code: Int32) -> CommandFailure {
        CommandFailure(file: name, message: "\(Self.reason(code)) (after \(bytesWritten) bytes)")
    }

    private static func reason(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    /// Creates `path` and its missing parents; an existing directory is fine.
    static func makeDirectory(_ path: String) throws(CommandFailure) {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component
            if mkdir(prefix, 0o755) != 0, errno != EEXIST {
                throw CommandFailure(file: prefix, message: reason(errno))
            }
            prefix += "/"
        }
        var status = stat()
        guard stat(path, &status) == 0 else { throw CommandFailure(file: path, message: reason(errno)) }
        guard (status.st_mode & S_IFMT) == S_IFDIR else {
            throw CommandFailure(file: path, message: "Not a directory")
        }
    }
}

/// Writes to an ``OutputSink``, holding writes of a few bytes (a frame's
/// header) to send them with the next write in one `writev(2)`: a frame
/// whose pixels are written from its canvas as they stand goes out in one
/// system call rather than two. ``flush()`` writes what is held.
struct GatheringWriter {
    let sink: OutputSink
    private var held: [UInt8] = []

    /// Writes up to this many bytes in all are held.
    static let holdBytes = 256

    init(sink: OutputSink) {
        self.sink = sink
        held.reserveCapacity(Self.holdBytes)
    }

    /// Holds `bytes`, or writes what is held and then `bytes`.
    mutating func write(_ bytes: [UInt8]) throws(CommandFailure) {
        if held.count + bytes.count <= Self.holdBytes {
            held.append(contentsOf: bytes)
            return
        }
        try sink.write(held, then: bytes)
        held.removeAll(keepingCapacity: true)
    }

    /// Writes what is held.
    mutating func flush() throws(CommandFailure) {
        guard !held.isEmpty else { return }
        try sink.write(held)
        held.removeAll(keepingCapacity: true)
    }
}

/// `write(2)`, under a name that the sink's own `write` does not hide.
private func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, bytes, count)
}
