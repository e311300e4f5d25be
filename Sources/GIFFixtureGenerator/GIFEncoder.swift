import CGIFLib

/// A frame's rectangle on the logical screen.
struct Rect: Hashable {
    var x: Int
    var y: Int
    var width: Int
    var height: Int

    init(_ x: Int, _ y: Int, _ width: Int, _ height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    var area: Int { width * height }
}

/// giflib's encoder writing a GIF89a into memory, block by block.
///
/// It owns one `GifFileType*`, closed exactly once: by ``finish()``, which
/// writes the trailer and hands back the bytes, or by `deinit` when a fixture
/// gives up half-way. Colour tables are built with `GifMakeMapObject` for each
/// call and freed right after it (giflib keeps its own copies).
final class GIFEncoder {
    private var file: UnsafeMutablePointer<GifFileType>?
    private let sink = ByteSink()

    /// Opens an encoder and writes the header and logical screen descriptor.
    ///
    /// - Parameters:
    ///   - palette: the global colour table (2, 4, …, 256 entries), or `nil`.
    ///   - backgroundIndex: stored, never painted by a conforming decoder.
    init(width: Int, height: Int, palette: [Color]?, backgroundIndex: UInt8 = Palettes.Index.magenta) throws(EncoderError) {
        var error: Int32 = 0
        guard let file = EGifOpen(Unmanaged.passUnretained(sink).toOpaque(), writeToSink, &error) else {
            throw EncoderError(function: "EGifOpen", code: error)
        }
        self.file = file
        // Without saved images giflib cannot tell that GIF89a blocks follow.
        EGifSetGifVersion(file, true)
        try Self.withColorMap(palette) { (map) throws(EncoderError) in
            try check(EGifPutScreenDesc(file, Int32(width), Int32(height), 8, Int32(backgroundIndex), map), "EGifPutScreenDesc")
        }
    }

    deinit {
        if let file {
            var error: Int32 = 0
            EGifCloseFile(file, &error)
        }
    }

    /// Writes a comment extension.
    func putComment(_ text: String) throws(EncoderError) {
        try check(EGifPutComment(handle, text), "EGifPutComment")
    }

    /// Writes a loop extension: `identifier` (`NETSCAPE2.0` or `ANIMEXTS1.0`)
    /// and the sub-block `01 lo hi` holding `count` (0 = forever).
    func putLoop(_ count: Int, identifier: String = "NETSCAPE2.0") throws(EncoderError) {
        let name = Array(identifier.utf8)
        let loop: [UInt8] = [1, UInt8(count & 0xFF), UInt8(count >> 8)]
        try check(EGifPutExtensionLeader(handle, APPLICATION_EXT_FUNC_CODE), "EGifPutExtensionLeader")
        try check(EGifPutExtensionBlock(handle, Int32(name.count), name), "EGifPutExtensionBlock")
        try check(EGifPutExtensionBlock(handle, Int32(loop.count), loop), "EGifPutExtensionBlock")
        try check(EGifPutExtensionTrailer(handle), "EGifPutExtensionTrailer")
    }

    /// Writes a graphic control extension for the next image.
    ///
    /// - Parameters:
    ///   - disposal: the 3-bit field, 0–7 (giflib stores 4–7 as given).
    ///   - delay: centiseconds.
    func putControl(disposal: Int, delay: Int, transparentIndex: UInt8? = nil) throws(EncoderError) {
        var block = GraphicsControlBlock(
            DisposalMode: Int32(disposal), UserInputFlag: false, DelayTime: Int32(delay),
            TransparentColor: transparentIndex.map(Int32.init) ?? NO_TRANSPARENT_COLOR)
        var bytes = [GifByteType](repeating: 0, count: 4)
        let count = EGifGCBToExtension(&block, &bytes)
        try check(EGifPutExtension(handle, GRAPHICS_EXT_FUNC_CODE, Int32(count), bytes), "EGifPutExtension")
    }

