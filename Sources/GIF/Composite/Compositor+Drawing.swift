import EngineSupport
import GIFKernels

/// Drawing a frame's indices on the canvas: whole rectangles with the
/// vector kernels, the drawn stretches of sparse frames, runs, and rows one
/// at a time.
extension Compositor {
    /// Draws the rows `outcome` names of a frame decoded into `indices` (its
    /// rectangle, row-major in display order), clipped to the canvas.
    mutating func draw(
        _ frame: FrameInfo, indices: UnsafeBufferPointer<UInt8>, outcome: FrameDecoder.Outcome
    ) {
        guard outcome.decodedAnything else { return }
        let frameHeight = frame.rect.height
        // An interlaced frame decoded in part draws rows scattered over its
        // rectangle: it has no box (`nil`) and keeps its whole rectangle.
        if findsDrawnBox { narrowing = DrawnBox.of(frame, indices: indices, outcome: outcome) }
        // The whole rows from the top, in display order, as one rectangle:
        // every row of an interlaced frame decoded in full, else the rows
        // decoded; then the part of a row a frame cut short reached.
        let wholeRows = frame.isInterlaced ? (outcome.rows == frameHeight ? frameHeight : 0) : outcome.rows
        let drawn = if wholeRows > 0, let spans = narrowing?.rows {
            drawSpans(frame, indices: indices, rows: 0..<wholeRows, spans: spans)
        } else {
            wholeRows > 0 && drawRect(frame, indices: indices, firstRow: 0, rows: 0..<wholeRows)
        }
        if drawn {
            guard outcome.partialPixels > 0 else { return }
            drawRows(frame, indices: indices, firstRow: 0) { row in
                row(FrameDecoder.displayRow(outcome.rows, height: frameHeight, interlaced: frame.isInterlaced),
                    outcome.partialPixels)
            }
            return
        }
        drawRows(frame, indices: indices, firstRow: 0) { row in
            for r in 0..<outcome.rows {
                row(FrameDecoder.displayRow(r, height: frameHeight, interlaced: frame.isInterlaced), frame.rect.width)
            }
            if outcome.partialPixels > 0 {
                row(FrameDecoder.displayRow(outcome.rows, height: frameHeight, interlaced: frame.isInterlaced),
                    outcome.partialPixels)
            }
        }
    }

    /// Draws the whole rows `rows` of a frame that is not interlaced, whose
    /// indices for those rows alone are in `indices` (a band of a frame
    /// decoded a band at a time), clipped to the canvas.
    mutating func drawBand(_ frame: FrameInfo, rows: Range<Int>, indices: UnsafeBufferPointer<UInt8>) {
        assert(!frame.isInterlaced && indices.count >= rows.count * frame.rect.width)
        if let base = indices.baseAddress, findsDrawnBox {
            narrowing!.extend(rows: rows, firstRow: rows.lowerBound, of: base, width: frame.rect.width,
                              count: frame.rect.width, transparent: transparent)
        }
        guard !drawRect(frame, indices: indices, firstRow: rows.lowerBound, rows: rows) else { return }
        drawRows(frame, indices: indices, firstRow: rows.lowerBound) { row in
            for y in rows { row(y, frame.rect.width) }
        }
    }

