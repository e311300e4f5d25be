import GIF
import Playback

/// A GIF's seeker is what a drawer's ``FramePresenter`` composites on: it
/// composites from the source's stored palette indices, mirroring or
/// noting each change as the presenter asks.
extension FrameSeeker: FrameCompositing {
    package var frameCount: Int { image.info.frameCount }

    package var canvasSize: PixelSize { image.info.canvasSize }

    /// The stored indices over a loop, as the frames held take them.
    package var projectedLoopInputBytes: Int {
        let held = indexCache.frameCount
        return held > 0 ? Int(Double(indexCache.byteCount) * Double(frameCount) / Double(held)) : .max
    }

    /// Frames whose indices are held from whole decodes composite whole.
    package func compositesWhole(_ frames: ClosedRange<Int>) -> Bool { indexCache.holdsWhole(frames) }
}
