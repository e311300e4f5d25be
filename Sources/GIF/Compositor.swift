/// Builds each composited canvas from the one before, with browser rules:
/// a transparent-black start, palette choice, transparency, clipping and
/// disposal (see `CONFORMANCE.md`).
///
/// Memory is the canvas plus, for a frame with disposal 3 ("restore
/// previous"), a copy of just the part of the canvas under that frame.
struct Compositor {
    let width: Int
    let height: Int
    /// The canvas, RGBA8, row-major.
    private(set) var canvas: [UInt8]
    /// The previous frame's disposal, applied when the next frame begins.
    private var pending: (rect: FrameRect, disposal: Disposal)?
    /// The canvas under the current frame, kept for disposal 3.
    private var saved: [UInt8] = []
    private var table = ColorTable(nil)
    private var transparent = -1
    private var frameRect = FrameRect(x: 0, y: 0, width: 0, height: 0)

    init(canvasSize: PixelSize) {
        width = canvasSize.width
        height = canvasSize.height
        canvas = [UInt8](repeating: 0, count: width * height * 4)
    }

    /// Applies the previous frame's disposal and gets ready to draw `frame`.
    mutating func begin(_ frame: FrameInfo, globalPalette: Palette?) {
        applyPendingDisposal()
        table = ColorTable(frame.localPalette ?? globalPalette)
        transparent = frame.transparentIndex.map(Int.init) ?? -1
        frameRect = frame.rect
        let clip = frame.rect.clipped(toWidth: width, height: height)
        if frame.disposal.effective == .restorePrevious {
            saved = copy(clip)
        }
    }

    /// Draws the first `count` palette indices of the frame's row `y`
    /// (counted from the frame's top), clipped to the canvas.
    mutating func draw(row y: Int, indices: UnsafeBufferPointer<UInt8>, count: Int) {
        let canvasY = frameRect.y + y
        guard canvasY < height, frameRect.x < width else { return }
        let n = min(count, width - frameRect.x, indices.count)
        guard n > 0 else { return }
        let start = (canvasY * width + frameRect.x) * 4
        let transparent = transparent
        table.words.withUnsafeBufferPointer { words in
            canvas.withUnsafeMutableBytes { raw in
                assert(start + n * 4 <= raw.count)
                let out = raw.baseAddress! + start
                for i in 0..<n {
                    let index = Int(indices[i])
                    if index != transparent {
                        out.storeBytes(of: words[index], toByteOffset: i * 4, as: UInt32.self)
                    }
                }
            }
        }
    }

    /// Records `frame`'s disposal, to apply before the next frame is drawn.
    mutating func end(_ frame: FrameInfo) {
        pending = (frame.rect.clipped(toWidth: width, height: height), frame.disposal.effective)
    }

    private mutating func applyPendingDisposal() {
        guard let (rect, disposal) = pending else { return }
        pending = nil
        switch disposal {
        case .restoreBackground:
            for y in rect.y..<rect.y + rect.height {
                let start = (y * width + rect.x) * 4
                canvas.replaceSubrange(start..<start + rect.width * 4, with: repeatElement(0, count: rect.width * 4))
            }
        case .restorePrevious:
            for row in 0..<rect.height {
                let start = ((rect.y + row) * width + rect.x) * 4
                let from = row * rect.width * 4
                canvas.replaceSubrange(start..<start + rect.width * 4, with: saved[from..<from + rect.width * 4])
            }
            saved = []
        default:
            break
        }
    }

    private func copy(_ rect: FrameRect) -> [UInt8] {
        var pixels: [UInt8] = []
        pixels.reserveCapacity(rect.area * 4)
        for y in rect.y..<rect.y + rect.height {
            let start = (y * width + rect.x) * 4
            pixels.append(contentsOf: canvas[start..<start + rect.width * 4])
        }
        return pixels
    }
}
