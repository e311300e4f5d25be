import GIF
import Playback
@_spi(Engine) import EngineSupport

/// A GIF played while its bytes arrive: a `Playback` frame source fed with
/// ``append(_:)`` as a download goes, built on `ProgressiveGIF`.
///
/// ```swift
/// let source = ProgressiveGIFFrameSource()
/// Task {
///     for try await chunk in download { try source.append(chunk) }
///     try source.finish()
/// }
/// try await source.waitUntilPlayable()       // the header and frame 0 are in
/// let player = try Player(source: source, startingAt: clock.now)
/// await player.play()
/// ```
///
/// - **Timing so far.** ``frameCount``, `frameDelays` and
///   `storedLoopCount` are those of the frames whose data has arrived
///   whole; ``timing`` reads them together. ``timingUpdates()`` yields a new
///   timing when frames arrive and a last one when the file completes (the
///   loop count, and so the total duration, may change then). A `Player`
///   listens to it by itself: it plays what has arrived and waits on the
///   last frame for the next (see `WaitPolicy`).
/// - **Frames.** ``frame(at:)`` gives any available frame, in any order, as
///   ``GIFFrameSource`` does: one `FrameSeeker` kept between calls, which
///   takes on the bytes read furthest before each decode, with checkpoints
///   and stored indices within `budget`. Decodes run on the `executor`'s threads,
///   never on Swift's cooperative pool.
/// - **Memory.** The bytes received (held once: the seeker's image shares
///   them, and an append writes past what it reads, so appends cost the
///   bytes appended whatever frames are asked for in between), the seeker's
///   state and its checkpoints: no frame is kept here (a `FrameCache` keeps
///   what the host's budget allows).
/// - **Errors.** A stream that ends badly ends like the whole-file decode of
///   the bytes received (`ProgressiveGIF/finish()`): the same frames, the
///   partial frame with its rows, and ``error``. ``append(_:)`` and
///   ``finish()`` throw what the whole-file decode throws on opening (not a
///   GIF, a header cut short, a limit).
///
/// Thread-safe: bytes may be appended from one task while players read
/// frames from others.
public final class ProgressiveGIFFrameSource: ProgressiveFrameSource, BudgetedFrameSource, Sendable {
    /// The limits the stream is read with.
    package let limits: DecodingLimits
    /// The threads decodes run on.
    package let executor: FrameDecodeExecutor
    /// The most bytes the seek checkpoints and the stored indices hold.
    package let budget: DecodingBudget

    private let state: LockedState<State>

    /// The stream being read. `@unchecked Sendable`: a `ProgressiveGIF` is
    /// not (its frame iterator holds giflib's handle and buffers); this one
    /// is read and changed only with the ``state`` lock held, and only
    /// `Sendable` values (its info, its images, counts) leave the lock.
    private struct Stream: @unchecked Sendable {
        var gif: ProgressiveGIF
    }

    private struct State: ~Copyable {
        var stream: Stream
        /// Bumped whenever frames arrive or the stream ends: what the
        /// decoder's seeker compares.
        var version = 1
        var timing = FrameSourceTiming(frameDelays: [], storedLoopCount: nil, isComplete: false)
        var canvas: PixelSize?
        var failure: GIFError?
        /// Made once the canvas is known.
        var decoder: GIFFrameSource?
        /// The ``timingUpdates()`` streams.
        var hub = EventHub<FrameSourceTiming>()
    }

    /// A source with no bytes yet.
    /// - Parameters:
    ///   - limits: The limits the stream is read with.
    ///   - budget: The most bytes seek checkpoints and stored indices hold.
    ///   - executor: The threads decodes run on.
    public init(
        limits: DecodingLimits = .default, budget: DecodingBudget = .default, executor: FrameDecodeExecutor = .shared
    ) {
        self.limits = limits
        self.executor = executor
        self.budget = budget
        self.state = LockedState(State(stream: Stream(gif: ProgressiveGIF(limits: limits))))
    }

    // MARK: Feeding bytes

    /// Adds the next bytes of the file; frames whose data they complete
    /// become available, and ``timingUpdates()`` streams hear of it. Ignored
    /// once `isComplete`.
    /// - Throws: As `ProgressiveGIF/append(_:)`: the bytes are not a GIF,
    ///   pass `DecodingLimits/maxInputBytes`, or the canvas is over the
    ///   limit (said as soon as the logical screen or the first frame's
    ///   descriptor is in). The source is then complete with that ``error``;
    ///   a block still arriving that passes another limit (a frame's size,
    ///   the extension bytes) completes it with that ``error`` too.
    public func append(_ chunk: some Collection<UInt8>) throws(GIFError) {
        try update { (gif: inout ProgressiveGIF) throws(GIFError) in try gif.append(chunk) }
    }

    /// Says that no more bytes will come: a block cut short becomes the
    /// error (and partial frame) of the whole-file decode of the bytes
    /// received, and the source is complete.
    /// - Throws: As `ProgressiveGIF/finish()`.
    public func finish() throws(GIFError) {
        try update { (gif: inout ProgressiveGIF) throws(GIFError) in try gif.finish() }
    }

