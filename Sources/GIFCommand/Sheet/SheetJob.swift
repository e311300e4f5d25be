import GIF
import Playback

/// The work of `gif sheet`: composites the frames in order and draws each
/// one the ``SheetLayout`` takes into its cell as it arrives (scaled by a
/// ``BoxFilter`` straight from the canvas into the sheet), then writes the
/// sheet as one PNG. Memory is the sheet, one canvas and the decoder's:
/// no frame is kept once drawn.
struct SheetJob {
    /// The sheet's colour behind and between cells and under labels.
    static let background: (UInt8, UInt8, UInt8) = (0x20, 0x20, 0x20)
    /// The labels' colour.
    static let ink: (UInt8, UInt8, UInt8) = (0xFF, 0xFF, 0xFF)

    let layout: SheetLayout
    let canvas: PixelSize

    /// The sheet with every cell drawn from `image`'s frames, and the error
    /// that stopped the frames part-way, if any (the cells drawn before it,
    /// and the failing frame's decoded rows, are kept).
    func draw(_ image: GIFImage) -> (pixels: [UInt8], drawn: Int, error: GIFError?) {
        let bytesPerRow = layout.width * 4
        var sheet = [UInt8](repeating: 255, count: layout.height * bytesPerRow)
        sheet.withUnsafeMutableBytes { bytes in
            for i in stride(from: 0, to: bytes.count, by: 4) {
                (bytes[i], bytes[i + 1], bytes[i + 2]) = Self.background
            }
        }
        let filter = BoxFilter(
            sourceWidth: canvas.width, sourceHeight: canvas.height, width: layout.imageWidth,
            height: layout.imageHeight)
        var frames = image.makeFrameIterator(parallel: layout.cellCount > 1)
        var progress = ProgressBar(total: layout.cellCount, label: "frames")
        var drawn = 0
        var failure: GIFError?
        while drawn < layout.cellCount {
            let frame: CompositedFrame
            do {
                guard let next = try frames.next() else { break }
                frame = next
            } catch {
                failure = error
                break
            }
            guard let cell = layout.cell(of: frame.index) else { continue }
            let origin = layout.origin(of: cell)
            let region = PixelRect(x: 0, y: 0, width: layout.imageWidth, height: layout.imageHeight)
            frame.pixels.withUnsafeBufferPointer { source in
                sheet.withUnsafeMutableBytes { target in
                    let start = origin.y * bytesPerRow + origin.x * 4
                    let cellBytes = UnsafeMutableRawBufferPointer(rebasing: target[start...])
                    do {
                        try filter.apply(source, region: region, into: cellBytes, bytesPerRow: bytesPerRow)
                    } catch {
                        preconditionFailure("the layout keeps every cell inside the sheet: \(error)")
                    }
                }
            }
            let scale = layout.labelScale
            SheetFont.draw(
                Self.label(frame), x: origin.x + scale, y: origin.y + layout.imageHeight + scale,
                right: origin.x + layout.imageWidth, scale: scale, color: Self.ink, into: &sheet,
                bytesPerRow: bytesPerRow)
            drawn += 1
            progress.update(drawn)
            if !frame.isComplete {
                // The iterator reports the frame's error on the next call.
                do { _ = try frames.next() } catch { failure = error }
                break
            }
        }
        progress.finish()
        return (sheet, drawn, failure)
    }

    /// "#12 100ms": the frame's index and its delay as stored.
    static func label(_ frame: CompositedFrame) -> String {
        let milliseconds = Int((frame.delay / .milliseconds(1)).rounded())
        return "#\(frame.index) \(milliseconds)ms"
    }
}
