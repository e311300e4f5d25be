import GIF
import Playback

/// The format side of a request: what ``FrameDecodeScheduler`` asks of the
/// source to decode a frame or a frame's indices on its thread.
extension GIFFrameSource {
    func makeSeeker() -> FrameSeeker {
        FrameSeeker(image: image, memoryBudget: checkpointBudget, sharing: indices, pixelFormat: pixelFormat)
    }

    func decodeFrame(
        _ index: Int, into pixels: inout [UInt8], with loan: inout FrameDecodeScheduler.SeekerLoan
    ) -> Result<RenderedFrame, any Error> {
        if let (version, grown) = latest?(), version != loan.version {
            loan.seeker.adopt(grown: grown)
            loan.version = version
        }
        do {
            let changed: PixelRect
            if let filter {
                // Scaled straight from the seeker's canvas (the frame shares
                // it and is dropped before the next decode draws on it), so
                // no full-size copy is made or kept.
                let full = try loan.seeker.frame(at: index)
                filter.apply(full.pixels, into: &pixels, premultiplied: pixelFormat.isPremultiplied)
                changed = filter.outputRect(covering: full.changedRect)
            } else {
                let canvasBytes = image.info.canvasSize.area * 4
                if pixels.count != canvasBytes { pixels = [UInt8](repeating: 0, count: canvasBytes) }
                let copy = try pixels.withUnsafeMutableBytes { buffer throws(GIFError) in
                    try loan.seeker.copyFrame(at: index, into: buffer, bytesPerRow: canvasWidth * 4)
                }
                changed = copy.changedRect
            }
            return .success(
                RenderedFrame(
                    index: index, width: canvasWidth, height: canvasHeight, pixels: pixels,
                    pixelFormat: pixelFormat, changedRect: changed))
        } catch {
            return .failure(error)
        }
    }

    func decodeIndices(of index: Int, with decoder: FrameIndexDecoder) -> Bool {
        decoder.fill(indices, frame: index, of: image)
    }

    /// Not while the drawers have no room for their working state: a
    /// still asks for no decodes, and one queued before is dropped.
    var decodesIndices: Bool { holdsWorkingRoom }

    func indicesStored() {
        drawers.notifyDecoded()
    }
}
