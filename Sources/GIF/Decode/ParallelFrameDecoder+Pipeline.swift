import EngineSupport

extension ParallelFrameDecoder {
    /// What the worker threads and the consumer share: the claim state, the
    /// ring of index buffers, the frames' outcomes.
    final class Pipeline: @unchecked Sendable {
        /// The most bytes the index buffers may take, unless two frames need more.
        static let indexBudget = 8 << 20

        /// The most bytes the ring takes unless the largest frames need more
        /// (one per worker and two for the consumer, see `init`): 16 batches
        /// of ``ParallelFrameDecoder/batchArea``, which keep a worker well
        /// ahead. A larger ring costs more than it saves:
        /// each 4 KiB of it is a page fault when first written, and the
        /// indices are read back by the compositor from further out in the
        /// cache.
        static let ringTarget = 16 * ParallelFrameDecoder.batchArea

        /// What the threads share, read and written only under the lock.
        struct State {
            /// The next frame nobody has claimed.
            var nextToClaim = 0
            /// Frames before this one have been taken and their slots freed.
            var released = 0
            /// Per slot, the outcome once its frame is decoded.
            var outcomes: [FrameDecoder.Outcome?]
            /// Set when the ``ParallelFrameDecoder`` goes away.
            var cancelled = false
        }

        /// What the consumer does next for the frame it wants (a worker:
        /// `claimed`, or `unavailable` when it is done).
        private enum Step {
            case unavailable
            case ready(FrameDecoder.Outcome)
            case claimed(Range<Int>)
        }

        // A frame's indices are written only by the thread that claimed it,
        // and read by the consumer only after the state's `outcomes` says so.
        private let image: GIFImage
        private let frames: [FrameInfo]
        private let lock: ConditionLock<State>
        /// The most frames decoded ahead at once (the slots of `outcomes`).
        private let window: Int
        /// The index buffers: one ring of bytes, each frame's indices packed
        /// after the previous frame's (at the ring's start when they would
        /// run past its end), so that a file of small frames touches only
        /// the memory its frames fill.
        private let ring: UnsafeMutableBufferPointer<UInt8>
        /// Frame `i`'s position in the ring as if it never wrapped: its
        /// indices are at `starts[i] % ring.count`.
        private let starts: [Int]
        /// The first frame whose ring bytes frame `i` cannot share: frame `i`
        /// may be claimed once every frame before that one is released.
        private let firstLive: [Int]
        /// Used by the consumer only (one iterator, one thread at a time).
        private let consumerDecoder = FrameDecoder()

        /// A pipeline for `image`'s frames sized for `workers` threads; the
        /// owner starts them on ``work()``.
        init(image: GIFImage, workers: Int) {
            self.image = image
            frames = image.info.frames
            let largest = max(1, frames.map(\.rect.area).max() ?? 1)
            // A deep window means fewer waits and wake-ups (gifplayer-muybridge:
            // 0.65x the one-thread time with 4 slots, 0.55x with 16), within
            // ``indexBudget`` bytes of index buffers.
            let fitting = max(2, Self.indexBudget / largest)
            let count = max(1, frames.count)
            let meanArea = max(1, frames.reduce(0) { $0 + $1.rect.area } / count)
            let perBatch = max(1, ParallelFrameDecoder.batchArea / meanArea)
            window = min(max(8 * (workers + 1), 4 * perBatch), fitting, count)
            // Room for the window's frames at twice their mean size, within
            // ``ringTarget``, and for `workers + 2` of the largest: the frame
            // the consumer composites, one each worker decodes, and one the
            // consumer decodes itself rather than wait. With room for two,
            // the consumer waits for the worker's frame whenever it has
            // composited first (sample_big's 175,000-pixel frames, a core
            // free: 0.54 × the C program's wall time with two, 0.49 with
            // three). No more than `window` largest frames.
            let size = min(window * largest, max((workers + 2) * largest, min(2 * window * meanArea, Self.ringTarget)))
            ring = .allocate(capacity: size)
            var starts: [Int] = [], firstLive: [Int] = []
            starts.reserveCapacity(frames.count)
            firstLive.reserveCapacity(frames.count)
            var end = 0, live = 0
            for frame in frames {
                let area = frame.rect.area
                let start = end % size + area > size ? (end / size + 1) * size : end
                end = start + area
                // Frames that start before `end - size` share ring bytes with this one.
                while starts.count > live, starts[live] < end - size { live += 1 }
                starts.append(start)
                firstLive.append(live)
            }
            self.starts = starts
            self.firstLive = firstLive
            lock = ConditionLock(State(outcomes: Array(repeating: nil, count: window)))
        }