    /// Draws a whole frame, not interlaced, kept as ``IndexRuns`` straight
    /// from `runs`, clipped to the canvas: each run is one fill of its
    /// colour (none for the transparent index), each literal stretch looked
    /// up as a row is (`gif_draw_runs`). A frame that is mostly one index
    /// so costs a fill, not a lookup, a pixel.
    ///
    /// Drawn over the previous frame's canvas while ``narrowsChanges``, it
    /// writes only the pixels whose value changes, and its change
    /// (``changedRect``) is their box, joined with what the previous
    /// frame's disposal restored: encoders that store every frame whole
    /// repeat most of the canvas in each, and a host then redraws, scales
    /// and records only what moved.
    ///
    /// Returns `false`, drawing nothing, for a canvas of three bytes a pixel
    /// or while the frame's changed rectangle is still to be found from
    /// its pixels (no ``takeDrawnBox(_:)``): the caller then reads the runs
    /// into bands for ``drawBand(_:rows:indices:)``.
    mutating func drawRuns(_ frame: FrameInfo, runs: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytesPerPixel == 4, !findsDrawnBox else { return false }
        let frameWidth = frame.rect.width, left = frameRect.x, top = frameRect.y
        guard left < width, top < height, let source = runs.baseAddress else { return true }
        let columns = min(frameWidth, width - left), rows = min(frame.rect.height, height - top)
        let canvasWidth = width, transparent = transparent, mirror = mirror
        let gather: Int32 = rowKernel != .portable && ProcessorFeatures.hasAVX2 ? 1 : 0
        // Over the previous frame's canvas (not a blank one's storage).
        let tracks = narrowsChanges && frame.index > 0 && firstFrame == nil
        // The rows' changes, noted from the frame's top row, from its left.
        let noted = tracks ? rowChanges.map { $0.spans + 2 * top } : nil
        runsNotedRows = noted != nil
        // Left, top, right, bottom: empty until a pixel changes.
        var box = (Int.max, Int.max, -1, -1)
        table.withEntries { words, _ in
            canvas.withUnsafeMutableBytes { raw in
                assert(((top + rows - 1) * canvasWidth + left + columns) * 4 <= raw.count)
                let out = raw.baseAddress!.assumingMemoryBound(to: UInt32.self) + top * canvasWidth + left
                let copy = mirror?.pixel(x: left, y: top).assumingMemoryBound(to: UInt32.self)
                withUnsafeMutableBytes(of: &box) { box in
                    _ = gif_draw_runs(source, runs.count, frameWidth, columns, rows, out, canvasWidth, copy,
                                      (mirror?.bytesPerRow ?? 0) / 4, words, Int32(transparent),
                                      tracks ? box.baseAddress!.assumingMemoryBound(to: Int.self) : nil,
                                      noted, left, gather)
                }
            }
        }
        if tracks {
            let changed = box.2 < 0 ? nil : PixelRect(x: box.0, y: box.1, width: box.2 - box.0 + 1, height: box.3 - box.1 + 1)
            narrowing = DrawnBox(whole: changed)
        }
        return true
    }

    /// Draws the whole rows `rows` of the frame, one below the other from
    /// row `rows.lowerBound` (whose indices start `indices`, each row's
    /// `frame.rect.width` after the one above), clipped to the canvas, as
    /// one rectangle with a vector kernel; returns `false`, drawing
    /// nothing, where none applies (the portable kernel, three bytes a
    /// pixel, or rows narrower than the kernel's
    /// ``RowKernel/rectMinimum``).
    mutating func drawRect(
        _ frame: FrameInfo, indices: UnsafeBufferPointer<UInt8>, firstRow: Int, rows: Range<Int>
    ) -> Bool {
        #if arch(x86_64)
        let frameWidth = frame.rect.width, left = frameRect.x, top = frameRect.y
        let columns = min(frameWidth, width - left), kernel = rowKernel
        guard bytesPerPixel == 4, let source = indices.baseAddress, columns >= kernel.rectMinimum
        else { return false }
        // The rows that lie on the canvas.
        let visible = rows.lowerBound..<max(rows.lowerBound, min(rows.upperBound, height - top))
        guard !visible.isEmpty else { return true }
        assert((visible.upperBound - firstRow) * frameWidth <= indices.count)
        let canvasWidth = width, transparent = transparent, mirror = mirror
        table.withEntries { words, planes in
            canvas.withUnsafeMutableBytes { raw in
                assert(((top + visible.upperBound - 1) * canvasWidth + left + columns) * 4 <= raw.count)
                let out = raw.baseAddress!.assumingMemoryBound(to: UInt32.self) + (top + visible.lowerBound) * canvasWidth + left
                let copy = mirror?.pixel(x: left, y: top + visible.lowerBound).assumingMemoryBound(to: UInt32.self)
                let from = source + (visible.lowerBound - firstRow) * frameWidth, copyStride = (mirror?.bytesPerRow ?? 0) / 4
                kernel.drawRect(
                    from, stride: frameWidth, columns: columns, rows: visible.count, into: out, stride: canvasWidth,
                    copy: copy, stride: copyStride, words: words, planes: planes, transparent: transparent)
            }
        }
        return true
        #else
        return false
        #endif
    }

