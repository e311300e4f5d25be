/// A GIF scanned: its structure is known at once, and its frames are decoded
/// on demand. Its bytes are held in memory, or, opened with
/// ``init(readingFramesFromFileAt:limits:)``, left in the file and read a
/// frame at a time when the frame is decoded.
///
/// ```swift
/// let image = try GIFImage(contentsOf: "cat.gif")
/// print(image.info.frameCount, image.info.loopCount)
/// var frames = image.makeFrameIterator()
/// while let frame = try frames.next() {
///     show(frame.pixels, frame.size)
///     try await Task.sleep(for: frame.browserDelay)   // as long as a browser shows it
/// }
/// ```
public struct GIFImage: Sendable {
    /// The bytes held in memory: the whole file, or none when frames are read
    /// from ``file``.
    let heldBytes: [UInt8]
    /// The bytes of a stream read so far, for an image a ``ProgressiveGIF``
    /// made: shared with the stream, which appends past them in place.
    let arrivedBytes: ArrivedBytes?
    /// The file frames are read from, for an image opened with
    /// ``init(readingFramesFromFileAt:limits:)``.
    let file: OpenFile?
    /// What the scanner found.
    public let info: GIFInfo
    /// The limits this image was opened with.
    package let limits: DecodingLimits

    /// The file's bytes. For an image that reads its frames from the file
    /// (``readsFramesFromFile``), each access reads the whole file again, as
    /// it is now (at most ``DecodingLimits/maxInputBytes``).
    public var bytes: [UInt8] { file?.contents(maxBytes: limits.maxInputBytes) ?? arrivedBytes?.array ?? heldBytes }

    /// Whether the frames' data is read from the file each time a frame is
    /// decoded (``init(readingFramesFromFileAt:limits:)``), rather than held
    /// in memory.
    public var readsFramesFromFile: Bool { file != nil }

    /// An image of a stream's bytes so far, already scanned: `info` is the
    /// scan of the part of them a ``ProgressiveGIF`` has read.
    init(arrived bytes: ArrivedBytes, info: GIFInfo, limits: DecodingLimits) {
        heldBytes = []
        arrivedBytes = bytes
        file = nil
        self.info = info
        self.limits = limits
    }

    /// An image already scanned: `info` must be the scan of `bytes` (an
    /// ``ProgressiveGIF`` gives its iterator one without bytes between
    /// decodes, which nothing decodes from).
    init(bytes: [UInt8], info: GIFInfo, limits: DecodingLimits) {
        heldBytes = bytes
        arrivedBytes = nil
        file = nil
        self.info = info
        self.limits = limits
    }

    /// Scans `bytes`.
    ///
    /// - Throws: ``GIFError`` when the bytes are not a GIF (naming what they
    ///   are), the header is cut short, or a limit is exceeded.
    public init(bytes: [UInt8], limits: DecodingLimits = .default) throws(GIFError) {
        heldBytes = bytes
        arrivedBytes = nil
        file = nil
        self.info = try GIFScanner.scan(bytes, limits: limits)
        self.limits = limits
    }

    /// Reads and scans the file at `path`, and holds its bytes in memory.
    ///
    /// - Throws: ``GIFError`` with ``GIFError/Kind/io(path:errno:)`` when the
    ///   file cannot be read, and as ``init(bytes:limits:)`` otherwise.
    public init(contentsOf path: String, limits: DecodingLimits = .default) throws(GIFError) {
        try self.init(bytes: FileReader.contents(of: path, maxBytes: limits.maxInputBytes), limits: limits)
    }

    /// Reads and scans the file at `path`, then keeps the file open and
    /// lets go of its bytes: each frame's data is read from the file when
    /// the frame is decoded. For a feed of many GIFs, the encoded files then
    /// stay in the system's page cache instead of the process (about 2 MB in
    /// the nine-grid benchmark), for a `pread` per decode.
    ///
    /// Anything but a regular file (a pipe, standard input) cannot be read
    /// twice: its bytes are held in memory, as ``init(contentsOf:limits:)``
    /// does. A file changed after this scan is decoded as it is then: a
    /// frame whose data was cut off fails there, as in a truncated file.
    /// The image holds one file descriptor until it and its iterators,
    /// seekers and frame sources are gone.
    ///
    /// - Throws: As ``init(contentsOf:limits:)``.
    public init(readingFramesFromFileAt path: String, limits: DecodingLimits = .default) throws(GIFError) {
        let (bytes, file) = try FileReader.contents(of: path, maxBytes: limits.maxInputBytes, keepingOpen: true)
        info = try GIFScanner.scan(bytes, limits: limits)
        heldBytes = file == nil ? bytes : []
        arrivedBytes = nil
        self.file = file
        self.limits = limits
    }