    /// Waits until frame 0 is available (a player can be made), or throws
    /// when the source completes without a frame.
    /// - Throws: The source's ``error``, or `PlayerError.emptySource` for a
    ///   GIF without frames; `CancellationError` when the task is cancelled.
    public func waitUntilPlayable() async throws {
        for await timing in timingUpdates() {
            if timing.frameCount > 0 { return }
            if timing.isComplete { break }
        }
        try Task.checkCancellation()
        if frameCount > 0 { return }
        throw error.map { $0 as any Error } ?? PlayerError.emptySource
    }

    // MARK: What has arrived

    /// The error that ended the stream, once complete: what ``append(_:)``
    /// or ``finish()`` threw, or the structural error after the last frame
    /// (a truncated frame), as `GIFInfo/error` of the whole-file decode.
    /// `nil` while the stream goes on, or when it ended cleanly. (Errors
    /// inside a frame's LZW data come from ``frame(at:)``, as for a whole
    /// file.)
    public var error: GIFError? {
        state.withLock { state in
            state.failure ?? (state.timing.isComplete ? state.stream.gif.info?.error : nil)
        }
    }

    /// The number of bytes received.
    package var receivedByteCount: Int { state.withLock { $0.stream.gif.receivedByteCount } }

    /// The canvas, once the first frame's descriptor is in; 0 × 0 before.
    public var canvasSize: PixelSize { state.withLock { $0.canvas } ?? PixelSize(width: 0, height: 0) }

    /// The delays, the stored loop count and whether the file is over (the
    /// trailer came, an error ended it, or ``finish()`` was called), read
    /// together.
    public var timing: FrameSourceTiming { state.withLock { $0.timing } }

    /// The frames available so far.
    public var frameCount: Int { timing.frameCount }

    /// The timing now, then one each time frames arrive, and the complete
    /// one, after which the stream ends.
    public func timingUpdates() -> AsyncStream<FrameSourceTiming> {
        state.withLock { state in
            guard !state.timing.isComplete else {
                let (stream, continuation) = AsyncStream.makeStream(of: FrameSourceTiming.self)
                continuation.yield(state.timing)
                continuation.finish()
                return stream
            }
            return state.hub.makeStream(startingWith: state.timing) { [weak self] token in
                self?.state.withLock { $0.hub.removeStream(token) }
            }
        }
    }

    // MARK: Frames

    /// The composited frame at `index`, RGBA8, once it has arrived.
    /// - Throws: `PlayerError.frameOutOfRange` for a frame not arrived, or
    ///   as ``GIFFrameSource/frame(at:)``.
    public func frame(at index: Int) async throws -> RenderedFrame {
        try await frame(at: index, reusing: [])
    }

    /// The composited frame at `index`, queued with `priority` (see
    /// ``GIFFrameSource/frame(at:reusing:priority:)``).
    /// - Throws: As ``frame(at:)``, or `CancellationError`.
    public func frame(
        at index: Int, reusing storage: consuming [UInt8], priority: FrameRequestPriority
    ) async throws -> RenderedFrame {
        let (decoder, count) = state.withLock { ($0.decoder, $0.timing.frameCount) }
        guard let decoder, (0..<count).contains(index) else {
            throw PlayerError.frameOutOfRange(index, frameCount: count)
        }
        return try await decoder.frame(at: index, reusing: storage, priority: priority)
    }

    /// The decoder's seeker bytes and its working state (see
    /// ``GIFFrameSource/decodingState``); none before the canvas is known.
    public var decodingState: DecodingStateBytes {
        state.withLock { $0.decoder }?.decodingState ?? .none
    }

    /// Trims the decoder's state (see ``GIFFrameSource/trimDecodingState(toBytes:)``).
    /// - Parameter bytes: The most bytes to keep.
    public func trimDecodingState(toBytes bytes: Int) {
        state.withLock { $0.decoder }?.trimDecodingState(toBytes: bytes)
    }

    // MARK: Internals

    /// The bytes read furthest, for the decoder's seeker.
    private func latestImage() -> (version: Int, image: GIFImage)? {
        state.withLock { state in state.stream.gif.image.map { (state.version, $0) } }
    }

    /// Applies `change` to the stream, then tells the listeners what arrived.
    private func update(_ change: (inout ProgressiveGIF) throws(GIFError) -> Void) throws(GIFError) {
        var thrown: GIFError?
        let (timing, hub) = state.withLock { state -> (FrameSourceTiming?, EventHub<FrameSourceTiming>?) in
            guard !state.timing.isComplete else { return (nil, nil) }
            do throws(GIFError) {
                try change(&state.stream.gif)
            } catch {
                thrown = error
                state.failure = error
            }
            let gif = state.stream.gif
            let timing = FrameSourceTiming(
                frameDelays: gif.info?.frames.map(\.delay) ?? [],
                storedLoopCount: gif.info?.loopCount.stored,
                isComplete: gif.isComplete || thrown != nil)
            if state.canvas == nil, let canvas = gif.canvasSize { state.canvas = canvas }
            if state.decoder == nil, let image = gif.image {
                state.decoder = GIFFrameSource(
                    progressive: image, budget: budget, executor: executor,
                    latest: { [weak self] in self?.latestImage() })
            }
            guard timing != state.timing else { return (nil, nil) }
            state.timing = timing
            state.version += 1
            // Told outside the lock, from a copy: a listener may call back.
            let hub = state.hub
            if timing.isComplete { state.hub.forgetStreams() }
            return (timing, hub)
        }
        if let timing, let hub {
            hub.deliver([timing])
            if timing.isComplete { hub.finishStreams() }
        }
        if let thrown { throw thrown }
    }
}