    /// Draws the whole rows `rows` of a frame decoded into `indices` (its
    /// rectangle) like ``drawRect(_:indices:firstRow:rows:)``, each row
    /// only from its first to its last drawn pixel (`spans`, the frame's
    /// ``DrawnBox/rows``): a frame that changes a few shapes scattered over
    /// its rectangle costs their rows' stretches. A stretch narrower than
    /// the kernel's ``RowKernel/rectMinimum`` is widened to it, by pixels
    /// of the transparent index, which leave the canvas as it is.
    mutating func drawSpans(
        _ frame: FrameInfo, indices: UnsafeBufferPointer<UInt8>, rows: Range<Int>, spans: [UInt32]
    ) -> Bool {
        #if arch(x86_64)
        let frameWidth = frame.rect.width, left = frameRect.x, top = frameRect.y
        let columns = min(frameWidth, width - left), kernel = rowKernel, least = kernel.rectMinimum
        guard bytesPerPixel == 4, let source = indices.baseAddress, columns >= least, spans.count >= rows.upperBound
        else { return false }
        let visible = rows.lowerBound..<max(rows.lowerBound, min(rows.upperBound, height - top))
        guard !visible.isEmpty else { return true }
        assert(visible.upperBound * frameWidth <= indices.count)
        let canvasWidth = width, transparent = transparent, mirror = mirror
        let copyStride = (mirror?.bytesPerRow ?? 0) / 4
        table.withEntries { words, planes in
            canvas.withUnsafeMutableBytes { raw in
                let canvasPixels = raw.baseAddress!.assumingMemoryBound(to: UInt32.self)
                for y in visible {
                    var (first, last) = DrawnBox.columns(of: spans[y])
                    last = min(last, columns - 1)
                    guard first <= last else { continue }
                    if last - first + 1 < least {
                        first = min(first, columns - least)
                        last = first + least - 1
                    }
                    let out = canvasPixels + (top + y) * canvasWidth + left + first
                    let copy = mirror?.pixel(x: left + first, y: top + y).assumingMemoryBound(to: UInt32.self)
                    kernel.drawRect(
                        source + y * frameWidth + first, stride: frameWidth, columns: last - first + 1, rows: 1,
                        into: out, stride: canvasWidth, copy: copy, stride: copyStride, words: words, planes: planes,
                        transparent: transparent)
                }
            }
        }
        return true
        #else
        return false
        #endif
    }

    /// Runs `rows`, which calls the function it is given with each row `y`
    /// of the frame to draw and its pixel count; row `y`'s indices are at
    /// `(y - firstRow) * width` in `indices`.
    @inline(__always)
    mutating func drawRows(
        _ frame: FrameInfo, indices: UnsafeBufferPointer<UInt8>, firstRow: Int,
        _ rows: ((_ y: Int, _ count: Int) -> Void) -> Void
    ) {
        let frameWidth = frame.rect.width
        guard frameRect.x < width, let source = indices.baseAddress else { return }
        let columns = min(frameWidth, width - frameRect.x)
        let transparent = transparent
        let canvasWidth = width, canvasHeight = height, top = frameRect.y, left = frameRect.x
        let kernel = rowKernel, size = bytesPerPixel, mirror = mirror
        table.withEntries { words, planes in
            canvas.withUnsafeMutableBytes { raw in
                let base = raw.baseAddress!
                rows { y, count in
                    let canvasY = top + y
                    guard canvasY < canvasHeight else { return }
                    let n = min(count, columns)
                    assert((y - firstRow + 1) * frameWidth <= indices.count || count < frameWidth)
                    assert(((canvasY * canvasWidth + left) + n) * size <= raw.count)
                    let from = source + (y - firstRow) * frameWidth
                    let out = base + (canvasY * canvasWidth + left) * size
                    guard size == 4 else {
                        Self.drawRGBRow(from: from, count: n, to: out, words: words, transparent: transparent)
                        return
                    }
                    let copy = mirror?.pixel(x: left, y: canvasY)
                    #if arch(x86_64)
                    if n >= kernel.rowMinimum {
                        let out = out.assumingMemoryBound(to: UInt32.self)
                        let copy = copy?.assumingMemoryBound(to: UInt32.self)
                        if kernel == .avx512VBMI {
                            gif_draw_rect_avx512_vbmi(from, n, n, 1, out, n, copy, n, planes, Int32(transparent))
                        } else {
                            gif_draw_rect_avx2(from, n, n, 1, out, n, copy, n, words, Int32(transparent))
                        }
                        return
                    }
                    #endif
                    Self.drawRow(from: from, count: n, to: out, words: words, transparent: transparent)
                    // The mirror holds what the canvas held: the row as drawn.
                    copy?.copyMemory(from: out, byteCount: n * 4)
                }
            }
        }
    }

