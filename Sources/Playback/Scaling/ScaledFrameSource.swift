@_spi(Engine) import EngineSupport

/// Any ``FrameSource`` shown at a ``DisplaySize``: each frame is asked of the
/// base source at full size and resampled (``BoxFilter``) into the memory
/// the cache hands back, so a ``FrameCache`` over it holds only the frames
/// the cell shows; the full-size frame is drawn into one scratch canvas kept
/// between calls, so steady playback allocates nothing. A frame's
/// ``RenderedFrame/changedRect`` is the base's, mapped to the output
/// (``BoxFilter/outputRect(covering:)``).
///
/// ``FrameSource/displaying(at:)`` makes one (a GIF source scales as it
/// composites instead). The timing is the base's; ``canvasSize`` is
/// the frame size of the base's canvas at the display
/// size (``DisplaySize/geometry(width:height:)``).
package final class ScaledFrameSource: BudgetedFrameSource, Sendable {
    /// The source the full-size frames come from.
    package let base: any FrameSource
    /// The base as a ``BudgetedFrameSource``, when it is one.
    private let budgetedBase: (any BudgetedFrameSource)?

    /// The cell this source's frames are made for.
    package let displaySize: DisplaySize

    private struct State {
        var filter: BoxFilter?
        /// The base's last full-size frame's pixels, drawn into again.
        var scratch: [UInt8] = []
    }

    private let state = LockedState(State())

    /// Wraps `base`, scaling its frames as `displaySize` says.
    /// - Parameters:
    ///   - base: The full-size source.
    ///   - displaySize: The cell the frames are made for.
    package init(base: any FrameSource, displaySize: DisplaySize) {
        self.base = base
        self.budgetedBase = base as? any BudgetedFrameSource
        self.displaySize = displaySize
    }

    /// `source` itself when `size` shows its canvas as it is; else a
    /// ``ScaledFrameSource`` over it, one that is a ``ProgressiveFrameSource``
    /// when `source` is.
    static func wrapping(_ source: some FrameSource, at size: DisplaySize) -> any FrameSource {
        let isProgressive = source is any ProgressiveFrameSource
        if !isProgressive, size.geometry(width: source.canvasWidth, height: source.canvasHeight).isIdentity { return source }
        let scaled = ScaledFrameSource(base: source, displaySize: size)
        if let progressive = source as? any ProgressiveFrameSource { return ScaledProgressiveFrameSource(scaled, progressive) }
        return scaled
    }

    /// The base's frame count.
    package var frameCount: Int { base.frameCount }
    /// The size the base's canvas is shown at.
    package var canvasSize: PixelSize {
        let (width, height) = displaySize.fitting(width: base.canvasWidth, height: base.canvasHeight)
        return PixelSize(width: width, height: height)
    }
    /// The base's layout: frames are scaled in it.
    package var pixelFormat: PixelFormat { base.pixelFormat }
    /// The base's timing.
    package var timing: FrameSourceTiming { base.timing }

    /// Frame `index` of the base, scaled as ``displaySize`` says.
    /// - Parameter index: A frame index in `0..<frameCount`.
    /// - Throws: The base's error, or ``FrameSourceError`` when the base's
    ///   frame is not the one asked for or not a whole canvas.
    package func frame(at index: Int) async throws -> RenderedFrame {
        try await frame(at: index, reusing: [], priority: .now)
    }

    /// Frame `index` of the base, scaled into `storage` when it has the
    /// display size's bytes and nothing else shares it.
    /// - Parameters:
    ///   - index: A frame index in `0..<frameCount`.
    ///   - storage: Pixel memory the result may reuse.
    /// - Throws: As ``frame(at:)``.
    package func frame(at index: Int, reusing storage: consuming [UInt8]) async throws -> RenderedFrame {
        try await frame(at: index, reusing: storage, priority: .now)
    }

    /// Frame `index` of the base, asked of it at `priority`, scaled into
    /// `storage` as `frame(at:reusing:)`.
    /// - Parameters:
    ///   - index: A frame index in `0..<frameCount`.
    ///   - storage: Pixel memory the result may reuse.
    ///   - priority: How urgently the frame is wanted.
    /// - Throws: As ``frame(at:)``.
    package func frame(
        at index: Int, reusing storage: consuming [UInt8], priority: FrameRequestPriority
    ) async throws -> RenderedFrame {
        var pixels = consume storage
        let scratch = state.withLock { state in
            var taken: [UInt8] = []
            swap(&taken, &state.scratch)
            return taken
        }
        let full = try await base.frame(at: index, reusing: scratch, priority: priority, budgeted: budgetedBase)
        guard full.index == index else { throw FrameSourceError.wrongFrameIndex(requested: index, returned: full.index) }
        try FrameSourceError.check(full)
        let filter = state.withLock { state -> BoxFilter in
            if let filter = state.filter, filter.sourceWidth == full.width, filter.sourceHeight == full.height {
                return filter
            }
            let filter = BoxFilter(sourceWidth: full.width, sourceHeight: full.height, displaySize: displaySize)
            state.filter = filter
            return filter
        }
        filter.apply(full.pixels, into: &pixels, premultiplied: full.pixelFormat.isPremultiplied)
        let result = RenderedFrame(
            index: index, width: filter.width, height: filter.height, pixels: pixels, pixelFormat: full.pixelFormat,
            changedRect: filter.outputRect(covering: full.changedRect))
        var kept = full.pixels
        state.withLock { swap(&kept, &$0.scratch) }
        return result
    }

    /// The scratch canvas's bytes and the base's decoding state; working:
    /// the scratch canvas and the base's working state, what it needs to
    /// scale the next frame without starting again. Each at most `Int.max`,
    /// whatever the base reports; a negative report counts as 0.
    package var decodingState: DecodingStateBytes {
        let scratch = state.withLock { $0.scratch.count }
        let base = budgetedBase?.decodingState ?? .none
        return DecodingStateBytes(total: Self.sum(scratch, base.total), working: Self.sum(scratch, base.working))
    }

    /// `scratch + reported`, with a base's report taken as 0 when negative
    /// and the sum stopping at `Int.max`: a host's source may report any
    /// value.
    private static func sum(_ scratch: Int, _ reported: Int) -> Int {
        let (sum, overflow) = scratch.addingReportingOverflow(max(0, reported))
        return overflow ? .max : sum
    }

    /// Trims the base to what is left beside the scratch canvas; drops the
    /// scratch canvas too when `bytes` is below the working state.
    /// - Parameter bytes: The most bytes to keep.
    package func trimDecodingState(toBytes bytes: Int) {
        let bytes = max(0, bytes)
        let scratch = state.withLock { $0.scratch.count }
        let base = budgetedBase?.decodingState ?? .none
        guard Self.sum(scratch, base.total) > bytes else { return }
        if bytes >= Self.sum(scratch, base.working) {
            budgetedBase?.trimDecodingState(toBytes: bytes - scratch)
            return
        }
        var dropped: [UInt8] = []
        state.withLock { swap(&dropped, &$0.scratch) }
        budgetedBase?.trimDecodingState(toBytes: bytes)
    }

    /// A source showing the base at `size` (the base's display, not a
    /// scaled copy of this one's small frames).
    /// - Parameter size: The cell the host draws in.
    package func displaying(at size: DisplaySize) -> any FrameSource {
        base.displaying(at: size)
    }
}