        deinit {
            ring.deallocate()
        }

        /// Stops the workers after the batch each is decoding.
        func cancel() {
            lock.withLock(wakingWaiters: true) { $0.cancelled = true }
        }

        /// Runs `body` on frame `index`'s indices and outcome, decoded ahead or,
        /// when no worker has started it, here, then frees its slot for a frame
        /// further ahead; `nil` when `index` is not the next frame in order (the
        /// caller then decodes it itself). While a worker is still on the frame,
        /// the caller decodes frames further ahead instead of idling.
        func withFrame<Result>(
            _ index: Int, _ body: (UnsafeBufferPointer<UInt8>, FrameDecoder.Outcome) -> Result
        ) -> Result? {
            let slot = index % window
            while true {
                // Ready, or claim the frame itself if nobody has, else the next
                // unclaimed frame within the window; wait only when there is none.
                let step = lock.withLock(when: { state in
                    index != state.released || index >= self.frames.count || state.outcomes[slot] != nil
                        || self.canClaim(state)
                }) { state -> Step in
                    guard index == state.released, index < frames.count else { return .unavailable }
                    if let outcome = state.outcomes[slot] { return .ready(outcome) }
                    return .claimed(claimBatch(&state))
                }
                switch step {
                case .unavailable:
                    return nil
                case .claimed(let claimed):
                    decode(claimed, with: consumerDecoder)
                case .ready(let outcome):
                    let result = body(UnsafeBufferPointer(buffer(index)), outcome)
                    lock.withLock(wakingWaiters: true) { state in
                        state.outcomes[slot] = nil
                        state.released = index + 1
                    }
                    return result
                }
            }
        }

        /// A worker thread's loop: claim a batch, decode it, publish it, until
        /// the frames run out or ``cancel()`` is called.
        func work() {
            let decoder = FrameDecoder()
            while true {
                // A `Step` rather than a `Range<Int>?`: the lock's generic
                // call would have the runtime build `Range<Int>?`'s metadata
                // by name on the worker, which checks Int: Comparable by
                // scanning every protocol conformance in the executable
                // (about 160,000 instructions).
                let step = lock.withLock(when: { state in
                    state.cancelled || state.nextToClaim >= self.frames.count || self.canClaim(state)
                }) { state -> Step in
                    guard !state.cancelled, state.nextToClaim < frames.count else { return .unavailable }
                    return .claimed(claimBatch(&state))
                }
                guard case .claimed(let claimed) = step else { return }
                decode(claimed, with: decoder)
            }
        }

        /// Frame `index`'s indices in the ring: its area.
        private func buffer(_ index: Int) -> UnsafeMutableBufferPointer<UInt8> {
            let start = starts[index] % ring.count
            return UnsafeMutableBufferPointer(rebasing: ring[start..<start + frames[index].rect.area])
        }

        /// Whether a frame is left to claim within the window, whose ring
        /// bytes no frame still in use holds.
        private func canClaim(_ state: State) -> Bool {
            state.nextToClaim < frames.count && state.nextToClaim < state.released + window
                && firstLive[state.nextToClaim] <= state.released
        }

        /// Claims the unclaimed frames from `nextToClaim` on, up to about
        /// ``ParallelFrameDecoder/batchArea`` pixels and within the window. Call with at least one
        /// frame claimable.
        private func claimBatch(_ state: inout State) -> Range<Int> {
            let start = state.nextToClaim
            let end = min(frames.count, state.released + window)
            var area = 0
            repeat {
                area += frames[state.nextToClaim].rect.area
                state.nextToClaim += 1
            } while state.nextToClaim < end && area < ParallelFrameDecoder.batchArea
                && firstLive[state.nextToClaim] <= state.released
            return start..<state.nextToClaim
        }

        /// Decodes the `claimed` frames into their slots, then publishes their
        /// outcomes: one hand-over per batch.
        private func decode(_ claimed: Range<Int>, with decoder: FrameDecoder) {
            decoder.outcomes.removeAll(keepingCapacity: true)
            for index in claimed {
                let into = buffer(index)
                decoder.outcomes.append(decoder.withData(of: frames[index], in: image) { frame, bytes in
                    decoder.decode(frame, bytes: bytes, into: into)
                })
            }
            lock.withLock(wakingWaiters: true) { state in
                for (index, outcome) in zip(claimed, decoder.outcomes) { state.outcomes[index % window] = outcome }
            }
        }
    }
}
