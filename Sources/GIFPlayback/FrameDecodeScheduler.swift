@_spi(Engine) import EngineSupport
@_spi(Benchmarks) import GIF
import Playback

/// How a `FrameDecodeScheduler`'s requests become frames: the format side
/// (a ``GIFFrameSource``), given the tools the scheduler lends to the
/// request that runs.
protocol FrameRequestDecoder: AnyObject, Sendable {
    /// A seeker for a request when none is held (the first decode, or the
    /// first after a release).
    func makeSeeker() -> FrameSeeker

    /// Frame `index` decoded with the lent seeker, drawn into `pixels`
    /// when they can hold it.
    func decodeFrame(
        _ index: Int, into pixels: inout [UInt8], with loan: inout FrameDecodeScheduler.SeekerLoan
    ) -> Result<RenderedFrame, any Error>

    /// Frame `index`'s indices decoded into the stored ones, unless held;
    /// returns whether giflib decoded it.
    func decodeIndices(of index: Int, with decoder: FrameIndexDecoder) -> Bool

    /// Whether index requests run now: a source whose drawers have no
    /// room for their working state drops them, making no decoder.
    var decodesIndices: Bool { get }

    /// Called after ``decodeIndices(of:with:)`` stored a frame, with no
    /// lock held.
    func indicesStored()

    /// Called, with no lock held, on the executor's thread after
    /// ``FrameDecodeScheduler/settleDrawnState(decoder:)``: what a draw
    /// changed is told to whoever counts it there.
    func settleDrawnState()
}

/// One source's side of a ``FrameDecodeExecutor``: its requests, run one
/// at a time, the most urgent first (`FrameRequestPriority`: a frame a
/// player needs now, then look-ahead, then the rest) and otherwise in the
/// order asked, and the seeker and index decoder kept between them and lent
/// to the request that runs.
///
/// It also runs the settling a draw asks for
/// (``settleDrawnState(decoder:)``): on the executor's thread, ahead of
/// the requests, so that the draw itself waits for nothing.
///
/// A lock guards only the queue and the hand-over of the tools, never a
/// decode. The scheduler holds no reference to its source: the executor's
/// queue holds the source while the scheduler waits there, as the asking
/// tasks and drawers do while they wait.
final class FrameDecodeScheduler: Sendable {
    /// The threads the requests run on.
    let executor: FrameDecodeExecutor
    private let state: LockedState<State>

    /// A scheduler whose requests run on `executor`.
    init(executor: FrameDecodeExecutor) {
        self.executor = executor
        self.state = LockedState(State())
    }

    /// What the lent tools hold and have done, read together.
    struct Holdings: Sendable {
        /// The seeker's checkpoints, after the latest decode.
        var checkpointCount = 0
        var checkpointBytes = 0
        /// The seeker's working state (`FrameSeeker.workingStateBytes`),
        /// kept between decodes (0 before the first decode and after a
        /// release).
        var seekerWorkingBytes = 0
        /// The decode-ahead's buffers.
        var indexDecoderBytes = 0
        /// The giflib decodes of the current seeker, of those released, and
        /// of the decode-ahead.
        var seekerDecodes = 0
        var retiredDecodes = 0
        var indexDecodes = 0

        /// What the tools need to go on decoding: the seeker's working
        /// state and the decode-ahead's buffers.
        var workingBytes: Int { seekerWorkingBytes + indexDecoderBytes }

        /// Every frame giflib decoded, across releases.
        var decodeCount: Int { retiredDecodes + seekerDecodes + indexDecodes }

        /// Takes the statistics of `seeker`, the current one.
        mutating func record(_ seeker: FrameSeeker) {
            checkpointCount = seeker.checkpointCount
            checkpointBytes = seeker.checkpointByteCount
            seekerWorkingBytes = seeker.workingStateBytes
            seekerDecodes = seeker.decodeCount
        }
    }