    /// Writes an image descriptor, its optional local table and its pixels.
    ///
    /// - Parameter pixels: `rect.area` palette indices in display order, top
    ///   row first; an interlaced frame's rows are handed to giflib in pass
    ///   order (giflib's encoder does not reorder them).
    func putImage(_ rect: Rect, interlaced: Bool = false, palette: [Color]? = nil, pixels: [UInt8]) throws(EncoderError) {
        precondition(pixels.count == rect.area, "\(pixels.count) pixels for a \(rect.width)×\(rect.height) frame")
        let handle = handle
        try Self.withColorMap(palette) { (map) throws(EncoderError) in
            try check(
                EGifPutImageDesc(handle, Int32(rect.x), Int32(rect.y), Int32(rect.width), Int32(rect.height), interlaced, map),
                "EGifPutImageDesc")
        }
        let rows = interlaced ? Self.passOrder(height: rect.height) : Array(0..<rect.height)
        for y in rows {
            // EGifPutLine masks the indices in place, so it gets a copy.
            var line = Array(pixels[y * rect.width..<(y + 1) * rect.width])
            try check(EGifPutLine(handle, &line, Int32(rect.width)), "EGifPutLine")
        }
    }

    /// Writes the trailer, closes the handle and returns the file's bytes.
    func finish() throws(EncoderError) -> [UInt8] {
        let handle = handle
        file = nil
        var error: Int32 = 0
        guard EGifCloseFile(handle, &error) == GIF_OK else { throw EncoderError(function: "EGifCloseFile", code: error) }
        return sink.bytes
    }

    /// The display rows of an interlaced frame in the order they are stored:
    /// rows 0, 8, 16…; 4, 12…; 2, 6, 10…; 1, 3, 5…
    static func passOrder(height: Int) -> [Int] {
        Array(stride(from: 0, to: height, by: 8)) + Array(stride(from: 4, to: height, by: 8))
            + Array(stride(from: 2, to: height, by: 4)) + Array(stride(from: 1, to: height, by: 2))
    }

    private var handle: UnsafeMutablePointer<GifFileType> {
        guard let file else { preconditionFailure("GIFEncoder used after finish()") }
        return file
    }

    private func check(_ status: Int32, _ function: String) throws(EncoderError) {
        guard status == GIF_OK else { throw EncoderError(function: function, code: handle.pointee.Error) }
    }

    /// Runs `body` with a giflib colour map made from `colors`, freed after.
    private static func withColorMap(
        _ colors: [Color]?, _ body: (UnsafePointer<ColorMapObject>?) throws(EncoderError) -> Void
    ) throws(EncoderError) {
        guard let colors else { return try body(nil) }
        precondition(
            (2...256).contains(colors.count) && colors.count & (colors.count - 1) == 0,
            "a colour table holds 2, 4, 8, …, 256 entries")
        let entries = colors.map { GifColorType(Red: $0.red, Green: $0.green, Blue: $0.blue) }
        guard let map = GifMakeMapObject(Int32(entries.count), entries) else {
            throw EncoderError(function: "GifMakeMapObject", code: E_GIF_ERR_NOT_ENOUGH_MEM)
        }
        defer { GifFreeMapObject(map) }
        try body(map)
    }
}

/// Collects what giflib writes.
private final class ByteSink {
    var bytes: [UInt8] = []
}

/// giflib's output callback: appends to the ``ByteSink`` in `UserData`.
private func writeToSink(
    _ file: UnsafeMutablePointer<GifFileType>?, _ bytes: UnsafePointer<GifByteType>?, _ count: Int32
) -> Int32 {
    guard let file, let bytes, count > 0, let user = file.pointee.UserData else { return 0 }
    let sink = Unmanaged<ByteSink>.fromOpaque(user).takeUnretainedValue()
    sink.bytes.append(contentsOf: UnsafeBufferPointer(start: bytes, count: Int(count)))
    return count
}
