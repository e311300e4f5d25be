extension Player {
    /// The pixels of the frame shown now, through the ``cache``: a hit when
    /// the background task decoded it in time, a miss (underrun) otherwise.
    /// Also asks the cache to decode the frames that come next.
    /// - Throws: The source's decoding error.
    public func currentImage() async throws -> RenderedFrame {
        let frame = playhead.currentFrame
        prefetchUpcoming()
        return try await cache.frame(at: frame)
    }

    /// Asks the cache to decode the next ``FrameCache/lookahead`` frames in
    /// play order, without waiting.
    func prefetchUpcoming() {
        let upcoming = playhead.upcomingFrames(cache.lookahead)
        if !upcoming.isEmpty { cache.requestPrefetch(upcoming) }
    }
}
