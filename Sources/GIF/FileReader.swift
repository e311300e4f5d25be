import EngineSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a whole file with POSIX calls, refusing directories, anything
/// larger than the input limit before allocating for it, and anything whose
/// first bytes are not a GIF signature before reading further.
///
/// - A regular file is read into one buffer of its stated size.
/// - A pipe, FIFO, socket or device (standard input among them) states no
///   size: it is read in chunks of at most ``chunkSize`` bytes, refused as
///   soon as it passes the limit, and the chunks are copied into one buffer
///   of the exact size at the end, each released once copied. Memory stays
///   the input's size plus one chunk; a buffer never grows by doubling.
/// - A named FIFO is opened without blocking, then waited on for at most
///   `openTimeout` (default ``defaultOpenTimeout``, 10 seconds) for a writer
///   to send something or go away: one that never opens for writing, or
///   whose writer sends nothing, fails with an error saying which, instead
///   of blocking forever. An anonymous
///   pipe (standard input from `cmd | gif info -`) already has its writer
///   and is read however long it takes.
enum FileReader {
    /// How long a FIFO may go without a writer before the read fails.
    static let defaultOpenTimeout: Duration = .seconds(10)
    /// The most a pipe or FIFO read holds in one chunk.
    static let chunkSize = 1 << 20

    static func contents(
        of path: String, maxBytes: Int, openTimeout: Duration = defaultOpenTimeout
    ) throws(GIFError) -> [UInt8] {
        try contents(of: path, maxBytes: maxBytes, openTimeout: openTimeout, keepingOpen: false).bytes
    }

