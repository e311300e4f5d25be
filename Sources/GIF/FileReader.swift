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
enum FileReader {
    static func contents(of path: String, maxBytes: Int) throws(GIFError) -> [UInt8] {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw failure(path, errno) }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw failure(path, errno) }
        if (status.st_mode & S_IFMT) == S_IFDIR { throw failure(path, EISDIR) }
        let declared = Int(status.st_size)
        guard declared <= maxBytes else {
            throw GIFError(.limitExceeded(.inputBytes, value: declared, maximum: maxBytes))
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(declared)
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw failure(path, errno)
            }
            if n == 0 { return bytes }
            guard bytes.count + n <= maxBytes else {
                throw GIFError(.limitExceeded(.inputBytes, value: bytes.count + n, maximum: maxBytes))
            }
            let before = bytes.count
            bytes.append(contentsOf: chunk[..<n])
            // Once the signature is in, something that is not a GIF (a
            // device such as /dev/zero, a large video) is refused without
            // reading the rest; the scanner would refuse it all the same.
            if before < 4096, bytes.count >= 6 {
                let format = Sniffer.format(of: Array(bytes.prefix(4096)))
                guard format.isGIF else { throw GIFError(.notAGIF(format), byteOffset: 0) }
            }
        }
    }

    private static func failure(_ path: String, _ code: Int32) -> GIFError {
        GIFError(.io(path: path, errno: GIFError.Errno(rawValue: code)))
    }
}
