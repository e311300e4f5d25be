/// A GIF whose bytes arrive in pieces: it reads what has come so far, makes
/// each frame available as soon as its data is complete, and ends with the
/// same frames and the same error as decoding the whole file would.
///
/// ```swift
/// var gif = ProgressiveGIF()
/// for try await chunk in download {          // chunks of any size
///     try gif.append(chunk)
///     while let frame = try gif.nextFrame() {
///         show(frame.pixels, frame.size)      // as soon as its last byte is in
///     }
/// }
/// try gif.finish()                            // the stream ended
/// while let frame = try gif.nextFrame() { show(frame.pixels, frame.size) }
/// ```
///
/// - The header (the logical screen size, the global palette) is read as
///   soon as its bytes are in: `screenSize` is known from the 13th byte.
///   ``canvasSize`` is final once the first frame's descriptor is in (the
///   first frame may grow the canvas past the logical screen).
/// - Each limit applies as soon as what it bounds is known: the input as
///   it arrives, the canvas at the logical screen and again at the first
///   frame's descriptor, a frame's size and the pixels and memory it costs
///   at its descriptor, a frame's data and extensions as their sub-blocks
///   arrive. A stream that never ends a block is refused at the first limit
///   it passes.
/// - A frame counts in `availableFrameCount` from the append that brought
///   its last byte (its data's block terminator), not before.
/// - The scan resumes where it stopped: each byte is looked at about once,
///   whatever the chunk sizes, and nothing is scanned again from the start.
///   Memory is the bytes received, held once (images taken from the stream
///   share them, and the buffer grows in place while they hold it), plus one
///   iterator's decoding state (a canvas, a saved canvas for disposal 3,
///   one frame's indices). Appends cost time in proportion to the bytes
///   appended, whatever is read in between.
/// - The stream is over at the trailer, at a byte that starts no block, at
///   an error (a limit), or at ``finish()``: `isComplete`. Bytes appended
///   after that are ignored. ``finish()`` on a stream cut short gives exactly
///   the whole-file decode of the bytes received: the frames before the cut,
///   the partial frame with the rows decoded, then the same ``GIFError``.
///
/// A value type like ``FrameIterator``: use it from one task at a time.
public struct ProgressiveGIF {
    /// The limits the stream is read with.
    package let limits: DecodingLimits

    private var bytes = ArrivedBytes()
    private var scanned: GIFInfo?
    private var walker: GIFScanner.BlockWalker?
    private var completion = BlockCompletion(blockStart: 0)
    private var frames: FrameIterator?
    private var canvasSettled = false

    /// Whether the stream is over: its trailer (or a byte that ends it) has
    /// arrived, an error ended it, or ``finish()`` was called.
    public private(set) var isComplete = false

    /// A stream with nothing received yet.
    public init(limits: DecodingLimits = .default) {
        self.limits = limits
    }

    /// What the scan has found in the bytes so far, or `nil` until the
    /// header is in. Its ``GIFInfo/frames`` are the available frames.
    public var info: GIFInfo? { scanned }

    /// The number of bytes received.
    package var receivedByteCount: Int { bytes.count }

    /// The logical screen size, once the header's first 13 bytes are in
    /// (before its global palette).
    package var screenSize: PixelSize? {
        if let scanned { return scanned.screenSize }
        let header = bytes.prefix(13)
        guard header.count == 13, Sniffer.format(of: Array(header.prefix(6))).isGIF else { return nil }
        return PixelSize(
            width: Int(GIFScanner.BlockWalker.le16(header, 6)), height: Int(GIFScanner.BlockWalker.le16(header, 8)))
    }

    /// The canvas frames are composited on, once it is final: from the first
    /// frame's descriptor on (or the end of a stream with no frame).
    public var canvasSize: PixelSize? { canvasSettled ? scanned?.canvasSize : nil }

    /// The frames whose data has arrived whole (after ``finish()``, also a
    /// frame cut short).
    package var availableFrameCount: Int { scanned?.frameCount ?? 0 }

    /// The index of the frame ``nextFrame()`` returns next.
    package var nextFrameIndex: Int { frames?.nextIndex ?? 0 }

    /// The frames so far as a ``GIFImage``, for random access or a
    /// ``FrameSeeker``; `nil` until the canvas is known. The image shares
    /// the received bytes: later appends write past the bytes it reads,
    /// without copying them.
    public var image: GIFImage? {
        guard canvasSettled, let scanned else { return nil }
        return GIFImage(arrived: bytes, info: scanned, limits: limits)
    }

    /// Adds the next bytes of the stream and reads every block they
    /// complete. Ignored once the stream `isComplete`.
    ///
    /// - Throws: ``GIFError`` when the bytes are not a GIF (said once 4,096
    ///   bytes are in, so the format can be named, or at ``finish()``), when
    ///   they pass ``DecodingLimits/maxInputBytes``, or when the canvas
    ///   exceeds ``DecodingLimits/maxCanvasPixels`` (said at byte 6 as soon
    ///   as the logical screen, or the first frame's descriptor, is in). The
    ///   stream is then over. Problems inside the blocks are kept for
    ///   ``nextFrame()``, after the frames before them, as in a whole-file
    ///   decode; a block still arriving that already passes a limit is one.
    public mutating func append(_ chunk: some Collection<UInt8>) throws(GIFError) {
        guard !isComplete else { return }
        let total = bytes.count + chunk.count
        guard total <= limits.maxInputBytes else {
            isComplete = true
            throw GIFError(.limitExceeded(.inputBytes, value: total, maximum: limits.maxInputBytes))
        }
        bytes.append(chunk, limit: limits.maxInputBytes)
        do {
            try readArrivedBlocks()
        } catch {
            isComplete = true
            throw error
        }
    }

