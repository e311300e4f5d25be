import CGIFLib

/// giflib's LZW decoder, kept open across frames.
///
/// giflib is shown a minimal GIF: a synthetic screen (no colour table), then
/// for each frame a synthetic image descriptor of the frame's size (no colour
/// table, not interlaced) followed by the frame's own LZW data straight from
/// the file. Palettes, interlacing and every malformed-structure rule stay in
/// Swift. Frames are read with `DGifGetImageHeader`, which, unlike
/// `DGifGetImageDesc`, appends no `SavedImage` to the handle: however many
/// frames one decoder reads, the handle does not grow. After giflib reports
/// an error the decoder should be dropped, as giflib's state is then unknown.
final class LZWDecoder {
    private let file: UnsafeMutablePointer<GifFileType>
    private let input: UnsafeMutablePointer<GIFLibMemoryReader>
    private let scratch: UnsafeMutablePointer<UInt8>

    /// Opens giflib over the synthetic header; `nil` when giflib cannot.
    init?() {
        let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: GIFLibMemoryReader.scratchSize)
        let input = UnsafeMutablePointer<GIFLibMemoryReader>.allocate(capacity: 1)
        input.initialize(to: GIFLibMemoryReader(scratch: scratch))
        var error: Int32 = 0
        guard let file = DGifOpen(input, readFromMemory, &error) else {
            input.deinitialize(count: 1)
            input.deallocate()
            scratch.deallocate()
            return nil
        }
        self.file = file
        self.input = input
        self.scratch = scratch
    }

    deinit {
        var error: Int32 = 0
        DGifCloseFile(file, &error)
        input.deinitialize(count: 1)
        input.deallocate()
        scratch.deallocate()
    }

    /// The bytes an open handle holds, for memory accounting: giflib's
    /// private state is mostly its LZW tables (4,096 four-byte prefixes,
    /// 4,096 suffixes, a 4,096-byte stack) and a 256-byte block buffer,
    /// beside the handle itself and this reader.
    static let byteCount = 4096 * 4 + 4096 + 4096 + 256 + 512

    /// The code giflib reported last.
    var lastError: GIFLibError { GIFLibError(rawValue: file.pointee.Error) }

    /// Points giflib at `frame`'s data in `bytes` (the whole file), reads
    /// the synthetic image descriptor, and runs `body`, which reads the
    /// frame's pixels with ``readPixels(into:)``; the reader forgets `bytes`
    /// when `body` returns or throws.
    func reading<Result>(
        _ frame: FrameInfo, bytes: UnsafeBufferPointer<UInt8>,
        _ body: (LZWDecoder) throws(GIFLibError) -> Result
    ) throws(GIFLibError) -> Result {
        input.pointee.load(frame: frame, bytes: bytes)
        defer { input.pointee.unload() }
        var type = UNDEFINED_RECORD_TYPE
        guard DGifGetRecordType(file, &type) == GIF_OK else { throw lastError }
        guard type == IMAGE_DESC_RECORD_TYPE else { throw .noImageDescriptor }
        guard DGifGetImageHeader(file) == GIF_OK else { throw lastError }
        return try body(self)
    }

    /// Decodes the next `buffer.count` palette indices of the frame being
    /// read; call inside ``reading(_:bytes:_:)``.
    func readPixels(into buffer: UnsafeMutableBufferPointer<UInt8>) throws(GIFLibError) {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return }
        guard DGifGetLine(file, base, Int32(buffer.count)) == GIF_OK else { throw lastError }
    }
}

/// giflib's input callback: copies from the ``GIFLibMemoryReader`` in `UserData`.
private func readFromMemory(
    _ file: UnsafeMutablePointer<GifFileType>?, _ buffer: UnsafeMutablePointer<GifByteType>?, _ count: Int32
) -> Int32 {
    guard let file, let buffer, count > 0,
          let input = file.pointee.UserData?.assumingMemoryBound(to: GIFLibMemoryReader.self)
    else { return 0 }
    return Int32(input.pointee.read(into: UnsafeMutableBufferPointer(start: buffer, count: Int(count))))
}
