import Dispatch

/// Runs frames' LZW decoding ahead of the compositor, on other threads.
///
/// The scan knows where every frame's data starts, so frame n + 1, n + 2…
/// can be decoded into palette indices while frame n is composited: worker
/// threads claim frames in order, each with its own giflib handle
/// (``FrameDecoder``), into a ring of `window` index buffers; the consumer
/// takes them in order, and rather than wait for a frame a worker is still
/// on, it claims and decodes the next unclaimed ones itself, so that every
/// core decodes and the work balances by itself.
///
/// Frames are claimed in batches of about ``batchArea`` pixels (one frame
/// when frames are large), so that small frames (a few microseconds each)
/// do not cost a lock hand-over and a wake-up apiece.
/// Memory is `window` buffers of the largest frame's area, allocated once:
/// four batches' worth and at least 8 per thread, within ``indexBudget`` (at
/// least 2).
final class DecodeAhead: @unchecked Sendable {
    /// The most bytes the index buffers may take, unless two frames need more.
    static let indexBudget = 8 << 20
    /// The pixels a claim covers at least, when the window allows: decoding
    /// them takes longer than handing them over (~10 µs of LZW).
    static let batchArea = 32_768

    // Everything below marked "guarded" is read and written under `lock`.
    // A slot's buffer is written only by the thread that claimed its frame,
    // and read by the consumer only after `ready` says so.
    private let image: GIFImage
    private let lock = ConditionLock()
    private let window: Int
    private let slotSize: Int
    private let buffers: UnsafeMutableBufferPointer<UInt8>
    private let consumerDecoder = FrameDecoder()
    /// Guarded: the next frame nobody has claimed.
    private var nextToClaim = 0
    /// Guarded: frames before this one have been taken and their slots freed.
    private var released = 0
    /// Guarded: per slot, the outcome once its frame is decoded.
    private var outcomes: [FrameDecoding.Outcome?]
    /// Guarded: set when the iterator goes away.
    private var cancelled = false

    /// Starts `workers` threads decoding `image`'s frames ahead.
    init(image: GIFImage, workers: Int) {
        self.image = image
        slotSize = max(1, image.info.frames.map(\.rect.area).max() ?? 1)
        // A deep window means fewer waits and wake-ups (gifplayer-muybridge:
        // 0.65x the one-thread time with 4 slots, 0.55x with 16), within
        // ``indexBudget`` bytes of index buffers.
        let fitting = max(2, Self.indexBudget / slotSize)
        let count = max(1, image.info.frameCount)
        let meanArea = max(1, image.info.frames.reduce(0) { $0 + $1.rect.area } / count)
        let perBatch = max(1, Self.batchArea / meanArea)
        window = min(max(8 * (workers + 1), 4 * perBatch), fitting, count)
        buffers = .allocate(capacity: window * slotSize)
        outcomes = Array(repeating: nil, count: window)
        for _ in 0..<workers {
            DispatchQueue.global().async { [self] in work() }
        }
    }

    deinit {
        buffers.deallocate()
    }

    /// Stops the workers after the frame each is decoding.
    func cancel() {
        lock.lock()
        cancelled = true
        lock.broadcast()
        lock.unlock()
    }

    /// Frame `index`'s indices and outcome, decoded ahead or, when no worker
    /// has started it, here; `nil` when `index` is not the next frame in
    /// order (the caller then decodes it itself). While a worker is still on
    /// the frame, the caller decodes frames further ahead instead of idling.
    /// Call ``release(_:)`` after.
    func acquire(_ index: Int) -> (indices: UnsafeBufferPointer<UInt8>, outcome: FrameDecoding.Outcome)? {
        let frames = image.info.frames
        lock.lock()
        guard index == released, index < frames.count else {
            lock.unlock()
            return nil
        }
        let slot = index % window
        while outcomes[slot] == nil {
            // Claim the frame itself if nobody has, else the next unclaimed
            // frame within the window; wait only when there is none.
            guard nextToClaim == index || (nextToClaim < frames.count && nextToClaim < released + window) else {
                lock.wait()
                continue
            }
            let claimed = claimBatch()
            lock.unlock()
            decode(claimed, with: consumerDecoder)
            lock.broadcast()
        }
        let outcome = outcomes[slot]!
        lock.unlock()
        return (UnsafeBufferPointer(buffer(slot)), outcome)
    }

    /// Frees frame `index`'s slot for a frame further ahead.
    func release(_ index: Int) {
        lock.lock()
        outcomes[index % window] = nil
        released = index + 1
        lock.broadcast()
        lock.unlock()
    }

    private func buffer(_ slot: Int) -> UnsafeMutableBufferPointer<UInt8> {
        UnsafeMutableBufferPointer(rebasing: buffers[slot * slotSize..<(slot + 1) * slotSize])
    }

    private func work() {
        let decoder = FrameDecoder()
        let frames = image.info.frames
        image.bytes.withUnsafeBufferPointer { bytes in
            while true {
                lock.lock()
                while !cancelled, nextToClaim < frames.count, nextToClaim >= released + window { lock.wait() }
                guard !cancelled, nextToClaim < frames.count else {
                    lock.unlock()
                    return
                }
                let claimed = claimBatch()
                lock.unlock()
                decode(claimed, with: decoder, bytes: bytes)
                lock.broadcast()
                lock.unlock()
            }
        }
    }

    /// Claims the unclaimed frames from `nextToClaim` on, up to about
    /// ``batchArea`` pixels and within the window. Call with `lock` held and
    /// at least one frame claimable.
    private func claimBatch() -> Range<Int> {
        let frames = image.info.frames
        let start = nextToClaim
        let end = min(frames.count, released + window)
        var area = 0
        repeat {
            area += frames[nextToClaim].rect.area
            nextToClaim += 1
        } while nextToClaim < end && area < Self.batchArea
        return start..<nextToClaim
    }

    /// Decodes the `claimed` frames into their slots, then publishes their
    /// outcomes, leaving `lock` held: one hand-over per batch.
    private func decode(_ claimed: Range<Int>, with decoder: FrameDecoder) {
        image.bytes.withUnsafeBufferPointer { decode(claimed, with: decoder, bytes: $0) }
    }

    private func decode(_ claimed: Range<Int>, with decoder: FrameDecoder, bytes: UnsafeBufferPointer<UInt8>) {
        let frames = image.info.frames
        decoder.outcomes.removeAll(keepingCapacity: true)
        for index in claimed {
            decoder.outcomes.append(decoder.decode(frames[index], bytes: bytes, into: buffer(index % window)))
        }
        lock.lock()
        for (index, outcome) in zip(claimed, decoder.outcomes) { outcomes[index % window] = outcome }
    }
}

/// Owned by a parallel ``FrameIterator`` (and its copies): stops the workers
/// when the last copy goes away.
final class DecodeAheadOwner {
    let pipeline: DecodeAhead

    init(image: GIFImage) {
        pipeline = DecodeAhead(image: image, workers: max(1, ConditionLock.processorCount - 1))
    }

    deinit {
        pipeline.cancel()
    }
}
