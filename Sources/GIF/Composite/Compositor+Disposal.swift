/// Disposal, and the canvas kept as a checkpoint: what the previous frame
/// leaves for the next, and copies to seek back to.
extension Compositor {
    mutating func applyPendingDisposal() {
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
    mutating func save(_ rect: PixelRect) {
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
}