    /// The figures after the latest decode.
    var holdings: Holdings { state.withLock { $0.holdings } }

    // MARK: Requests

    /// One frame asked for, waiting for its decode.
    private struct Request: Sendable {
        /// Names the request for ``frame(at:reusing:priority:decoder:)``'s
        /// cancellation.
        var id: Int
        var index: Int
        var priority: FrameRequestPriority
        var pixels: [UInt8]
        /// `nil` for a drawer's decode-ahead of the frame's indices alone.
        var continuation: UnsafeContinuation<RenderedFrame, any Error>?
    }

    /// The seeker between decodes. `@unchecked Sendable`: a `FrameSeeker`
    /// is not (its iterator holds giflib's handle and buffers); only the one
    /// decode running for this scheduler uses it, and the lock orders the
    /// hand-overs.
    struct SeekerLoan: @unchecked Sendable {
        var seeker: FrameSeeker
        /// The ``State/generation`` it was made in.
        fileprivate(set) var generation: Int
        /// The version of the progressive image the seeker holds (0: the
        /// source's first image).
        var version = 0
    }

    /// The decode-ahead's decoder between requests. `@unchecked Sendable`
    /// as ``SeekerLoan``: a `FrameIndexDecoder` is not (its buffers and
    /// giflib handle are used by one thread at a time); only the one request
    /// running for this scheduler uses it, and the lock orders the
    /// hand-overs.
    private struct IndexDecoderLoan: @unchecked Sendable {
        var decoder: FrameIndexDecoder
    }

    private struct State: ~Copyable {
        /// Requests not yet run, in the order asked (run most urgent
        /// first); storage reused.
        var requests: [Request] = []
        /// Whether the scheduler is queued on, or running on, the executor.
        var scheduled = false
        /// Whether ``settleDrawnState(decoder:)`` was asked for and has not
        /// run yet.
        var settleDue = false
        /// The latest request's ``Request/id``.
        var lastRequestID = 0
        /// The seeker while no decode runs (`nil` also before the first
        /// decode and after a release).
        var idle: SeekerLoan?
        /// Whether a decode holds the seeker now.
        var seekerLent = false
        /// The decode-ahead's decoder while it does not run.
        var idleIndexDecoder: IndexDecoderLoan?
        /// A ``trim(toBytes:besides:)`` asked for while the seeker was
        /// lent, applied when it comes back.
        var pendingTrim: Int?
        /// Bumped by ``release()``: an older seeker is dropped when its
        /// decode ends.
        var generation = 0
        var holdings = Holdings()

        /// Whether the executor must be asked to run this scheduler (it
        /// was not scheduled); marks it scheduled.
        mutating func schedule() -> Bool {
            defer { scheduled = true }
            return !scheduled
        }

        /// The priority of the most urgent request left (a settling due
        /// counts as ``FrameRequestPriority/now``), or `nil` (then no longer
        /// scheduled) when none is.
        mutating func nextPriority() -> FrameRequestPriority? {
            if settleDue { return .now }
            guard let position = FrameDecodeExecutor.mostUrgent(requests, { $0.priority }) else {
                scheduled = false
                return nil
            }
            return requests[position].priority
        }
    }

