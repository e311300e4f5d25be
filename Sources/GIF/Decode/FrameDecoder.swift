/// Decodes frames' LZW data into palette indices, one frame after another,
/// reusing everything between frames: one giflib handle, the code check's
/// table and the index buffer. After the first frames it allocates nothing.
///
/// Not thread-safe: one decoder per thread. The parallel iterator gives each
/// worker its own.
final class FrameDecoder {
    private var lzw: LZWDecoder?
    private let scratch = LZWCodeCheck.Scratch()
    private var buffer: UnsafeMutableBufferPointer<UInt8>
    /// A frame's data read from a file-backed image's file
    /// (``withData(of:in:_:)``): as large as the largest frame's data so far.
    private var fileData: UnsafeMutableRawBufferPointer
    /// The outcomes of a batch of frames decoded ahead, before they are
    /// published (see ``ParallelFrameDecoder``); kept here to be reused.
    var outcomes: [Outcome] = []

    init() {
        buffer = .allocate(capacity: 0)
        fileData = .allocate(byteCount: 0, alignment: 1)
    }

    /// The bytes this decoder keeps between frames: its index buffer (the
    /// largest frame's rectangle so far), the code check's scratch, the
    /// largest frame's data read from a file, and giflib's handle once
    /// opened (``LZWDecoder/byteCount``).
    var byteCount: Int {
        buffer.count + scratch.byteCount + fileData.count + (lzw == nil ? 0 : LZWDecoder.byteCount)
    }

    deinit {
        buffer.deallocate()
        fileData.deallocate()
    }

    /// Runs `body` with `frame` and the bytes to decode it from: the whole
    /// file held in memory with `frame` as it is; or, for an image that reads
    /// its frames from its file, the frame's data read into this decoder's
    /// buffer, with `frame`'s offsets moved to that buffer (and, when the
    /// file no longer holds all of it, its end moved to what was read and the
    /// frame marked cut short). The byte offset of the outcome `body`
    /// returns is moved back into the file.
    func withData(
        of frame: FrameInfo, in image: GIFImage, _ body: (FrameInfo, UnsafeBufferPointer<UInt8>) -> Outcome?
    ) -> Outcome? {
        if let arrived = image.arrivedBytes {
            return arrived.withUnsafeBufferPointer { body(frame, $0) }
        }
        guard let file = image.file else {
            return image.heldBytes.withUnsafeBufferPointer { body(frame, $0) }
        }
        let start = frame.dataOffset, wanted = max(0, frame.dataEnd - frame.dataOffset)
        if fileData.count < wanted {
            fileData.deallocate()
            fileData = .allocate(byteCount: wanted, alignment: 1)
        }
        let read = file.read(at: start, into: UnsafeMutableRawBufferPointer(rebasing: fileData[..<wanted]))
        var local = frame
        local.descriptorOffset = 0
        local.dataOffset = 0
        local.dataEnd = read
        if read < wanted { local.isTruncated = true }
        let bytes = UnsafeBufferPointer(start: fileData.baseAddress?.assumingMemoryBound(to: UInt8.self), count: read)
        guard var outcome = body(local, bytes) else { return nil }
        outcome.offset += start
        return outcome
    }

    /// ``withData(of:in:_:)`` for a body that always has an outcome.
    func withData(
        of frame: FrameInfo, in image: GIFImage, _ body: (FrameInfo, UnsafeBufferPointer<UInt8>) -> Outcome
    ) -> Outcome {
        // The body always returns an outcome, so the result is never nil.
        withData(of: frame, in: image) { frame, bytes -> Outcome? in body(frame, bytes) } ?? .empty
    }

    /// Decodes `frame` from `bytes` (the whole file) into the buffer
    /// ``withIndices(_:)`` lends: the frame's rectangle, row-major in display
    /// order (interlaced rows put in place). Only the rows the outcome names
    /// hold pixels; the rest is stale.
    ///
    /// giflib is asked for exactly the pixels ``LZWCodeCheck`` found to be
    /// sound, so a corrupt stream shows what a browser shows.
    func decode(_ frame: FrameInfo, bytes: UnsafeBufferPointer<UInt8>) -> Outcome {
        reserve(frame.rect.area)
        return decode(frame, bytes: bytes, into: buffer)
    }

