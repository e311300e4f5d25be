import CLibPNG

/// Writes RGBA8 pixels as PNG files with libpng, a row at a time from the
/// pixels as they stand (a frame's canvas, a contact sheet): libpng filters
/// and compresses each row as it is handed over, so no converted copy of
/// the image is made. The compressed bytes gather in one reused buffer and
/// go to the ``OutputSink`` in parts of ``partBytes``.
///
/// A PNG keeps the alpha channel when some pixel is not opaque; an image
/// whose pixels are all opaque is written as RGB (libpng drops the fourth
/// byte of each row as it reads it), which decodes to the same RGBA pixels
/// in a quarter fewer bytes.
///
/// One writer serves every image of a command, one after the other.
final class PNGWriter {
    /// zlib's level: 6, its own default. On the benchmark files a lower
    /// level saves little time for larger files, and level 9 takes several
    /// times as long for files only slightly smaller.
    static let zlibLevel: Int32 = 6
    /// No row filter. A GIF frame is a palette picture, where the
    /// differences of neighbouring colours that filters store rarely repeat
    /// more than the colours themselves: on the benchmark files, unfiltered
    /// rows take less time than libpng's adaptive choice among all five
    /// filters, in fewer bytes on dithered photographs and slightly more on
    /// flat drawings.
    static let filters = PNG_FILTER_NONE
    /// The compressed bytes gathered before they are written out.
    static let partBytes = 1 << 18

    /// libpng's state for the image being written, at an address that stays
    /// put (libpng keeps a pointer to it).
    private let state: UnsafeMutablePointer<CLibPNGWriter>
    private var buffer: [UInt8] = []
    private var sink: OutputSink?
    /// The sink's failure, kept until the rows handed to libpng return.
    private var failure: CommandFailure?

    init() {
        state = .allocate(capacity: 1)
        state.initialize(to: CLibPNGWriter())
        buffer.reserveCapacity(Self.partBytes + (1 << 16))
    }

    deinit {
        clibpng_end_writing(state)
        state.deallocate()
    }

    /// Writes `height` rows of `width` RGBA8 pixels, `bytesPerRow` apart
    /// from the start of `pixels` (which holds them all), as one PNG into
    /// `sink`; the sink is not committed.
    /// - Throws: A failure for an empty image (a PNG is at least 1 × 1), the
    ///   sink's failure, or libpng's reason for stopping (which, given valid
    ///   rows, is only running out of memory).
    func write(
        width: Int, height: Int, pixels: [UInt8], bytesPerRow: Int, to sink: OutputSink
    ) throws(CommandFailure) {
        guard width > 0, height > 0 else {
            throw CommandFailure(file: sink.name, message: "a PNG is at least 1x1 pixels, and the image is \(width)x\(height)")
        }
        precondition(bytesPerRow >= width * 4 && pixels.count >= (height - 1) * bytesPerRow + width * 4)
        self.sink = sink
        failure = nil
        buffer.removeAll(keepingCapacity: true)
        defer {
            clibpng_end_writing(state)
            self.sink = nil
        }
        var result: Result<Void, CommandFailure> = .success(())
        pixels.withUnsafeBufferPointer { pixels in
            result = Result { () throws(CommandFailure) in
                try writeRows(pixels.baseAddress!, width: width, height: height, bytesPerRow: bytesPerRow)
            }
        }
        try result.get()
        try flush()
    }

    private func writeRows(
        _ base: UnsafePointer<UInt8>, width: Int, height: Int, bytesPerRow: Int
    ) throws(CommandFailure) {
        let keepAlpha = Self.hasTransparency(base, width: width, height: height, bytesPerRow: bytesPerRow)
        let context = Unmanaged.passUnretained(self).toOpaque()
        try check(clibpng_begin(
            state, context, pngWriterAppend, UInt32(width), UInt32(height), keepAlpha ? 1 : 0, Self.zlibLevel,
            Self.filters))
        // Rows go in bands, so that a failed write stops the image within
        // a band rather than after every row was compressed for nothing.
        let band = max(1, (1 << 20) / bytesPerRow)
        var row = 0
        while row < height {
            let count = min(band, height - row)
            try check(clibpng_write_rows(state, base + row * bytesPerRow, bytesPerRow, UInt32(count)))
            row += count
        }
        try check(clibpng_finish(state))
    }

    /// Whether some pixel's alpha is below 255.
    private static func hasTransparency(
        _ base: UnsafePointer<UInt8>, width: Int, height: Int, bytesPerRow: Int
    ) -> Bool {
        for y in 0..<height {
            var opaque: UInt8 = 255
            let row = base + y * bytesPerRow
            for x in 0..<width { opaque &= row[x * 4 + 3] }
            if opaque != 255 { return true }
        }
        return false
    }

    /// Turns a helper's -1 into libpng's message, or the sink's failure
    /// that made the write callback stop.
    private func check(_ status: Int32) throws(CommandFailure) {
        if let failure { throw failure }
        guard status == 0 else {
            let message = withUnsafeBytes(of: &state.pointee.message) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            throw CommandFailure(file: sink?.name ?? "PNG", message: "libpng: " + message)
        }
    }

    /// libpng's output, gathered; written out once ``partBytes`` are in.
    fileprivate func append(_ bytes: UnsafeRawBufferPointer) {
        guard failure == nil else { return }
        buffer.append(contentsOf: bytes)
        if buffer.count >= Self.partBytes {
            do { try flush() } catch { failure = error }
        }
    }

    private func flush() throws(CommandFailure) {
        guard !buffer.isEmpty, let sink else { return }
        try sink.write(buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}

/// libpng's write callback: hands the bytes to the ``PNGWriter`` that
/// started the image.
private func pngWriterAppend(_ png: png_structp?, _ data: png_bytep?, _ length: Int) {
    guard let context = png_get_io_ptr(png), let data else { return }
    let writer = Unmanaged<PNGWriter>.fromOpaque(context).takeUnretainedValue()
    writer.append(UnsafeRawBufferPointer(start: data, count: length))
}