    /// Says that no more bytes will come: a block cut short becomes the
    /// same error (and partial frame) a whole-file decode of the bytes
    /// received gives.
    ///
    /// - Throws: The ``GIFError`` a whole-file decode of the bytes received
    ///   throws when it opens them: not a GIF, a header cut short, a canvas
    ///   over the limit.
    public mutating func finish() throws(GIFError) {
        guard !isComplete else { return }
        isComplete = true
        guard scanned != nil else {
            _ = try GIFScanner.header(of: bytes.prefix(GIFScanner.sniffedByteCount))
            return
        }
        walk(stoppingAt: nil)
        try settleCanvas()
    }

    /// The next composited frame once its data is in, `nil` when it has not
    /// arrived yet (or, once `isComplete`, after the last frame).
    ///
    /// - Throws: As ``FrameIterator/next()``: ``GIFError`` naming the frame,
    ///   the byte offset and the frames decoded before it.
    public mutating func nextFrame() throws(GIFError) -> CompositedFrame? {
        guard canvasSettled, let scanned else { return nil }
        if frames == nil {
            frames = FrameIterator(image: GIFImage(bytes: [], info: scanned, limits: limits))
        }
        guard frames!.nextIndex < scanned.frameCount || isComplete else { return nil }
        // The iterator holds the bytes only while it decodes, so that the
        // next append finds them unshared and may grow them in place.
        frames!.image = GIFImage(arrived: bytes, info: scanned, limits: limits)
        defer { frames!.image = GIFImage(bytes: [], info: scanned, limits: limits) }
        return try frames!.next()
    }

    // MARK: Reading

    private mutating func readArrivedBlocks() throws(GIFError) {
        if scanned == nil {
            guard try readHeader() else { return }
        }
        let progress = bytes.withUnsafeBufferPointer { completion.advance(in: $0) }
        let stop = completion.blockStart + (progress == .ended ? 1 : 0)
        if stop > walker!.offset { walk(stoppingAt: stop) }
        if !canvasSettled, scanned!.frameCount > 0 { try settleCanvas() }
        if progress == .waiting, scanned!.error == nil { try checkArrivingBlock() }
        if progress == .ended || scanned!.error != nil {
            isComplete = true
            try settleCanvas()
        }
    }

    /// Applies the limits to the block still arriving: what passes one ends
    /// the stream there, as the whole-file scan would once the block ended;
    /// the first frame's descriptor settles the canvas (and so refuses one
    /// over its limit) before the frame's data is in.
    private mutating func checkArrivingBlock() throws(GIFError) {
        let start = completion.blockStart
        let error = bytes.withUnsafeBufferPointer { bytes in
            walker!.bytes = bytes
            defer { walker!.bytes = UnsafeBufferPointer(start: nil, count: 0) }
            return walker!.limitPassed(byBlockArrivingAt: start, chainEnd: completion.chain, scanned!)
        }
        if let error {
            scanned!.error = error
            return
        }
        guard scanned!.frameCount == 0, start + 10 <= bytes.count else { return }
        let descriptor = bytes.withUnsafeBufferPointer { Array($0[start..<start + 10]) }
        guard descriptor[0] == 0x2C else { return }
        let right = Int(GIFScanner.BlockWalker.le16(descriptor, 1)) + Int(GIFScanner.BlockWalker.le16(descriptor, 5))
        let bottom = Int(GIFScanner.BlockWalker.le16(descriptor, 3)) + Int(GIFScanner.BlockWalker.le16(descriptor, 7))
        let screen = scanned!.screenSize
        try GIFScanner.checkCanvas(PixelSize(width: max(screen.width, right), height: max(screen.height, bottom)), limits: limits)
    }

    /// Reads the header once its bytes are in; false while they are not.
    private mutating func readHeader() throws(GIFError) -> Bool {
        let start = bytes.prefix(GIFScanner.sniffedByteCount)
        let signatureArrived = start.count >= 6
        if signatureArrived, !Sniffer.format(of: Array(start.prefix(6))).isGIF {
            // Wait for as many bytes as the whole-file decode sniffs, so the
            // error names the same format.
            guard start.count >= GIFScanner.sniffedByteCount else { return false }
            _ = try GIFScanner.header(of: start)
        }
        guard start.count >= 13, start.count >= GIFScanner.headerLength(start) else { return false }
        let header = try GIFScanner.header(of: start)
        // The logical screen bounds the canvas from below: one over the
        // limit is refused now, not after a frame that may never end.
        try GIFScanner.checkCanvas(header.screenSize, limits: limits)
        scanned = header
        walker = GIFScanner.BlockWalker(
            bytes: UnsafeBufferPointer(start: nil, count: 0), offset: header.endOffset, limits: limits)
        completion = BlockCompletion(blockStart: header.endOffset)
        return true
    }

    /// Runs the scanner's block walker over the bytes so far, up to `stop`;
    /// it keeps its state (a pending graphic control, the budgets spent)
    /// from run to run.
    private mutating func walk(stoppingAt stop: Int?) {
        bytes.withUnsafeBufferPointer { bytes in
            walker!.bytes = bytes
            walker!.run(into: &scanned!, stoppingAt: stop)
            walker!.bytes = UnsafeBufferPointer(start: nil, count: 0)
        }
    }

    private mutating func settleCanvas() throws(GIFError) {
        try GIFScanner.settleCanvas(&scanned!, limits: limits)
        canvasSettled = true
    }
}