    /// Decodes `frame` as ``decode(_:bytes:)`` does, into `buffer` (at least
    /// the frame's area) instead of its own.
    func decode(
        _ frame: FrameInfo, bytes: UnsafeBufferPointer<UInt8>, into buffer: UnsafeMutableBufferPointer<UInt8>
    ) -> Outcome {
        let width = frame.rect.width, height = frame.rect.height
        // A zero-size frame paints nothing; the scanner already skipped its data.
        guard width > 0, height > 0 else { return .empty }
        precondition(buffer.count >= width * height)
        let whole = UnsafeMutableBufferPointer(rebasing: buffer[..<(width * height)])
        if !frame.isInterlaced, LZWCodeCheck.isSound(frame: frame, bytes: bytes, scratch: scratch),
            let decoder = openDecoder(), decodeWhole(frame, bytes: bytes, decoder: decoder, into: whole) {
            // The common case: one quick walk, then giflib for the whole
            // frame; the full check below only when the walk finds a bad code
            // or giflib fails.
            return Outcome(rows: height, partialPixels: 0, failure: nil, offset: frame.dataEnd)
        }
        let check = LZWCodeCheck(frame: frame, bytes: bytes, scratch: scratch)
        let sound = check.stop == .complete ? nil : Failure.stream(check.stop)
        var outcome = Outcome(rows: 0, partialPixels: 0, failure: sound, offset: check.offset)
        guard check.pixels > 0 else { return outcome }
        guard let decoder = openDecoder() else {
            outcome.failure = .giflib(.notEnoughMemory)
            return outcome
        }
        if !frame.isInterlaced {
            // One call for the whole frame: the rows are contiguous.
            do throws(GIFLibError) {
                try decoder.reading(frame, bytes: bytes) { decoder throws(GIFLibError) in
                    try decoder.readPixels(into: UnsafeMutableBufferPointer(rebasing: buffer[..<check.pixels]))
                }
                outcome.rows = check.pixels / width
                outcome.partialPixels = check.pixels % width
                return outcome
            } catch {
                // Find which row giflib failed on, row by row, on a new handle.
                lzw = nil
                guard let fresh = openDecoder() else {
                    outcome.failure = .giflib(.notEnoughMemory)
                    return outcome
                }
                return decodeRows(
                    frame, bytes: bytes, decoder: fresh, pixels: check.pixels, into: buffer, outcome: outcome)
            }
        }
        return decodeRows(frame, bytes: bytes, decoder: decoder, pixels: check.pixels, into: buffer, outcome: outcome)
    }

    /// Frames of at least this many pixels are decoded a band of rows at a
    /// time by a sequential iterator (``decodeInBands(_:bytes:draw:)``).
    static let bandedFramePixels = 1 << 18

    /// About this many indices a band: small enough to stay in cache
    /// between giflib writing them and the compositor reading them.
    static let bandPixels = 1 << 16

