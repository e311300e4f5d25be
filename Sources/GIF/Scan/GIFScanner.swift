/// Walks a GIF's block structure without running LZW.
///
/// The scan costs a pass over the block headers: it learns the frame count,
/// every frame's rectangle, delay, disposal and byte offsets, the loop count
/// and the metadata, and so lets frames be decoded in any order later.
///
/// Rules (the browsers'): a byte other than `0x21`, `0x2C` or `0x3B`
/// where a block should start ends the stream as a trailer would; a missing
/// trailer is not an error; a file that ends inside a block keeps the frames
/// before it and records the truncation in ``GIFInfo/error``.
package enum GIFScanner {
    /// Scans a whole GIF held in memory.
    ///
    /// - Throws: ``GIFError`` when the bytes are not a GIF, the header is cut
    ///   short, or the canvas exceeds ``DecodingLimits/maxCanvasPixels``.
    ///   Problems after the header are recorded in ``GIFInfo/error`` instead,
    ///   with the frames found before them.
    package static func scan(_ bytes: [UInt8], limits: DecodingLimits = .default) throws(GIFError) -> GIFInfo {
        guard bytes.count <= limits.maxInputBytes else {
            throw GIFError(.limitExceeded(.inputBytes, value: bytes.count, maximum: limits.maxInputBytes))
        }
        var info = try header(of: bytes)
        // The logical screen bounds the canvas from below: one over the
        // limit is refused before the blocks are read (as a stream is).
        try checkCanvas(info.screenSize, limits: limits)
        bytes.withUnsafeBufferPointer { bytes in
            var walker = BlockWalker(bytes: bytes, offset: info.endOffset, limits: limits)
            walker.run(into: &info)
        }
        try settleCanvas(&info, limits: limits)
        return info
    }

    /// The header's facts (signature, logical screen, global palette) with
    /// no frames yet; ``GIFInfo/endOffset`` is where the blocks start.
    ///
    /// - Throws: ``GIFError`` when the bytes are not a GIF or end inside the
    ///   header.
    static func header(of bytes: [UInt8]) throws(GIFError) -> GIFInfo {
        let version = Sniffer.format(of: Array(bytes.prefix(sniffedByteCount)))
        guard version.isGIF else { throw GIFError(.notAGIF(version), byteOffset: 0) }
        guard bytes.count >= 13 else {
            throw GIFError(.truncated(block: .logicalScreenDescriptor), byteOffset: 6)
        }
        let screen = PixelSize(width: Int(BlockWalker.le16(bytes, 6)), height: Int(BlockWalker.le16(bytes, 8)))
        let flags = bytes[10]
        var offset = 13
        var globalPalette: Palette?
        if flags & 0x80 != 0 {
            let size = BlockWalker.paletteSize(flags)
            guard offset + size <= bytes.count else {
                throw GIFError(.truncated(block: .globalColorTable), byteOffset: offset)
            }
            globalPalette = Palette(rgb: bytes[offset..<offset + size])
            offset += size
        }
        return GIFInfo(
            version: version, screenSize: screen, canvasSize: screen, backgroundIndex: bytes[11],
            aspectRatioByte: bytes[12], globalPalette: globalPalette, frames: [], loopCount: LoopCount(stored: nil),
            comments: [], applicationExtensions: [], endOffset: offset, hasTrailer: false, error: nil
        )
    }

    /// The bytes the format is told from (``header(of:)`` reads no more:
    /// the header itself is at most 781).
    static let sniffedByteCount = 4096

    /// The number of bytes the header takes: 13, plus the global palette's
    /// size when its flag is set (known once byte 10 has arrived).
    static func headerLength(_ bytes: [UInt8]) -> Int {
        guard bytes.count > 10 else { return 13 }
        return 13 + BlockWalker.paletteSize(bytes[10])
    }

    /// Grows the canvas to include the first frame (the one rule that can
    /// change it) and checks it against ``DecodingLimits/maxCanvasPixels``.
    static func settleCanvas(_ info: inout GIFInfo, limits: DecodingLimits) throws(GIFError) {
        let screen = info.screenSize
        if let first = info.frames.first {
            info.canvasSize.width = max(screen.width, first.rect.x + first.rect.width)
            info.canvasSize.height = max(screen.height, first.rect.y + first.rect.height)
        }
        try checkCanvas(info.canvasSize, limits: limits)
    }

    /// Refuses a canvas over ``DecodingLimits/maxCanvasPixels``, naming the
    /// logical screen descriptor (byte 6), where the canvas starts.
    static func checkCanvas(_ canvas: PixelSize, limits: DecodingLimits) throws(GIFError) {
        guard canvas.area <= limits.maxCanvasPixels else {
            throw GIFError(
                .limitExceeded(.canvasPixels, value: canvas.area, maximum: limits.maxCanvasPixels), byteOffset: 6)
        }
    }
}
