import CGIFLib

/// giflib's LZW decoder over one frame's image data.
///
/// giflib is shown a minimal GIF made for the frame: a synthetic screen and
/// image descriptor of the frame's size (no colour tables, not interlaced),
/// followed by the frame's own LZW data straight from the file. Palettes,
/// interlacing and every malformed-structure rule stay in Swift, and giflib's
/// handle holds one `SavedImage` at most. The data must outlive the decoder.
struct LZWDecoder: ~Copyable {
    private let file: UnsafeMutablePointer<GifFileType>
    private let cursor: UnsafeMutablePointer<MemoryInput>

    /// Opens giflib over `frame`'s data inside `bytes` (the whole file).
    init?(frame: FrameInfo, bytes: UnsafeBufferPointer<UInt8>) {
        let cursor = UnsafeMutablePointer<MemoryInput>.allocate(capacity: 1)
        cursor.initialize(to: MemoryInput(frame: frame, bytes: bytes))
        var error: Int32 = 0
        guard let file = DGifOpen(cursor, readFromMemory, &error) else {
            cursor.deinitialize(count: 1)
            cursor.deallocate()
            return nil
        }
        self.file = file
        self.cursor = cursor
    }

    deinit {
        var error: Int32 = 0
        DGifCloseFile(file, &error)
        cursor.deinitialize(count: 1)
        cursor.deallocate()
    }

    /// The code giflib reported last.
    var lastError: GIFLibError { GIFLibError(rawValue: file.pointee.Error) }

    /// Reads the synthetic image descriptor; call once before ``readPixels(into:)``.
    func start() throws(GIFLibError) {
        var type = UNDEFINED_RECORD_TYPE
        guard DGifGetRecordType(file, &type) == GIF_OK else { throw lastError }
        guard type == IMAGE_DESC_RECORD_TYPE else { throw .noImageDescriptor }
        guard DGifGetImageDesc(file) == GIF_OK else { throw lastError }
    }

    /// Decodes the next `buffer.count` palette indices.
    func readPixels(into buffer: UnsafeMutableBufferPointer<UInt8>) throws(GIFLibError) {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return }
        guard DGifGetLine(file, base, Int32(buffer.count)) == GIF_OK else { throw lastError }
    }
}

/// giflib's input callback: copies from the ``MemoryInput`` in `UserData`.
private func readFromMemory(
    _ file: UnsafeMutablePointer<GifFileType>?, _ buffer: UnsafeMutablePointer<GifByteType>?, _ count: Int32
) -> Int32 {
    guard let file, let buffer, count > 0,
          let input = file.pointee.UserData?.assumingMemoryBound(to: MemoryInput.self)
    else { return 0 }
    return Int32(input.pointee.read(into: UnsafeMutableBufferPointer(start: buffer, count: Int(count))))
}
