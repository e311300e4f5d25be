import EngineSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A regular file a ``GIFImage`` keeps open instead of its bytes (see
/// ``GIFImage/init(readingFramesFromFileAt:limits:)``): each frame's data is
/// read with `pread(2)` when the frame is decoded, so the encoded file stays
/// in the system's page cache, not in the process. Reads at explicit offsets
/// share no file position, so any number of threads may read at once.
///
/// A file that changes after it was scanned is read as it is then: a frame
/// whose data is cut short decodes as far as its bytes go and reports the
/// cut, as a file truncated on disk does; no read goes past what `pread`
/// returned.
final class OpenFile: Sendable {
    private let descriptor: Int32

    /// Takes ownership of `descriptor`, closed when the file is released.
    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// Reads up to `buffer.count` bytes at file offset `offset` into
    /// `buffer`, retrying interrupted and short reads; returns how many were
    /// read: fewer at the end of the file, and only those before an error.
    func read(at offset: Int, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard let base = buffer.baseAddress, offset >= 0 else { return 0 }
        var done = 0
        while done < buffer.count {
            let n = pread(descriptor, base + done, buffer.count - done, off_t(offset + done))
            if n > 0 {
                done += n
            } else if n < 0, errno == EINTR {
                continue
            } else {
                break
            }
        }
        return done
    }

    /// The whole file as it is now, up to `maxBytes`.
    func contents(maxBytes: Int) -> [UInt8] {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return [] }
        let size = min(max(0, Int(status.st_size)), maxBytes)
        return [UInt8](uninitializedCapacity: size) { buffer, count in
            count = read(at: 0, into: UnsafeMutableRawBufferPointer(buffer))
        }
    }
}
