import Playback

// GIFFrameSource's answers to the FrameSource and BudgetedFrameSource
// requirements that read several of its own members at once.
extension GIFFrameSource {
    /// The canvas size, after the first-frame growth rule (at a display
    /// size, the frame size the cell shows).
    public var canvasSize: PixelSize { PixelSize(width: canvasWidth, height: canvasHeight) }

    /// The stored delays and loop count; the file was read whole, so it is
    /// complete. The player applies its delay policy.
    public var timing: FrameSourceTiming {
        FrameSourceTiming(frameDelays: frameDelays, storedLoopCount: storedLoopCount)
    }

    /// The bytes of the seeker kept between decodes (its stored indices,
    /// its checkpoints, the frames' recorded changes and its working state),
    /// and of those the working state: the full-size canvas with the area
    /// saved for a frame that restores what was under it, and the decoder's
    /// buffers, the floor a shared budget trims a playing source's state to.
    /// Both 0 after `releaseDecodingState()` until the next decode.
    public var decodingState: DecodingStateBytes {
        DecodingStateBytes(total: decodingStateByteCount, working: workingStateByteCount)
    }
}
