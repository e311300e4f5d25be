/// A frame source whose frames arrive over time, such as a GIF still
/// downloading: its ``FrameSource/frameCount`` and
/// `frameDelays` are those of the frames available so far, and
/// it says when more arrive and when it is complete.
///
/// A ``Player`` (or a ``Playlist``) playing one listens to
/// ``timingUpdates()``: it plays the frames it has and, when the next one has
/// not arrived, keeps showing the last one and reports
/// ``PlayerEvent/waitingForFrame(frame:)`` until it comes (see
/// ``WaitPolicy``). Drivers are woken when frames arrive, so nothing polls.
///
/// Conformers keep ``FrameSource/frame(at:)`` answering for every frame
/// available, and hand out timings that only grow (see
/// ``FrameSourceTiming``).
public protocol ProgressiveFrameSource: FrameSource {
    /// A stream of the source's timing: first the timing now, then a new one
    /// each time frames arrive, and a last one when the source completes,
    /// after which the stream ends. Each call makes an independent stream;
    /// the consumer may skip timings, since each one holds everything so far.
    func timingUpdates() -> AsyncStream<FrameSourceTiming>
}
