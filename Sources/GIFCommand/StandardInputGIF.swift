#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import GIF

/// A GIF read from standard input (`-`) as it arrives: `read(2)` calls of at
/// most ``chunkSize`` bytes feed a ``ProgressiveGIF``, and each frame is
/// returned as soon as its last byte is in, so `curl -s URL | gif dump -`
/// writes frame 0 before the download ends.
///
/// Memory is the bytes received (within ``DecodingLimits/maxInputBytes``,
/// refused as soon as they pass it) plus one chunk and one iterator's
/// decoding state; nothing is read twice. Bytes after the trailer are not
/// read.
struct StandardInputGIF {
    /// The most one `read(2)` asks for.
    static let chunkSize = 1 << 16

    /// The stream so far.
    private(set) var gif: ProgressiveGIF
    private var chunk: [UInt8]
    private let fd: Int32

    /// What ended the reading early, as opening the whole input would have
    /// failed: not a GIF, a header cut short, a limit passed, a failed read.
    /// Errors inside the blocks are not here: ``nextFrame()`` throws them
    /// after the frames before them.
    private(set) var readError: GIFError?

    /// A stream over `fd` (standard input unless told), read with `limits`.
    init(fd: Int32 = STDIN_FILENO, limits: DecodingLimits = .default) {
        self.fd = fd
        gif = ProgressiveGIF(limits: limits)
        // One byte past the limit is enough to see it passed.
        chunk = [UInt8](repeating: 0, count: min(Self.chunkSize, max(limits.maxInputBytes, 0) + 1))
    }

    /// The limits the stream is read with.
    var limits: DecodingLimits { gif.limits }

    /// Reads until the canvas is known (the first frame's descriptor, or the
    /// end of a stream without frames).
    ///
    /// - Throws: What opening the whole input would: not a GIF, a header
    ///   cut short, a limit passed, a read that failed.
    mutating func waitForCanvas() throws(GIFError) -> PixelSize {
        while true {
            if let canvas = gif.canvasSize { return canvas }
            guard !gif.isComplete else { throw GIFError(.notAGIF(.unknown), byteOffset: 0) }
            try readMore()
        }
    }

    /// The next composited frame, reading until its data is in; `nil` after
    /// the last one.
    ///
    /// - Throws: As ``FrameIterator/next()``, and when the input passes its
    ///   limit or a read fails.
    mutating func nextFrame() throws(GIFError) -> CompositedFrame? {
        while true {
            if let frame = try gif.nextFrame() { return frame }
            if gif.isComplete { return nil }
            try readMore()
        }
    }

    /// Reads the rest of the stream without decoding it, so that the scan
    /// knows every frame (after a decode error, for the frame count); a
    /// failing read or limit ends it there.
    mutating func readToEnd() {
        while !gif.isComplete {
            do { try readMore() } catch { return }
        }
    }

    /// One `read(2)` appended to the stream, or the end of input turned into
    /// ``ProgressiveGIF/finish()``; a failure is kept in ``readError``.
    private mutating func readMore() throws(GIFError) {
        do {
            try readChunk()
        } catch {
            readError = error
            throw error
        }
    }

    private mutating func readChunk() throws(GIFError) {
        let n = chunk.withUnsafeMutableBytes { buffer in
            while true {
                let n = read(fd, buffer.baseAddress, buffer.count)
                if n >= 0 || errno != EINTR { return n < 0 ? -Int(errno) : n }
            }
        }
        if n < 0 {
            try? gif.finish()
            throw GIFError(.io(path: "-", errno: GIFError.Errno(rawValue: Int32(-n))))
        }
        if n == 0 {
            try gif.finish()
        } else {
            try gif.append(chunk[..<n])
        }
    }
}
