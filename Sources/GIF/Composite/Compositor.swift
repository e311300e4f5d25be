import EngineSupport
import GIFKernels

/// Builds each composited canvas from the one before, with browser rules:
/// a transparent-black start, palette choice, transparency, clipping and
/// disposal, as browsers apply them.
///
/// Memory is the canvas plus, for a frame with disposal 3 ("restore
/// previous"), a copy of the part of the canvas under that frame, in a buffer
/// kept between frames. The palette table is rebuilt only when the palette
/// changes, in the canvas's `PixelFormat`, and the inner loop runs over raw
/// pointers with the clipping done once per frame. A compositor is a value:
/// a copy is a checkpoint.
///
/// A new or rewound canvas is not cleared up front: the first frame writes
/// every pixel of its rectangle (its transparent index as transparent black,
/// which is what drawing it over a clear canvas leaves), and only the rest
/// of the canvas, and the rows the frame's data did not reach, are cleared.
/// A first frame that covers the canvas so costs one pass over it, not two.
///
/// Rows are drawn by one of the ``RowKernel``s, the fastest this processor
/// runs (``ProcessorFeatures``): 64 pixels at a time with AVX-512 VBMI from
/// the colour table's byte planes, 8 at a time with AVX2 gathers from its
/// words (both C functions in `GIFKernels`), or a word at a time in Swift;
/// the result is the same.
///
/// A canvas over an opaque background (``CompositedFrame/background``) is
/// three bytes a pixel, red, green, blue, a PPM's pixels as they stand:
/// what clears a pixel to transparent black in the other formats paints it
/// the background colour, and rows are drawn a pixel at a time.
struct Compositor {
    let width: Int
    let height: Int
    /// The canvas, in ``format``, row-major.
    private(set) var canvas: [UInt8]
    /// The layout of the canvas's pixels (the colour order of a canvas
    /// over ``background``).
    let format: PixelFormat
    /// The opaque colour every transparent pixel shows, for a canvas of
    /// three bytes a pixel; `nil` for four bytes a pixel with alpha.
    let background: Palette.Color?
    /// 4, or 3 over ``background``.
    let bytesPerPixel: Int
    /// A cleared pixel's bytes, as a colour table word: transparent black,
    /// or the background.
    private let clearWord: UInt32
    /// The part of the canvas the frame being drawn can change from the
    /// previous frame's canvas (see ``CompositedFrame/changedRect``), set by
    /// ``begin(_:globalPalette:)`` and narrowed by ``end(_:outcome:)`` to
    /// the pixels a frame with a transparent index drew.
    private(set) var changedRect = PixelRect(x: 0, y: 0, width: 0, height: 0)
    /// While a frame with a transparent index is drawn over the previous
    /// frame's canvas (or one drawn from runs whose changed pixels
    /// ``drawRuns(_:runs:)`` found): the box of the frame's pixels drawn so
    /// far that change the canvas (frame coordinates), joined with
    /// ``restored`` at the end. `nil` for other frames, whose change is
    /// their whole rectangle.
    private var narrowing: DrawnBox?
    /// Whether ``narrowing``'s box is still to be found from the pixels the
    /// frame draws (no box was taken or found whole beforehand).
    private var findsDrawnBox: Bool { narrowing.map { !$0.isWhole } ?? false }
    /// The area the previous frame's disposal restored for the frame being
    /// drawn (clipped to the canvas; empty when none), kept from
    /// ``begin(_:globalPalette:)``.
    private var restored = PixelRect(x: 0, y: 0, width: 0, height: 0)
    /// Whether frames with a transparent index have ``changedRect``
    /// narrowed to the pixels they draw; otherwise it is their rectangle
    /// (and what the previous frame's disposal restored).
    var narrowsChanges = true
    /// The previous frame's disposal, applied when the next frame begins.
    private var pending: (rect: PixelRect, disposal: Disposal)?
    /// The canvas under the current frame, kept for disposal 3.
    private var saved: [UInt8] = []
    private var table: ColorTable
    /// Which palette `table` holds: -1 none yet, -2 the global one, else the
    /// index of the frame whose local palette it is.
    private var tableSource = -1
    private var transparent = -1
    private var frameRect = PixelRect(x: 0, y: 0, width: 0, height: 0)
    /// Whether the canvas storage holds no pixels yet, standing for a
    /// transparent-black canvas (new or rewound).
    private var isBlank = true
    /// While the first frame on a blank canvas is drawn (its clipped
    /// rectangle holds no pixels until drawn): its transparent index (or -1)
    /// and the table entry that 0, transparent black, stands in for.
    private var firstFrame: (transparent: Int, word: UInt32)?
    /// How rows of four bytes a pixel are drawn.
    let rowKernel: RowKernel
    /// Memory outside the canvas that each frame's changes are written to
    /// as well, while set (see ``setMirror(_:)``).
    private(set) var mirror: Mirror?
    /// Whether the canvas changed in a way not written to ``mirror`` since
    /// it was set.
    private var mirrorMissed = false
    /// Where each change the next frames and restores make to the canvas
    /// is noted by row, while set (`nil`: not noted): a host that scales
    /// the changed pixels then scales each row's, not their box.
    var rowChanges: RowChanges?
    /// Whether the frame being drawn from runs noted the pixels it changed
    /// in ``rowChanges`` as it wrote them.
    private var runsNotedRows = false

