/// A seeker is what a presenter composites a player's frames on: it
/// composites from stored palette indices (and decodes what is not
/// stored), mirroring or noting each change as the presenter asks.
extension FrameSeeker: FrameCompositing {
    /// Frames whose indices are held from whole decodes composite whole.
    package mutating func compositesWhole(_ frames: ClosedRange<Int>) -> Bool { indexCache.holdsWhole(frames) }
}