    /// ``contents(of:maxBytes:openTimeout:)``, and with `keepingOpen` a
    /// regular file also left open (see ``OpenFile``) for its frames to be
    /// read again when decoded; `nil` for anything else (a pipe cannot be
    /// read twice).
    static func contents(
        of path: String, maxBytes: Int, openTimeout: Duration = defaultOpenTimeout, keepingOpen: Bool
    ) throws(GIFError) -> (bytes: [UInt8], file: OpenFile?) {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw failure(path, errno) }
        var kept: OpenFile?
        defer { if kept == nil { close(fd) } }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw failure(path, errno) }
        let type = status.st_mode & S_IFMT
        if type == S_IFDIR { throw failure(path, EISDIR) }
        if type == S_IFIFO, !isAnonymousPipe(fd) { try waitForWriter(fd, path: path, timeout: openTimeout) }
        // Reads block from here on, as for any file.
        let flags = fcntl(fd, F_GETFL)
        guard flags >= 0, fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == 0 else { throw failure(path, errno) }
        if type == S_IFREG {
            let declared = Int(status.st_size)
            guard declared <= maxBytes else {
                throw GIFError(.limitExceeded(.inputBytes, value: declared, maximum: maxBytes))
            }
            let bytes = try readRegular(fd, path: path, declared: declared, maxBytes: maxBytes)
            if keepingOpen { kept = OpenFile(descriptor: fd) }
            return (bytes, kept)
        }
        return (try readStream(fd, path: path, maxBytes: maxBytes), nil)
    }

    /// Reads a regular file into one buffer of its stated size, straight
    /// from `read(2)`: its first 4 KiB, whose signature is checked before
    /// the rest is read, then the rest. A file that grew meanwhile is read
    /// on in chunks, still within the limit.
    private static func readRegular(_ fd: Int32, path: String, declared: Int, maxBytes: Int) throws(GIFError) -> [UInt8] {
        var failure: GIFError?
        var bytes = [UInt8](uninitializedCapacity: declared) { buffer, count in
            let raw = UnsafeMutableRawBufferPointer(buffer)
            let head = min(declared, 4096)
            do throws(GIFError) {
                count = try readFully(fd, into: raw, from: 0, to: head, path: path)
                try checkSignature(Array(buffer[..<count]), before: 0)
                if count == head { count = try readFully(fd, into: raw, from: count, to: declared, path: path) }
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        guard bytes.count == declared else { return bytes }
        // One byte more says whether the file grew since it was measured.
        var probe: UInt8 = 0
        guard try check(withUnsafeMutableBytes(of: &probe) { readSome(fd, into: $0) }, path) == 1 else { return bytes }
        var next = [probe]
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        repeat {
            guard bytes.count + next.count <= maxBytes else {
                throw GIFError(.limitExceeded(.inputBytes, value: bytes.count + next.count, maximum: maxBytes))
            }
            let before = bytes.count
            bytes.append(contentsOf: next)
            try checkSignature(bytes, before: before)
            next = try readChunk(fd, into: &chunk, path: path).map { Array(chunk[..<$0]) } ?? []
        } while !next.isEmpty
        return bytes
    }

    /// Reads into `buffer` from offset `start` until `end` or the end of the
    /// file; the offset reached.
    private static func readFully(
        _ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, from start: Int, to end: Int, path: String
    ) throws(GIFError) -> Int {
        var offset = start
        while offset < end {
            let n = try check(readSome(fd, into: UnsafeMutableRawBufferPointer(rebasing: buffer[offset..<end])), path)
            if n == 0 { break }
            offset += n
        }
        return offset
    }

    /// Reads a stream of unknown size in chunks, then joins them into a
    /// buffer of the exact size, releasing each chunk once copied.
    private static func readStream(_ fd: Int32, path: String, maxBytes: Int) throws(GIFError) -> [UInt8] {
        var chunks: [[UInt8]] = []
        var total = 0
        var chunk = [UInt8](repeating: 0, count: chunkCapacity(room: maxBytes))
        var filled = 0
        while true {
            let start = filled
            let n = try check(chunk.withUnsafeMutableBytes { readSome(fd, into: UnsafeMutableRawBufferPointer(rebasing: $0[start...])) }, path)
            guard n > 0 else { break }
            let before = total
            total += n
            filled += n
            guard total <= maxBytes else {
                throw GIFError(.limitExceeded(.inputBytes, value: total, maximum: maxBytes))
            }
            // The first chunk holds the first 4 KiB (unless the limit is
            // smaller, when the scanner alone judges the signature).
            if chunks.isEmpty { try checkSignature(Array(chunk[..<filled]), before: before) }
            if filled == chunk.count {
                chunks.append(chunk)
                chunk = [UInt8](repeating: 0, count: chunkCapacity(room: maxBytes - total))
                filled = 0
            }
        }
        if chunks.isEmpty {
            return Array(chunk[..<filled])
        }
        chunks.append(Array(chunk[..<filled]))
        chunk = []
        return [UInt8](uninitializedCapacity: total) { buffer, count in
            var offset = 0
            for i in chunks.indices {
                let part = chunks[i]
                assert(offset + part.count <= buffer.count)
                _ = UnsafeMutableBufferPointer(rebasing: buffer[offset..<offset + part.count]).initialize(from: part)
                offset += part.count
                chunks[i] = []
            }
            count = offset
        }
    }

    /// The next chunk's size with `room` bytes left under the limit: one
    /// byte more than the room (to see the limit passed), at most
    /// ``chunkSize``; no overflow for a limit of `Int.max`, none below 1.
    private static func chunkCapacity(room: Int) -> Int {
        room < chunkSize ? max(room, 0) + 1 : chunkSize
    }

    /// One `read(2)` into `chunk`: the byte count, or `nil` at the end.
    private static func readChunk(_ fd: Int32, into chunk: inout [UInt8], path: String) throws(GIFError) -> Int? {
        let n = try check(chunk.withUnsafeMutableBytes { readSome(fd, into: $0) }, path)
        return n == 0 ? nil : n
    }

    /// One `read(2)`, retried on `EINTR`: the byte count (0 at the end), or
    /// `-errno`.
    private static func readSome(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard buffer.count > 0 else { return 0 }
        while true {
            let n = read(fd, buffer.baseAddress, buffer.count)
            if n >= 0 { return n }
            if errno != EINTR { return -Int(errno) }
        }
    }

    /// `readSome`'s result, or its error thrown.
    private static func check(_ result: Int, _ path: String) throws(GIFError) -> Int {
        guard result >= 0 else { throw failure(path, Int32(-result)) }
        return result
    }

    /// Once the signature is in, something that is not a GIF (a device such
    /// as /dev/zero, a large video) is refused without reading the rest; the
    /// scanner would refuse it all the same.
    private static func checkSignature(_ bytes: [UInt8], before: Int) throws(GIFError) {
        guard before < 4096, bytes.count >= 6 else { return }
        let format = Sniffer.format(of: Array(bytes.prefix(4096)))
        guard format.isGIF else { throw GIFError(.notAGIF(format), byteOffset: 0) }
    }

    /// Waits until a FIFO opened without blocking has data or a writer that
    /// came and went, for at most `timeout`.
    private static func waitForWriter(_ fd: Int32, path: String, timeout: Duration) throws(GIFError) {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while true {
            let left = clock.now.duration(to: deadline)
            guard left > .zero else {
                throw GIFError(
                    hasSilentWriter(fd, path: path)
                        ? .noDataFromWriter(path: path, waited: timeout) : .noWriter(path: path, waited: timeout))
            }
            var request = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)
            let ready = poll(&request, 1, milliseconds)
            if ready < 0 {
                if errno == EINTR { continue }
                throw failure(path, errno)
            }
            if ready > 0 { return }
        }
    }

    /// Whether a writer holds the FIFO `fd` reads (opened without blocking,
    /// nothing to read): on Linux, a reader is told of a hang-up once no
    /// writer is left of those that opened the FIFO after it. Opening and
    /// closing it for writing here makes one such writer; a hang-up right
    /// after says it was the last, none says another writer holds the FIFO
    /// open. Elsewhere the answer is `false` (the error says no writer
    /// opened it).
    private static func hasSilentWriter(_ fd: Int32, path: String) -> Bool {
        #if os(Linux)
        let probe = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        guard probe >= 0 else { return false }
        close(probe)
        var request = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&request, 1, 0) >= 0 else { return false }
        return request.revents & Int16(POLLHUP | POLLIN) == 0
        #else
        return false
        #endif
    }

    /// Whether `fd` is an anonymous pipe (standard input from `cmd |`,
    /// `/dev/fd/N` from `<(cmd)`), whose writer exists from the start and may
    /// take its time, rather than a named FIFO: Linux names the former
    /// `pipe:[inode]` in `/proc/self/fd`. Elsewhere every FIFO is waited on.
    private static func isAnonymousPipe(_ fd: Int32) -> Bool {
        #if os(Linux)
        var target = [CChar](repeating: 0, count: 64)
        let count = readlink("/proc/self/fd/\(fd)", &target, target.count - 1)
        guard count > 0 else { return false }
        return String(decoding: target[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self).hasPrefix("pipe:")
        #else
        return false
        #endif
    }

    private static func failure(_ path: String, _ code: Int32) -> GIFError {
        GIFError(.io(path: path, errno: GIFError.Errno(rawValue: code)))
    }
}