    /// Decodes a sound frame that is not interlaced a band of whole rows at
    /// a time into a small reused buffer, handing each band to `draw` (its
    /// rows, and their indices alone) as soon as it is decoded: the common
    /// case of ``decode(_:bytes:)`` without a buffer the size of the frame,
    /// for large frames whose indices are not kept.
    ///
    /// Returns `nil`, having drawn some bands or none, when the frame is
    /// interlaced or empty, its code walk finds a problem, or giflib fails;
    /// the caller then decodes it with ``decode(_:bytes:)`` and draws it
    /// again, which draws the same pixels over the bands already drawn.
    func decodeInBands(
        _ frame: FrameInfo, bytes: UnsafeBufferPointer<UInt8>,
        draw: (_ rows: Range<Int>, _ indices: UnsafeBufferPointer<UInt8>) -> Void
    ) -> Outcome? {
        let width = frame.rect.width, height = frame.rect.height
        guard width > 0, height > 0, !frame.isInterlaced,
              LZWCodeCheck.isSound(frame: frame, bytes: bytes, scratch: scratch), let decoder = openDecoder()
        else { return nil }
        let bandRows = max(1, Self.bandPixels / width)
        reserve(min(height, bandRows) * width)
        do throws(GIFLibError) {
            try decoder.reading(frame, bytes: bytes) { decoder throws(GIFLibError) in
                var y = 0
                while y < height {
                    let rows = min(bandRows, height - y)
                    let band = UnsafeMutableBufferPointer(rebasing: buffer[..<(rows * width)])
                    try decoder.readPixels(into: band)
                    draw(y..<y + rows, UnsafeBufferPointer(band))
                    y += rows
                }
            }
            return Outcome(rows: height, partialPixels: 0, failure: nil, offset: frame.dataEnd)
        } catch {
            lzw = nil
            return nil
        }
    }

    /// Has giflib decode the whole of `frame` into `buffer`; `false` (and the
    /// handle dropped) when giflib fails: an early end code or missing data,
    /// after which the full check says how many pixels a browser shows.
    private func decodeWhole(
        _ frame: FrameInfo, bytes: UnsafeBufferPointer<UInt8>, decoder: LZWDecoder,
        into buffer: UnsafeMutableBufferPointer<UInt8>
    ) -> Bool {
        do throws(GIFLibError) {
            try decoder.reading(frame, bytes: bytes) { decoder throws(GIFLibError) in
                try decoder.readPixels(into: buffer)
            }
            return true
        } catch {
            lzw = nil
            return false
        }
    }

    /// Runs `body` on the indices of the frame decoded last by
    /// ``decode(_:bytes:)``: its area, row-major.
    func withIndices<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        body(UnsafeBufferPointer(buffer))
    }

    /// Decodes `pixels` pixels a row at a time, putting interlaced rows in
    /// place, and stops at the first row giflib fails on.
    private func decodeRows(
        _ frame: FrameInfo, bytes: UnsafeBufferPointer<UInt8>, decoder: LZWDecoder, pixels: Int,
        into buffer: UnsafeMutableBufferPointer<UInt8>, outcome: Outcome
    ) -> Outcome {
        var outcome = outcome
        let width = frame.rect.width, height = frame.rect.height
        let rows = pixels / width, partial = pixels % width
        let sound = outcome.failure == nil
        do throws(GIFLibError) {
            try decoder.reading(frame, bytes: bytes) { decoder throws(GIFLibError) in
                for r in 0..<rows {
                    let y = Self.displayRow(r, height: height, interlaced: frame.isInterlaced)
                    do throws(GIFLibError) {
                        try decoder.readPixels(
                            into: UnsafeMutableBufferPointer(rebasing: buffer[y * width..<(y + 1) * width]))
                    } catch where sound && r == height - 1 {
                        // giflib fails on a cut-short block chain while it skips
                        // to the terminator after the last pixel: the frame is whole.
                        lzw = nil
                    }
                    outcome.rows = r + 1
                }
                if partial > 0 {
                    let y = Self.displayRow(rows, height: height, interlaced: frame.isInterlaced)
                    try decoder.readPixels(
                        into: UnsafeMutableBufferPointer(rebasing: buffer[y * width..<y * width + partial]))
                    outcome.partialPixels = partial
                }
            }
        } catch {
            lzw = nil
            outcome.failure = .giflib(error)
            outcome.offset = frame.dataOffset
        }
        return outcome
    }

    private func openDecoder() -> LZWDecoder? {
        if let lzw { return lzw }
        lzw = LZWDecoder()
        return lzw
    }

    private func reserve(_ count: Int) {
        guard buffer.count < count else { return }
        buffer.deallocate()
        buffer = .allocate(capacity: count)
    }
}
