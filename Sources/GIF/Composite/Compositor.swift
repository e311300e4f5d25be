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
    var canvas: [UInt8]
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
    let clearWord: UInt32
    /// The part of the canvas the frame being drawn can change from the
    /// previous frame's canvas (see ``CompositedFrame/changedRect``), set by
    /// ``begin(_:globalPalette:)`` and narrowed by ``end(_:outcome:)`` to
    /// the pixels a frame with a transparent index drew.
    var changedRect = PixelRect(x: 0, y: 0, width: 0, height: 0)
    /// While a frame with a transparent index is drawn over the previous
    /// frame's canvas (or one drawn from runs whose changed pixels
    /// ``drawRuns(_:runs:)`` found): the box of the frame's pixels drawn so
    /// far that change the canvas (frame coordinates), joined with
    /// ``restored`` at the end. `nil` for other frames, whose change is
    /// their whole rectangle.
    var narrowing: DrawnBox?
    /// Whether ``narrowing``'s box is still to be found from the pixels the
    /// frame draws (no box was taken or found whole beforehand).
    var findsDrawnBox: Bool { narrowing.map { !$0.isWhole } ?? false }
    /// The area the previous frame's disposal restored for the frame being
    /// drawn (clipped to the canvas; empty when none), kept from
    /// ``begin(_:globalPalette:)``.
    var restored = PixelRect(x: 0, y: 0, width: 0, height: 0)
    /// Whether frames with a transparent index have ``changedRect``
    /// narrowed to the pixels they draw; otherwise it is their rectangle
    /// (and what the previous frame's disposal restored).
    var narrowsChanges = true
    /// The previous frame's disposal, applied when the next frame begins.
    var pending: (rect: PixelRect, disposal: Disposal)?
    /// The canvas under the current frame, kept for disposal 3.
    var saved: [UInt8] = []
    var table: ColorTable
    /// Which palette `table` holds: -1 none yet, -2 the global one, else the
    /// index of the frame whose local palette it is.
    var tableSource = -1
    var transparent = -1
    var frameRect = PixelRect(x: 0, y: 0, width: 0, height: 0)
    /// Whether the canvas storage holds no pixels yet, standing for a
    /// transparent-black canvas (new or rewound).
    var isBlank = true
    /// While the first frame on a blank canvas is drawn (its clipped
    /// rectangle holds no pixels until drawn): its transparent index (or -1)
    /// and the table entry that 0, transparent black, stands in for.
    var firstFrame: (transparent: Int, word: UInt32)?
    /// How rows of four bytes a pixel are drawn.
    let rowKernel: RowKernel
    /// Memory outside the canvas that each frame's changes are written to
    /// as well, while set (see ``setMirror(_:)``).
    var mirror: CanvasMirror?
    /// Whether the canvas changed in a way not written to ``mirror`` since
    /// it was set.
    var mirrorMissed = false
    /// Where each change the next frames and restores make to the canvas
    /// is noted by row, while set (`nil`: not noted): a host that scales
    /// the changed pixels then scales each row's, not their box.
    var rowChanges: CanvasRowChanges?
    /// Whether the frame being drawn from runs noted the pixels it changed
    /// in ``rowChanges`` as it wrote them.
    var runsNotedRows = false

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
    mutating func setMirror(_ mirror: CanvasMirror?) {
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
    mutating func beginOnBlankCanvas(_ frame: FrameInfo) {
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

    /// The canvas area `frame` can change from the previous frame's canvas:
    /// the whole canvas for frame 0; otherwise the bounding box of the
    /// frame's rectangle and the area the previous frame's disposal restores
    /// (disposal 2 or 3), both clipped to the canvas; an empty rectangle at
    /// the origin when neither holds a pixel.
    func changedArea(for frame: FrameInfo) -> PixelRect {
        guard frame.index > 0 else { return PixelRect(x: 0, y: 0, width: width, height: height) }
        let area = frame.rect.clipped(toWidth: width, height: height).union(restoredArea())
        return area.isEmpty ? PixelRect(x: 0, y: 0, width: 0, height: 0) : area
    }

    /// The area the previous frame's disposal restores when the next frame
    /// begins (disposal 2 or 3), clipped to the canvas; empty otherwise.
    func restoredArea() -> PixelRect {
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
    func noteChanges(_ frame: FrameInfo, drawn: DrawnBox?, in changes: CanvasRowChanges) {
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
    mutating func clearUndrawnRows(_ frame: FrameInfo, of rect: PixelRect, outcome: FrameDecoder.Outcome) {
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

    /// The bytes a copy of this compositor holds, for checkpoint budgets.
    var byteCount: Int { canvas.count + saved.count }
}