    /// A host's buffer of the canvas's size, `bytesPerRow` bytes from one
    /// row's start to the next, that holds what the canvas holds.
    /// `@unchecked Sendable` for its address: it is set only for the
    /// frames of one draw, by the thread that holds the buffer and the
    /// compositor for that draw, and a checkpoint (the copy that outlives
    /// the draw) never keeps it.
    struct Mirror: @unchecked Sendable {
        let base: UnsafeMutableRawPointer
        let bytesPerRow: Int

        /// Where canvas pixel (`x`, `y`) is.
        func pixel(x: Int, y: Int) -> UnsafeMutableRawPointer { base + y * bytesPerRow + x * 4 }

        /// Whether every row starts on a 32-bit word: the start is aligned
        /// and the rows are a whole number of words apart.
        var isWordAligned: Bool { Int(bitPattern: base) % 4 == 0 && bytesPerRow % 4 == 0 }
    }

    /// Memory outside the compositor where the canvas's changes are noted
    /// row by row: for canvas row `y`, the first and last column changed
    /// since the host cleared it, `spans[2y]` and `spans[2y + 1]` (the
    /// first past the last: none), widened by each change. Every pixel that
    /// changes lies within its row's span; a span may hold pixels that were
    /// written with the value they had. `@unchecked Sendable` for its
    /// address, as ``Mirror``: set only for the frames of one draw, and
    /// never kept by a checkpoint.
    struct RowChanges: @unchecked Sendable {
        /// Two numbers a canvas row.
        let spans: UnsafeMutablePointer<Int>

        /// Notes columns `first ... last` of row `y` as changed.
        func add(row y: Int, first: Int, last: Int) {
            spans[2 * y] = min(spans[2 * y], first)
            spans[2 * y + 1] = max(spans[2 * y + 1], last)
        }

        /// Notes every pixel of `rect` as changed.
        func add(_ rect: PixelRect) {
            guard !rect.isEmpty else { return }
            for y in rect.y..<rect.y + rect.height { add(row: y, first: rect.x, last: rect.x + rect.width - 1) }
        }
    }

    /// The ways of drawing a row of palette indices as pixels of four
    /// bytes. All give the same pixels.
    enum RowKernel: CaseIterable, Sendable {
        /// A word at a time, in Swift: every processor.
        case portable
        /// 8 pixels at a time with AVX2 gathers from the colour table's
        /// words: x86-64 processors with AVX2 (Zen 1 to 3, Intel from
        /// Haswell on).
        case avx2
        /// 64 pixels at a time with AVX-512 F, BW and VBMI byte permutes of
        /// the colour table's planes: Zen 4, Intel from Ice Lake on.
        case avx512VBMI

        /// The fastest kernel this processor runs (the cases go from the
        /// slowest to the fastest).
        static let best = allCases.last { $0.isAvailable } ?? .portable

        /// Whether this processor runs the kernel.
        var isAvailable: Bool {
            switch self {
            case .portable: true
            case .avx2: ProcessorFeatures.hasAVX2
            case .avx512VBMI: ProcessorFeatures.hasAVX512VBMI
            }
        }

        /// The kernels this processor runs.
        static var available: [RowKernel] { allCases.filter(\.isAvailable) }

