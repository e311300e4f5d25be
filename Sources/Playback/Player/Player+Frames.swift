extension Player {
    /// The pixels of the frame shown now, through the ``cache``: a hit when
    /// the background task decoded it in time, a miss (underrun) otherwise.
    ///
    /// Also asks the cache to decode the next `FrameCache.lookahead` frames
    /// in play order, so a host that draws each frame as it comes finds the
    /// next one ready. A player that is not drawn decodes nothing ahead.
    /// - Throws: The source's decoding error.
    public func currentImage() async throws -> RenderedFrame {
        let (frame, upcoming) = playerCore.frameAndUpcoming()
        if !upcoming.isEmpty { await cache.prefetch(upcoming) }
        return try await cache.frame(at: frame)
    }
}