    /// An iterator over the composited frames, in order.
    ///
    /// - Parameter parallel: when `true`, the frames after the one being
    ///   composited are decoded ahead on other threads (one fewer than the
    ///   processors online, at least one), each with its own giflib handle.
    ///   The frames are the same either way; a parallel iterator is faster on
    ///   several cores and holds a few more frames' worth of palette indices.
    ///   Files of small frames, where a thread hand-off costs more than the
    ///   decoding, are decoded on the calling thread regardless (see
    ///   ``FrameIterator/isParallel``).
    /// - Parameter pixelFormat: the layout of the canvases returned, applied
    ///   through the colour table at no cost per pixel.
    public func makeFrameIterator(parallel: Bool = false, pixelFormat: PixelFormat = .rgba8) -> FrameIterator {
        FrameIterator(image: self, parallel: parallel, pixelFormat: pixelFormat)
    }

    /// Decodes and composites the frames in order, as
    /// ``makeFrameIterator(parallel:pixelFormat:)`` does, onto an opaque
    /// canvas: three bytes a pixel, red, green, blue, every transparent
    /// pixel showing `background` (``CompositedFrame/background``). That is
    /// a binary PPM's pixels as they stand, which ``PNMWriter`` writes from
    /// the canvas without converting them.
    ///
    /// ```swift
    /// import Foundation
    ///
    /// let output = FileHandle.standardOutput
    /// var frames = image.makeFrameIterator(parallel: true, background: .white)
    /// var buffer: [UInt8] = []
    /// while let frame = try frames.next() {
    ///     try PNMWriter.writePPM(frame, buffer: &buffer) { bytes in try output.write(contentsOf: bytes) }
    /// }
    /// ```
    package func makeFrameIterator(parallel: Bool = false, background: Palette.Color) -> FrameIterator {
        FrameIterator(image: self, parallel: parallel, background: background)
    }

    /// Random access to the composited frames, with checkpoints saved within
    /// `budget.checkpointBytes` so that reaching a frame costs a few frames'
    /// decoding rather than all the frames before it, and frames' palette
    /// indices stored within `budget.indexBytes` so that compositing a frame
    /// again costs no decoding, in `pixelFormat`. See ``FrameSeeker``.
    public func makeSeeker(budget: DecodingBudget = .default, pixelFormat: PixelFormat = .rgba8) -> FrameSeeker {
        FrameSeeker(image: self, budget: budget, pixelFormat: pixelFormat)
    }

    /// The composited frame at `index`, built by compositing every frame
    /// before it. For repeated random access, a ``FrameSeeker`` costs a few
    /// frames per call instead.
    ///
    /// - Throws: ``GIFError`` when a frame up to `index` fails (a frame that
    ///   fails part-way is still returned when it is the one asked for), or
    ///   when `index` is out of range.
    public func frame(at index: Int) throws(GIFError) -> CompositedFrame {
        guard index >= 0 else { throw outOfRange(index) }
        var frames = makeFrameIterator()
        try frames.skip(to: index)
        guard let frame = try frames.next() else { throw outOfRange(index) }
        return frame
    }

    /// The palette indices of frame `index`'s own rectangle, not composited.
    ///
    /// - Throws: ``GIFError`` when `index` is out of range or the frame's data
    ///   fails before its first pixel.
    public func rawFrame(at index: Int) throws(GIFError) -> RawFrame {
        guard info.frames.indices.contains(index) else { throw outOfRange(index) }
        let frame = info.frames[index]
        let width = frame.rect.width
        var indices = [UInt8](repeating: 0, count: frame.rect.area)
        let decoder = FrameDecoder()
        let outcome = decoder.withData(of: frame, in: self) { frame, file in
            indices.withUnsafeMutableBufferPointer { decoder.decode(frame, bytes: file, into: $0) }
        }
        // Rows the data did not reach stay 0.
        let decodedRows = (0..<outcome.rows).map {
            FrameDecoder.displayRow($0, height: frame.rect.height, interlaced: frame.isInterlaced)
        }
        let partialRow = outcome.partialPixels > 0
            ? FrameDecoder.displayRow(outcome.rows, height: frame.rect.height, interlaced: frame.isInterlaced) : -1
        if outcome.rows < frame.rect.height {
            var keep = [Bool](repeating: false, count: frame.rect.height)
            for y in decodedRows { keep[y] = true }
            for y in 0..<frame.rect.height where !keep[y] {
                let start = y == partialRow ? y * width + outcome.partialPixels : y * width
                for i in start..<(y + 1) * width { indices[i] = 0 }
            }
        }
        let decoded = outcome.rows * width + outcome.partialPixels
        if !outcome.decodedAnything, let error = outcome.error(in: frame) { throw error }
        return RawFrame(
            info: frame, indices: indices, palette: frame.localPalette ?? info.globalPalette,
            decodedPixelCount: decoded)
    }

    private func outOfRange(_ index: Int) -> GIFError {
        GIFError(.frameOutOfRange(index, count: info.frameCount), frameIndex: index)
    }
}