    /// Writes `count` pixels for the indices at `from` to `out`, skipping the
    /// `transparent` index (none when negative). Eight indices are tested at
    /// once: a run of eight transparent pixels costs one comparison, a run of
    /// eight opaque ones one test and eight stores. Each pixel written is a
    /// byte load, a table load and a store (taking the indices apart from
    /// one 64-bit load costs more instructions a pixel).
    @inline(__always)
    static func drawRow(
        from: UnsafePointer<UInt8>, count: Int, to out: UnsafeMutableRawPointer, words: UnsafePointer<UInt32>,
        transparent: Int
    ) {
        @inline(__always) func put(_ i: Int) {
            out.storeBytes(of: words[Int(from[i])], toByteOffset: i &* 4, as: UInt32.self)
        }
        @inline(__always) func putEight(_ i: Int) {
            put(i); put(i &+ 1); put(i &+ 2); put(i &+ 3)
            put(i &+ 4); put(i &+ 5); put(i &+ 6); put(i &+ 7)
        }
        let raw = UnsafeRawPointer(from)
        var i = 0
        if transparent < 0 {
            while i &+ 8 <= count {
                putEight(i)
                i &+= 8
            }
            while i < count {
                put(i)
                i &+= 1
            }
            return
        }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let pattern = UInt64(truncatingIfNeeded: transparent) &* ones
        while i &+ 8 <= count {
            let v = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            let x = v ^ pattern  // a zero byte where the index is the transparent one
            if x != 0 {
                if (x &- ones) & ~x & 0x8080_8080_8080_8080 == 0 {
                    putEight(i)
                } else {
                    for k in 0..<8 where Int(from[i &+ k]) != transparent { put(i &+ k) }
                }
            }
            i &+= 8
        }
        while i < count {
            if Int(from[i]) != transparent { put(i) }
            i &+= 1
        }
    }

    /// Writes `count` pixels of three bytes (red, green, blue: the low bytes
    /// of an RGBA8 table word) for the indices at `from` to `out`, skipping
    /// the `transparent` index (none when negative).
    static func drawRGBRow(
        from: UnsafePointer<UInt8>, count: Int, to out: UnsafeMutableRawPointer, words: UnsafePointer<UInt32>,
        transparent: Int
    ) {
        for i in 0..<count where Int(from[i]) != transparent {
            let word = UInt32(littleEndian: words[Int(from[i])])
            out.storeBytes(of: UInt16(truncatingIfNeeded: word).littleEndian, toByteOffset: i &* 3, as: UInt16.self)
            out.storeBytes(of: UInt8(truncatingIfNeeded: word >> 16), toByteOffset: i &* 3 &+ 2, as: UInt8.self)
        }
    }

    /// Sets `count` pixels of `size` bytes from `start` to `word`'s low
    /// bytes: one `memset` when those bytes are all the same (transparent
    /// black, or a grey background), else a pixel at a time.
    static func clear(_ start: UnsafeMutableRawPointer, _ count: Int, _ size: Int, _ word: UInt32) {
        let value = UInt32(littleEndian: word)
        let first = UInt8(truncatingIfNeeded: value)
        if size == 4 ? value == UInt32(first) &* 0x0101_0101 : value & 0xFF_FFFF == UInt32(first) &* 0x01_0101 {
            start.initializeMemory(as: UInt8.self, repeating: first, count: count * size)
            return
        }
        for i in 0..<count {
            for k in 0..<size {
                start.storeBytes(of: UInt8(truncatingIfNeeded: value >> UInt32(8 * k)), toByteOffset: i &* size &+ k, as: UInt8.self)
            }
        }
    }
}
