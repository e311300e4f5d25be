/// A digest of `height` rows of `rowBytes` bytes each, `bytesPerRow` apart
/// in `bytes`: equal for equal rows within one run. It is the standard
/// library's hasher, which runs at full speed in a debug build, where a
/// CRC-32 walks byte by byte in unoptimised code; these tests compare a
/// drawn buffer with a decode made in the same process.
func rowsDigest(_ bytes: [UInt8], rowBytes: Int, bytesPerRow: Int, height: Int) -> Int {
    var hasher = Hasher()
    bytes.withUnsafeBytes { raw in
        for row in 0..<height {
            let start = row * bytesPerRow
            hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: raw[start..<start + rowBytes]))
        }
    }
    return hasher.finalize()
}

/// The digest of a whole canvas of `width` × `height` 4-byte pixels.
func canvasDigest(_ pixels: [UInt8], width: Int, height: Int) -> Int {
    rowsDigest(pixels, rowBytes: width * 4, bytesPerRow: width * 4, height: height)
}