/// A ``ScaledFrameSource`` over a ``ProgressiveFrameSource``: the same, and
/// still arriving, so players listen for its frames.
final class ScaledProgressiveFrameSource: ProgressiveFrameSource, BudgetedFrameSource, Sendable {
    let scaled: ScaledFrameSource
    let progressive: any ProgressiveFrameSource

    init(_ scaled: ScaledFrameSource, _ progressive: any ProgressiveFrameSource) {
        self.scaled = scaled
        self.progressive = progressive
    }

    func timingUpdates() -> AsyncStream<FrameSourceTiming> { progressive.timingUpdates() }
    var frameCount: Int { scaled.frameCount }
    var canvasSize: PixelSize { scaled.canvasSize }
    var timing: FrameSourceTiming { scaled.timing }
    var pixelFormat: PixelFormat { scaled.pixelFormat }
    func frame(at index: Int) async throws -> RenderedFrame { try await scaled.frame(at: index) }
    func frame(
        at index: Int, reusing storage: consuming [UInt8], priority: FrameRequestPriority
    ) async throws -> RenderedFrame {
        try await scaled.frame(at: index, reusing: storage, priority: priority)
    }
    var decodingState: DecodingStateBytes { scaled.decodingState }
    func trimDecodingState(toBytes bytes: Int) { scaled.trimDecodingState(toBytes: bytes) }
    func displaying(at size: DisplaySize) -> any FrameSource { scaled.displaying(at: size) }
}
