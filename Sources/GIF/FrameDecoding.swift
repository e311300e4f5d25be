/// Runs giflib over one frame and hands back its rows of palette indices.
enum FrameDecoding {
    /// How far a frame's decode got.
    struct Outcome {
        /// Rows decoded in full, in stream order.
        var rows: Int
        /// Pixels decoded in the row after those, when the data failed mid-row.
        var partialPixels: Int
        /// giflib's error, when the data failed before the last pixel.
        var error: GIFLibError?

        /// Whether any pixel was decoded.
        var decodedAnything: Bool { rows > 0 || partialPixels > 0 }
    }

    /// Decodes `frame` from `bytes` (the whole file) row by row, in stream
    /// order, into `row` (at least the frame's width), calling
    /// `deliver(streamRow, pixelCount)` after each row and after a partial one.
    static func decode(
        _ frame: FrameInfo, bytes: UnsafeBufferPointer<UInt8>, row: UnsafeMutableBufferPointer<UInt8>,
        deliver: (_ streamRow: Int, _ count: Int) -> Void
    ) -> Outcome {
        let width = frame.rect.width, height = frame.rect.height
        // A zero-size frame paints nothing; the scanner already skipped its data.
        guard width > 0, height > 0 else { return Outcome(rows: 0, partialPixels: 0, error: nil) }
        assert(row.count >= width)
        let line = UnsafeMutableBufferPointer(rebasing: row[..<width])
        guard let decoder = LZWDecoder(frame: frame, bytes: bytes) else {
            return Outcome(rows: 0, partialPixels: 0, error: .notEnoughMemory)
        }
        do throws(GIFLibError) {
            try decoder.start()
        } catch {
            return Outcome(rows: 0, partialPixels: 0, error: error)
        }
        for r in 0..<height {
            do throws(GIFLibError) {
                try decoder.readPixels(into: line)
            } catch {
                let written = writtenPrefix(of: frame, failingRow: r, bytes: bytes, line: line)
                if written > 0 { deliver(r, written) }
                // giflib also fails when the data ends after the last pixel,
                // while it skips to the block terminator: the frame is whole.
                if r == height - 1, written == width { return Outcome(rows: height, partialPixels: 0, error: nil) }
                return Outcome(rows: r, partialPixels: written, error: error)
            }
            deliver(r, width)
        }
        return Outcome(rows: height, partialPixels: 0, error: nil)
    }

    /// How many pixels giflib wrote into `line` before failing on row
    /// `failingRow`. giflib does not say, so the frame is decoded again with
    /// the row's buffer holding the complement of what it held after the
    /// failure: the pixels written are the same both times, the others differ.
    /// Runs only on corrupt or truncated data.
    private static func writtenPrefix(
        of frame: FrameInfo, failingRow: Int, bytes: UnsafeBufferPointer<UInt8>,
        line: UnsafeMutableBufferPointer<UInt8>
    ) -> Int {
        let first = Array(line)
        guard let decoder = LZWDecoder(frame: frame, bytes: bytes) else { return 0 }
        do throws(GIFLibError) {
            try decoder.start()
            for _ in 0..<failingRow { try decoder.readPixels(into: line) }
        } catch {
            return 0
        }
        for i in line.indices { line[i] = ~first[i] }
        try? decoder.readPixels(into: line)
        return line.indices.first { line[$0] != first[$0] } ?? line.count
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