        /// The shortest row drawn alone with this kernel (a row of a frame
        /// cut short or interlaced and part-decoded): the AVX-512 kernel
        /// loads the colour table's sixteen registers for each, the AVX2
        /// one draws a shorter row a pixel at a time.
        var rowMinimum: Int {
            switch self {
            case .portable: .max
            case .avx2: 8
            case .avx512VBMI: 32
            }
        }

        /// The narrowest rectangle of rows drawn with this kernel as one.
        /// The AVX-512 kernel loads the colour table once for all its rows
        /// and looks up to four narrow rows up at once: from 4 pixels a row
        /// a row costs fewer instructions than a word at a time.
        var rectMinimum: Int {
            switch self {
            case .portable: .max
            case .avx2: 8
            case .avx512VBMI: 4
            }
        }

        #if arch(x86_64)
        /// Draws `rows` rows of `columns` indices at `from` (rows `stride`
        /// apart) at `out` (and `copy`, when set), with this vector kernel
        /// (not ``portable``): `words` is the colour table's words, `planes`
        /// its byte planes.
        func drawRect(
            _ from: UnsafePointer<UInt8>, stride: Int, columns: Int, rows: Int, into out: UnsafeMutablePointer<UInt32>,
            stride outStride: Int, copy: UnsafeMutablePointer<UInt32>?, stride copyStride: Int,
            words: UnsafePointer<UInt32>, planes: UnsafePointer<UInt8>, transparent: Int
        ) {
            if self == .avx512VBMI {
                gif_draw_rect_avx512_vbmi(
                    from, stride, columns, rows, out, outStride, copy, copyStride, planes, Int32(transparent))
            } else {
                gif_draw_rect_avx2(from, stride, columns, rows, out, outStride, copy, copyStride, words, Int32(transparent))
            }
        }
        #endif
    }

    /// A compositor for a canvas of `canvasSize` in `format`, or three
    /// bytes a pixel over `background` when given; `rows` chooses the row
    /// drawing (tests draw with each the processor runs and compare). A
    /// canvas of three bytes a pixel is drawn with the portable rows.
    init(
        canvasSize: PixelSize, format: PixelFormat = .rgba8, background: Palette.Color? = nil,
        rows: RowKernel = .best
    ) {
        width = canvasSize.width
        height = canvasSize.height
        self.format = background == nil ? format : .rgba8
        self.background = background
        bytesPerPixel = background == nil ? 4 : 3
        clearWord = background.map { ColorTable.word(red: $0.red, green: $0.green, blue: $0.blue, alpha: 255) } ?? 0
        rowKernel = background == nil && rows.isAvailable ? rows : .portable
        table = ColorTable(nil, format: self.format)
        let count = width * height * bytesPerPixel
        // Written before it is read: see the type's documentation.
        canvas = [UInt8](uninitializedCapacity: count) { _, initialized in initialized = count }
    }

    /// Writes what the next frames change on the canvas to `mirror` as
    /// well, until set again (`nil`: stop). A host's buffer that holds the
    /// canvas so stays equal to it, with no copy of the changed rectangle
    /// after each frame; ``mirrorIsWhole`` says whether it did. Only
    /// frames drawn one after another and restores from a checkpoint are
    /// written there: a rewind or a first frame on a blank canvas marks
    /// the mirror missed. A canvas of three bytes a pixel takes no mirror,
    /// nor does a buffer whose rows are not whole 32-bit words apart from a
    /// word-aligned start: the kernels write the mirror a pixel word at a
    /// time and step its rows in words (``mirrorIsWhole`` is then `false`,
    /// and the caller copies the changed rectangle).
    mutating func setMirror(_ mirror: Mirror?) {
        self.mirror = bytesPerPixel == 4 && mirror?.isWordAligned == true ? mirror : nil
        mirrorMissed = false
    }

    /// Whether a mirror is set and every change since was written to it.
    var mirrorIsWhole: Bool { mirror != nil && !mirrorMissed }

    /// Applies the previous frame's disposal and gets ready to draw `frame`.
    mutating func begin(_ frame: FrameInfo, globalPalette: Palette?) {
        changedRect = changedArea(for: frame)
        restored = restoredArea()
        narrowing = narrowsChanges && frame.index > 0 && frame.transparentIndex != nil && !isBlank
            ? DrawnBox() : nil
        applyPendingDisposal()
        if let local = frame.localPalette {
            if tableSource != frame.index {
                table.fill(from: local)
                tableSource = frame.index
            }
        } else if tableSource != -2 {
            table.fill(from: globalPalette)
            tableSource = -2
        }
        transparent = frame.transparentIndex.map(Int.init) ?? -1
        frameRect = frame.rect
        if isBlank { beginOnBlankCanvas(frame) }
        if frame.disposal.effective == .restorePrevious {
            save(frame.rect.clipped(toWidth: width, height: height))
        }
    }

