import EngineSupport

/// Decodes a GIF's frames into palette indices ahead of the compositor, on
/// threads of its own: what a parallel ``FrameIterator`` (and its copies)
/// owns.
///
/// The scan knows where every frame's data starts, so frame n + 1, n + 2…
/// can be decoded into palette indices while frame n is composited: worker
/// threads claim frames in order, each with its own giflib handle
/// (``FrameDecoder``), into a ring of index buffers; the consumer
/// takes them in order, and rather than wait for a frame a worker is still
/// on, it claims and decodes the next unclaimed ones itself, so that every
/// core decodes and the work balances by itself.
///
/// The workers are threads of its own (``WorkerThread``, one fewer than the
/// processors online, at least one), started here and stopped and joined
/// when the last copy of the iterator lets go of it; every lock is taken
/// and released inside one ``ConditionLock`` call.
///
/// Frames are claimed in batches of about ``batchArea`` pixels (one frame
/// when frames are large), so that small frames (a few microseconds each)
/// do not cost a lock hand-over and a wake-up apiece.
/// Memory is one ring of bytes allocated once, each frame's indices packed
/// after the last frame's: room for a window of frames (four batches' worth
/// and at least 8 per thread) at twice their mean area up to
/// ``Pipeline/ringTarget`` bytes, and for one of the largest frames per
/// thread and one more (the one being composited), but never more than the
/// window at the largest frame's area, within ``Pipeline/indexBudget`` (at
/// least 2 frames).
final class ParallelFrameDecoder {
    /// The pixels a claim covers at least, when the window allows: decoding
    /// them takes longer than handing them over to another thread.
    static let batchArea = 32_768

    private let pipeline: Pipeline
    private var threads: [WorkerThread] = []

    /// Starts decoding `image`'s frames from frame 0.
    init(image: GIFImage) {
        let workers = max(1, WorkerThread.processorCount - 1)
        pipeline = Pipeline(image: image, workers: workers)
        let pipeline = pipeline
        for _ in 0..<workers {
            // A thread the system refuses leaves more frames to the others
            // and to the consumer, which decodes whatever nobody has claimed.
            guard let thread = WorkerThread({ pipeline.work() }) else { break }
            threads.append(thread)
        }
    }

    /// Stops the workers after the batch each is decoding, and joins them.
    deinit {
        pipeline.cancel()
        for thread in threads { thread.join() }
    }

    /// Runs `body` on frame `index`'s indices (its rectangle, row-major in
    /// display order) and outcome; `nil` when `index` is not the next frame
    /// in order. See ``Pipeline/withFrame(_:_:)``.
    func withFrame<Result>(
        _ index: Int, _ body: (UnsafeBufferPointer<UInt8>, FrameDecoder.Outcome) -> Result
    ) -> Result? {
        pipeline.withFrame(index, body)
    }
}
