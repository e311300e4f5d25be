/// A digest of a canvas, equal for equal canvases within one run: the
/// standard library's hasher, which runs at full speed even in a debug
/// build, where a CRC-32 or `Array.hashValue` walks byte by byte in
/// unoptimized code. For comparing two decodes in one process; the
/// published checksums stay CRC-32.
func digest(_ pixels: [UInt8]) -> Int {
    var hasher = Hasher()
    pixels.withUnsafeBytes { hasher.combine(bytes: $0) }
    return hasher.finalize()
}