    /// Clears the canvas outside `frame`'s rectangle and has the frame's
    /// draws write its transparent index as transparent black, so that its
    /// rectangle needs no clearing first (see ``end(_:outcome:)``). Clears
    /// the whole canvas instead when the frame's rectangle is empty or the
    /// frame keeps the canvas under it (disposal 3).
    private mutating func beginOnBlankCanvas(_ frame: FrameInfo) {
        isBlank = false
        mirrorMissed = true
        let rect = frame.rect.clipped(toWidth: width, height: height)
        let canvasWidth = width, size = bytesPerPixel, clearWord = clearWord
        guard !rect.isEmpty, frame.disposal.effective != .restorePrevious else {
            canvas.withUnsafeMutableBytes { raw in Self.clear(raw.baseAddress!, raw.count / size, size, clearWord) }
            return
        }
        canvas.withUnsafeMutableBytes { raw in
            // Pixel `start` up to pixel `end`.
            func clear(from start: Int, to end: Int) {
                guard end > start else { return }
                Self.clear(raw.baseAddress! + start * size, end - start, size, clearWord)
            }
            var start = 0
            for y in rect.y..<rect.y + rect.height {
                clear(from: start, to: y * canvasWidth + rect.x)
                start = y * canvasWidth + rect.x + rect.width
            }
            clear(from: start, to: raw.count / size)
        }
        firstFrame = (transparent, transparent >= 0 ? table.replace(transparent, with: clearWord) : 0)
        transparent = -1
    }

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
    private mutating func drawRect(
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
    private mutating func drawSpans(
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
    private mutating func drawRows(
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
    private static func drawRow(
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
    private static func drawRGBRow(
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
    private static func clear(_ start: UnsafeMutableRawPointer, _ count: Int, _ size: Int, _ word: UInt32) {
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

    /// The canvas area `frame` can change from the previous frame's canvas:
    /// the whole canvas for frame 0; otherwise the bounding box of the
    /// frame's rectangle and the area the previous frame's disposal restores
    /// (disposal 2 or 3), both clipped to the canvas; an empty rectangle at
    /// the origin when neither holds a pixel.
    private func changedArea(for frame: FrameInfo) -> PixelRect {
        guard frame.index > 0 else { return PixelRect(x: 0, y: 0, width: width, height: height) }
        let area = frame.rect.clipped(toWidth: width, height: height).union(restoredArea())
        return area.isEmpty ? PixelRect(x: 0, y: 0, width: 0, height: 0) : area
    }

    /// The area the previous frame's disposal restores when the next frame
    /// begins (disposal 2 or 3), clipped to the canvas; empty otherwise.
    private func restoredArea() -> PixelRect {
        guard let (restored, disposal) = pending, disposal == .restoreBackground || disposal == .restorePrevious
        else { return PixelRect(x: 0, y: 0, width: 0, height: 0) }
        return restored
    }

    /// The box of the pixels the frame being drawn draws that are not
    /// transparent, once ``draw(_:indices:outcome:)`` found it whole
    /// (``DrawnBox/of(_:indices:outcome:)``); `nil` when the frame is not
    /// narrowed here (frame 0, a blank canvas, no transparent index).
    var drawnBox: DrawnBox? { narrowing.flatMap { $0.isWhole ? $0 : nil } }

    /// Takes `box` as the box of the pixels the frame begun draws, computed
    /// from its indices beforehand (``DrawnBox/of(_:indices:outcome:)``),
    /// so that drawing them scans nothing for it; `nil` changes nothing.
    mutating func takeDrawnBox(_ box: DrawnBox?) {
        guard let box, narrowing != nil else { return }
        narrowing = box
    }

    /// Records `frame`'s disposal, to apply before the next frame is drawn.
    /// `outcome` names the rows that were drawn: after the first frame on a
    /// blank canvas, the rest of its rectangle is cleared.
    mutating func end(_ frame: FrameInfo, outcome: FrameDecoder.Outcome) {
        let rect = frame.rect.clipped(toWidth: width, height: height)
        let drawn = narrowing
        if let drawn {
            narrowing = nil
            let box = drawn.rect.map {
                PixelRect(x: frame.rect.x + $0.x, y: frame.rect.y + $0.y, width: $0.width, height: $0.height)
                    .clipped(toWidth: width, height: height)
            }
            let area = box.map { restored.union($0) } ?? restored
            changedRect = area.isEmpty ? PixelRect(x: 0, y: 0, width: 0, height: 0) : area
        }
        if let rowChanges { noteChanges(frame, drawn: drawn, in: rowChanges) }
        runsNotedRows = false
        if let (index, word) = firstFrame {
            firstFrame = nil
            if index >= 0 { _ = table.replace(index, with: word) }
            clearUndrawnRows(frame, of: rect, outcome: outcome)
        }
        pending = (rect, frame.disposal.effective)
    }

    /// Notes what `frame` changed in `changes`: what the previous frame's
    /// disposal restored and, row by row, the pixels the frame drew when
    /// they are known (`drawn`'s rows, or the runs drawer's notes); the
    /// frame's changed rectangle otherwise.
    private func noteChanges(_ frame: FrameInfo, drawn: DrawnBox?, in changes: RowChanges) {
        guard let drawn, runsNotedRows || drawn.rows != nil else {
            changes.add(changedRect)
            return
        }
        changes.add(restored)
        guard let rows = drawn.rows else { return }
        let left = frame.rect.x, top = frame.rect.y
        for (r, span) in rows.enumerated() where top + r < height {
            let (first, last) = DrawnBox.columns(of: span)
            if first <= last { changes.add(row: top + r, first: left + first, last: min(left + last, width - 1)) }
        }
    }

    /// Clears the rows, or the part of a row, of `rect` (`frame`'s rectangle
    /// clipped to the canvas) that `outcome` says were not drawn.
    private mutating func clearUndrawnRows(_ frame: FrameInfo, of rect: PixelRect, outcome: FrameDecoder.Outcome) {
        // Nothing drawn is 0 rows and 0 pixels.
        let height = frame.rect.height, first = outcome.rows
        guard first < height else { return }
        mirrorMissed = true
        let canvasWidth = width, size = bytesPerPixel, clearWord = clearWord
        canvas.withUnsafeMutableBytes { raw in
            for r in first..<height {
                let y = frame.rect.y + FrameDecoder.displayRow(r, height: height, interlaced: frame.isInterlaced)
                guard y < rect.y + rect.height else { continue }
                let drawn = r == first ? min(outcome.partialPixels, rect.width) : 0
                let start = (y * canvasWidth + rect.x + drawn) * size, count = rect.width - drawn
                assert(start + count * size <= raw.count)
                Self.clear(raw.baseAddress! + start, count, size, clearWord)
            }
        }
    }

    private mutating func applyPendingDisposal() {
        guard let (rect, disposal) = pending else { return }
        pending = nil
        guard !rect.isEmpty else { return }
        let width = width, size = bytesPerPixel, rowBytes = rect.width * size, clearWord = clearWord
        switch disposal {
        case .restoreBackground:
            canvas.withUnsafeMutableBytes { raw in
                for y in rect.y..<rect.y + rect.height {
                    let start = (y * width + rect.x) * size
                    assert(start + rowBytes <= raw.count)
                    Self.clear(raw.baseAddress! + start, rect.width, size, clearWord)
                }
            }
            if let mirror {
                for y in rect.y..<rect.y + rect.height { Self.clear(mirror.pixel(x: rect.x, y: y), rect.width, 4, clearWord) }
            }
        case .restorePrevious:
            saved.withUnsafeBytes { saved in
                canvas.withUnsafeMutableBytes { raw in
                    assert(((rect.y + rect.height - 1) * width + rect.x) * size + rowBytes <= raw.count
                        && rect.height * rowBytes <= saved.count)
                    copyRows(
                        rect.height, of: rowBytes, from: saved.baseAddress!, stride: rowBytes,
                        to: raw.baseAddress! + (rect.y * width + rect.x) * size, stride: width * size)
                }
                if let mirror {
                    copyRows(
                        rect.height, of: rowBytes, from: saved.baseAddress!, stride: rowBytes,
                        to: mirror.pixel(x: rect.x, y: rect.y), stride: mirror.bytesPerRow)
                }
            }
        default:
            break
        }
    }

    /// Copies the canvas under `rect` into `saved`, reusing its storage.
    private mutating func save(_ rect: PixelRect) {
        guard !rect.isEmpty else { return }
        let size = bytesPerPixel, rowBytes = rect.width * size, width = width
        if saved.count < rect.height * rowBytes {
            saved = [UInt8](repeating: 0, count: rect.height * rowBytes)
        }
        canvas.withUnsafeBytes { raw in
            saved.withUnsafeMutableBytes { saved in
                assert(((rect.y + rect.height - 1) * width + rect.x) * size + rowBytes <= raw.count)
                copyRows(
                    rect.height, of: rowBytes, from: raw.baseAddress! + (rect.y * width + rect.x) * size,
                    stride: width * size, to: saved.baseAddress!, stride: rowBytes)
            }
        }
    }

    /// Takes on `other`'s state, copying its canvas into this compositor's
    /// own canvas storage when it can, so that resuming from a checkpoint
    /// allocates nothing and leaves the checkpoint unshared. With a
    /// `region` (the canvas differs from `other`'s only inside it, as after
    /// frames drawn since `other` was taken) only that is copied: a loop
    /// starting again over a large canvas where little moved copies little.
    ///
    /// A mirror set (see ``setMirror(_:)``) gets the same rows: with a
    /// `region`, the mirror must hold this canvas before (a host's buffer
    /// showing the frame this compositor drew last), as the rest of it is
    /// left as it is.
    mutating func restore(from other: Compositor, changedIn region: PixelRect? = nil) {
        if canvas.count == other.canvas.count {
            let width = width, size = bytesPerPixel, mirror = mirror
            canvas.withUnsafeMutableBytes { target in
                other.canvas.withUnsafeBytes { source in
                    let whole = PixelRect(x: 0, y: 0, width: width, height: height)
                    let region = region?.clipped(toWidth: width, height: height) ?? whole
                    guard !region.isEmpty else { return }
                    rowChanges?.add(region)
                    let start = (region.y * width + region.x) * size
                    let from = source.baseAddress! + start, stride = width * size
                    if region == whole {
                        target.copyMemory(from: source)
                    } else {
                        copyRows(region.height, of: region.width * size, from: from, stride: stride,
                                 to: target.baseAddress! + start, stride: stride)
                    }
                    if let mirror {
                        copyRows(region.height, of: region.width * size, from: from, stride: stride,
                                 to: mirror.pixel(x: region.x, y: region.y), stride: mirror.bytesPerRow)
                    }
                }
            }
        } else {
            canvas = other.canvas
            mirrorMissed = true
            rowChanges?.add(PixelRect(x: 0, y: 0, width: width, height: height))
        }
        pending = other.pending
        changedRect = other.changedRect
        // `saved` is storage reused from frame to frame: a checkpoint keeps
        // the area under a frame only while its disposal still needs it.
        if other.saved.isEmpty {
            // Not needed: the storage stays for the next save.
        } else if saved.count >= other.saved.count {
            saved.withUnsafeMutableBufferPointer { _ = $0.update(fromContentsOf: other.saved) }
        } else {
            saved = other.saved
        }
        table.assign(from: other.table)
        tableSource = other.tableSource
        transparent = other.transparent
        frameRect = other.frameRect
        assert(other.firstFrame == nil, "a checkpoint is taken between frames")
        isBlank = other.isBlank
    }

    /// Goes back to the state before frame 0 (a transparent-black canvas,
    /// cleared as the first frame is drawn), keeping the canvas storage.
    mutating func rewind() {
        mirrorMissed = true
        narrowing = nil
        isBlank = true
        pending = nil
        changedRect = PixelRect(x: 0, y: 0, width: 0, height: 0)
        tableSource = -1
        transparent = -1
        frameRect = PixelRect(x: 0, y: 0, width: 0, height: 0)
    }

    /// A copy for a checkpoint: the kept canvas under a frame is dropped
    /// unless the pending disposal still needs it.
    func checkpoint() -> Compositor {
        var copy = self
        if pending?.disposal != .restorePrevious { copy.saved = [] }
        copy.setMirror(nil)
        copy.rowChanges = nil
        return copy
    }

    /// The bytes a copy of this compositor holds, for checkpoint budgets.
    var byteCount: Int { canvas.count + saved.count }
}
