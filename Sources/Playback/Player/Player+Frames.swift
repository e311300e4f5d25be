extension Player {
    /// The pixels of the frame shown now, as an immutable image.
    ///
    /// When the source draws (a GIF's frames composited from its stored
    /// indices, see ``FrameSource/makeDrawer(notifying:)``), the player
    /// draws the frame into a canvas of its own and hands that canvas out:
    /// once the host has let go of the previous image, the next frame is
    /// drawn into the same canvas (only the changed rectangle written);
    /// while the host still holds it, into a second canvas. A player holds
    /// at most these two canvases, and no ``cache`` frames. A frame not
    /// decoded yet is waited for (its decode runs on the source's threads).
    ///
    /// A source that cannot draw gives its frames through the ``cache``: a
    /// hit when the background task decoded the frame in time, a miss
    /// otherwise; the call also asks the cache to decode the next
    /// `FrameCache.lookahead` frames in play order.
    ///
    /// Runs on the caller's executor (no hop to the player's actor): the
    /// draw takes the player's locks, as ``draw(into:bytesPerRow:)`` does.
    /// - Throws: The source's decoding error, or
    ///   ``FrameSourceError/drawFailed(index:reason:)`` when the frame has
    ///   nothing to show.
    public func currentImage(
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> RenderedFrame {
        if let images = playerCore.drawnImages() {
            let core = playerCore
            return try await images.image(at: { core.read { $0.currentFrame } }, tally: core.tally)
        }
        let (frame, upcoming) = playerCore.frameAndUpcoming()
        if !upcoming.isEmpty { await cache.prefetch(upcoming) }
        return try await cache.frame(at: frame)
    }

    /// The bytes of the canvases ``currentImage(isolation:)`` draws into (two at
    /// most; 0 before the first call and for a source that cannot draw).
    package nonisolated var imageCanvasBytes: Int { playerCore.drawnImageCanvasBytes }
}
