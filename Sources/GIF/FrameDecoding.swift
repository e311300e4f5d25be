/// Runs giflib over one frame and hands back its rows of palette indices.
enum FrameDecoding {
    /// How far a frame's decode got.
    struct Outcome {
        /// Rows decoded in full, in stream order.
        var rows: Int
        /// Pixels decoded in the row after those, when the data failed mid-row.
        var partialPixels: Int
        /// Why the frame is not whole, if it is not.
        var failure: Failure?
        /// Byte offset where the data went wrong.
        var offset: Int

        /// Whether any pixel was decoded.
        var decodedAnything: Bool { rows > 0 || partialPixels > 0 }
    }

    /// Why a frame's data did not yield every pixel.
    enum Failure: Equatable {
        /// Found by ``LZWCodeCheck`` before giflib ran.
        case stream(LZWCodeCheck.Stop)
        /// Reported by giflib.
        case giflib(GIFLibError)
    }

    /// Decodes `frame` from `bytes` (the whole file) row by row, in stream
    /// order, into `row` (at least the frame's width), calling
    /// `deliver(y, pixelCount)` after each row and after a partial one, with
    /// `y` the row's place in the frame (interlaced rows already put in place).
    ///
    /// giflib is asked for exactly the pixels ``LZWCodeCheck`` found to be
    /// sound, so a corrupt stream shows what a browser shows.
    static func decode(
        _ frame: FrameInfo, bytes: UnsafeBufferPointer<UInt8>, row: UnsafeMutableBufferPointer<UInt8>,
        deliver: (_ y: Int, _ count: Int) -> Void
    ) -> Outcome {
        let width = frame.rect.width, height = frame.rect.height
        // A zero-size frame paints nothing; the scanner already skipped its data.
        guard width > 0, height > 0 else { return Outcome(rows: 0, partialPixels: 0, failure: nil, offset: 0) }
        assert(row.count >= width)
        let check = LZWCodeCheck(frame: frame, bytes: bytes)
        let sound = check.stop == .complete ? nil : Failure.stream(check.stop)
        let rows = check.pixels / width, partial = check.pixels % width
        var outcome = Outcome(rows: 0, partialPixels: 0, failure: sound, offset: check.offset)
        guard check.pixels > 0 else { return outcome }
        guard let decoder = LZWDecoder(frame: frame, bytes: bytes) else {
            outcome.failure = .giflib(.notEnoughMemory)
            return outcome
        }
        do throws(GIFLibError) {
            try decoder.start()
            let line = UnsafeMutableBufferPointer(rebasing: row[..<width])
            for r in 0..<rows {
                do throws(GIFLibError) {
                    try decoder.readPixels(into: line)
                } catch where sound == nil && r == height - 1 {
                    // giflib fails on a cut-short block chain while it skips to
                    // the terminator after the last pixel: the frame is whole.
                }
                deliver(frame.isInterlaced ? interlacedRow(r, height: height) : r, width)
                outcome.rows = r + 1
            }
            if partial > 0 {
                try decoder.readPixels(into: UnsafeMutableBufferPointer(rebasing: row[..<partial]))
                deliver(frame.isInterlaced ? interlacedRow(rows, height: height) : rows, partial)
                outcome.partialPixels = partial
            }
        } catch {
            outcome.failure = .giflib(error)
            outcome.offset = frame.dataOffset
        }
        return outcome
    }

    /// The canvas row (from the frame's top) that stream row `r` of an
    /// interlaced frame of `height` rows belongs to. Passes: rows 0, 8, 16…;
    /// 4, 12…; 2, 6, 10…; 1, 3, 5…
    static func interlacedRow(_ r: Int, height: Int) -> Int {
        let pass1 = (height + 7) / 8, pass2 = (height + 3) / 8, pass3 = (height + 1) / 4
        if r < pass1 { return r * 8 }
        if r < pass1 + pass2 { return (r - pass1) * 8 + 4 }
        if r < pass1 + pass2 + pass3 { return (r - pass1 - pass2) * 4 + 2 }
        return (r - pass1 - pass2 - pass3) * 2 + 1
    }
}