    /// Frame `index`, decoded by `decoder` on the ``executor`` into
    /// `storage` when it can, queued with `priority`. When the calling task
    /// is cancelled before the decode has started, the request is dropped
    /// and this throws `CancellationError`; a decode that has started
    /// finishes.
    func frame(
        at index: Int, reusing storage: consuming [UInt8], priority: FrameRequestPriority,
        decoder: any FrameRequestDecoder
    ) async throws -> RenderedFrame {
        var pixels = consume storage
        let id = state.withLock { state in
            state.lastRequestID += 1
            return state.lastRequestID
        }
        return try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { continuation in
                guard !Task.isCancelled else {
                    continuation.resume(throwing: CancellationError())
                    return
                }
                // Move the pixels into the queued request, so that it holds
                // the only reference and the decode draws into them without
                // a copy.
                var moved: [UInt8] = []
                swap(&moved, &pixels)
                var request: Request? = Request(
                    id: id, index: index, priority: priority, pixels: moved, continuation: continuation)
                moved = []
                let schedule = state.withLock { state -> Bool in
                    if let request = request.take() { state.requests.append(request) }
                    return state.schedule()
                }
                submit(decoder, priority: priority, schedule: schedule)
            }
        } onCancel: {
            let dropped = state.withLock { state -> Request? in
                guard let position = state.requests.firstIndex(where: { $0.id == id }) else { return nil }
                return state.requests.remove(at: position)
            }
            dropped?.continuation?.resume(throwing: CancellationError())
        }
    }

    /// Queues decode-ahead of the indices of those of `frames` that
    /// `isStored` says are not stored, nor queued already (a queued one is
    /// raised to `priority`).
    func requestIndices(
        _ frames: [Int], priority: FrameRequestPriority, decoder: any FrameRequestDecoder,
        isStored: (Int) -> Bool
    ) {
        let schedule = state.withLock { state -> Bool? in
            var added = false
            for index in frames where !isStored(index) {
                if let queued = state.requests.firstIndex(where: { $0.continuation == nil && $0.index == index }) {
                    if state.requests[queued].priority < priority { state.requests[queued].priority = priority }
                    continue
                }
                state.lastRequestID += 1
                state.requests.append(
                    Request(id: state.lastRequestID, index: index, priority: priority, pixels: [], continuation: nil))
                added = true
            }
            guard added else { return nil }
            return state.schedule()
        }
        guard let schedule else { return }
        submit(decoder, priority: priority, schedule: schedule)
    }

    /// Has `decoder` settle what a draw changed
    /// (``FrameRequestDecoder/settleDrawnState()``) on the ``executor``'s
    /// thread, before the next request: a lock held to queue it, never a
    /// wait for a decode or for the settling. Asked again before it ran,
    /// it runs once. It goes as ``FrameRequestPriority/now``: it is short,
    /// and what it settles is memory held.
    func settleDrawnState(decoder: any FrameRequestDecoder) {
        let schedule = state.withLock { state -> Bool in
            state.settleDue = true
            return state.schedule()
        }
        submit(decoder, priority: .now, schedule: schedule)
    }

    /// Queues this scheduler on the executor when it was not, or raises it
    /// there to `priority`.
    private func submit(_ decoder: any FrameRequestDecoder, priority: FrameRequestPriority, schedule: Bool) {
        if schedule {
            executor.enqueue(self, decoder: decoder, priority: priority)
        } else {
            executor.raise(self, to: priority)
        }
    }

    // MARK: The tools

    /// Drops the seeker and the decode-ahead's decoder (a decode running
    /// now finishes, and its seeker is dropped after it), and their
    /// figures; their decodes are kept in ``Holdings/decodeCount``.
    func release() {
        state.withLock { state in
            state.generation += 1
            state.idle = nil
            state.idleIndexDecoder = nil
            state.holdings.retiredDecodes += state.holdings.seekerDecodes
            let kept = (state.holdings.retiredDecodes, state.holdings.indexDecodes)
            state.holdings = Holdings()
            (state.holdings.retiredDecodes, state.holdings.indexDecodes) = kept
        }
    }

    /// How ``trim(toBytes:besides:)`` went.
    enum Trim {
        /// `bytes` is below the working state: nothing trimmed.
        case belowWorkingState
        /// The seeker was trimmed, or will be when its decode ends.
        case trimmed
        /// No seeker is held: the stored indices are to be trimmed to this.
        case noSeeker(bytes: Int)
    }

    /// Trims the seeker's checkpoints, then stored indices, until at most
    /// `bytes` remain with the working state, the tools' and `otherWorking`
    /// bytes more; read and applied under one lock, so a decode ending in
    /// between cannot change the figure trimmed to. A seeker lent out is
    /// trimmed when it comes back.
    func trim(toBytes bytes: Int, besides otherWorking: Int) -> Trim {
        state.withLock { state -> Trim in
            let working = state.holdings.workingBytes + otherWorking
            guard bytes >= working else { return .belowWorkingState }
            if state.idle != nil {
                state.idle!.seeker.trim(toBytes: bytes - working)
                state.holdings.record(state.idle!.seeker)
            } else if state.seekerLent {
                state.pendingTrim = min(state.pendingTrim ?? .max, bytes - working)
            } else {
                return .noSeeker(bytes: bytes - working)
            }
            return .trimmed
        }
    }

    // MARK: Running requests on the executor

    /// Runs a settling due (``settleDrawnState(decoder:)``), else the most
    /// urgent request (the oldest among equals), with `decoder` on the
    /// calling executor thread, then queues the scheduler again, as urgent
    /// as its most urgent request, if more are waiting.
    func runOneRequest(_ decoder: any FrameRequestDecoder) {
        var next: Request?
        var lent: SeekerLoan?
        var generation = 0
        var settle = false
        state.withLock { state in
            if state.settleDue {
                state.settleDue = false
                settle = true
                return
            }
            guard !state.requests.isEmpty else {
                state.scheduled = false
                return
            }
            let position = FrameDecodeExecutor.mostUrgent(state.requests, { $0.priority }) ?? 0
            next = state.requests.remove(at: position)
            generation = state.generation
            if next?.continuation != nil {
                lent = state.idle.take()
                state.seekerLent = true
            }
        }
        if settle {
            decoder.settleDrawnState()
            if let more = state.withLock({ $0.nextPriority() }) { executor.enqueue(self, decoder: decoder, priority: more) }
            return
        }
        guard var request = next.take() else { return }
        guard let continuation = request.continuation else {
            decodeIndices(of: request.index, generation: generation, decoder: decoder)
            return
        }
        var loan = lent.take() ?? SeekerLoan(seeker: decoder.makeSeeker(), generation: generation)
        let result = decoder.decodeFrame(request.index, into: &request.pixels, with: &loan)
        var returned: SeekerLoan? = loan
        let more = state.withLock { state -> FrameRequestPriority? in
            state.seekerLent = false
            if var loan = returned.take(), loan.generation == state.generation {
                if let bytes = state.pendingTrim.take() { loan.seeker.trim(toBytes: bytes) }
                state.holdings.record(loan.seeker)
                state.idle = loan
            }
            return state.nextPriority()
        }
        continuation.resume(with: result)
        if let more { executor.enqueue(self, decoder: decoder, priority: more) }
    }

    /// Runs a drawer's decode-ahead request: frame `index`'s indices into
    /// the stored ones, unless held; then queues the scheduler again if
    /// more requests wait.
    private func decodeIndices(of index: Int, generation: Int, decoder: any FrameRequestDecoder) {
        guard decoder.decodesIndices else {
            if let more = state.withLock({ $0.nextPriority() }) { executor.enqueue(self, decoder: decoder, priority: more) }
            return
        }
        let loan = state.withLock { $0.idleIndexDecoder.take() } ?? IndexDecoderLoan(decoder: FrameIndexDecoder())
        let decoded = decoder.decodeIndices(of: index, with: loan.decoder)
        var returned: IndexDecoderLoan? = loan
        let more = state.withLock { state -> FrameRequestPriority? in
            if generation == state.generation, let loan = returned.take() {
                state.idleIndexDecoder = loan
                state.holdings.indexDecoderBytes = loan.decoder.byteCount
            }
            if decoded { state.holdings.indexDecodes += 1 }
            return state.nextPriority()
        }
        if decoded { decoder.indicesStored() }
        if let more { executor.enqueue(self, decoder: decoder, priority: more) }
    }
}
