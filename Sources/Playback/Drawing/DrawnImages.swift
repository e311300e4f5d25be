import Synchronization

/// The frames ``Player/currentImage(isolation:)`` hands out when its source draws
/// (``FrameSource/makeDrawer(notifying:)``): a drawer of the player's own
/// writes them into at most two canvases this store owns, and each is
/// handed out as an immutable ``RenderedFrame`` sharing that canvas's
/// pixels.
///
/// Double buffering with damage tracking, as a compositor keeps a
/// swapchain:
/// - when the host has let go of every image of the canvas drawn last, the
///   next frame is drawn into that same canvas: only the changed rectangle
///   is written;
/// - when it still holds one (a view showing it until the next arrives),
///   the next frame goes to the other canvas, which is first brought up to
///   the drawn one by copying only where the two differ (the rectangles
///   drawn since it was last written), then drawn like the first;
/// - when the host holds images of both, the other canvas is replaced by a
///   new one (the host keeps the old pixels; this store still owns two).
///
/// A canvas is known to be let go of through a lease object each image
/// carries: the pixels array itself is copy-on-write, so a host that kept
/// only `pixels` makes the next write into that canvas copy it, never
/// change what the host holds.
///
/// Nothing here waits on a decode while holding the lock: a draw that
/// finds its frame not decoded yet (``FrameDraw/late(frame:shown:)``)
/// returns, and ``image(at:)`` waits for the source's next decode (or a
/// short retry interval) before drawing again.
final class DrawnImages: Sendable {
    /// The drawer writing into the canvases: one buffer's drawer, so it
    /// serves no other buffer.
    private let drawer: any FrameDrawer
    private let canvases: Mutex<Canvases>
    private let decoded = DecodeSignal()
    /// Counts the canvases in its memory budget.
    private let cache: FrameCache

    /// The store for `cache`'s source, or `nil` when the source cannot draw
    /// (its frames then come from the cache).
    init?(cache: FrameCache) {
        let decoded = self.decoded
        guard let drawer = cache.source.makeDrawer(notifying: { [weak cache] in
            cache?.noteDecodingState()
            decoded.signal()
        }) else { return nil }
        self.drawer = drawer
        self.cache = cache
        canvases = Mutex(Canvases(width: drawer.width, height: drawer.height, pixelFormat: drawer.pixelFormat))
    }

    deinit {
        let bytes = canvases.withLock { $0.byteCount }
        if bytes > 0 { cache.noteImageBytes(-bytes) }
    }

    /// The bytes the canvases take (two at most).
    var canvasBytes: Int { canvases.withLock { $0.byteCount } }


    /// Frame `frame()` (read again after each wait, so a late image is the
    /// one shown by then) as an image: drawn when the canvas does not hold
    /// it, waiting for its decode when it is not decoded yet. The draw runs
    /// on the caller's executor; only a wait leaves it.
    /// With `tally`, the image is counted as a draw of the frame the
    /// player published: on time when no wait came first, late otherwise
    /// (as ``Player/draw(into:bytesPerRow:)``'s draws are counted).
    /// A draw the budget has no room for (``FrameDraw/still(frame:shown:)``)
    /// returns the image shown before.
    /// - Throws: ``FrameSourceError/drawFailed(index:reason:)`` when the
    ///   frame has nothing to show (nor a still before it); `CancellationError`
    ///   when the task is cancelled while waiting.
    func image(
        at frame: @Sendable () -> Int, tally: DrawTally? = nil, isolation: isolated (any Actor)? = #isolation
    ) async throws -> RenderedFrame {
        let publication = tally?.publication ?? 0
        while true {
            let mark = decoded.generation
            let index = frame()
            if let image = try drawn(index) {
                // A still (no room in the budget to draw `index`) is the
                // frame shown before, and counts as the frame skipped.
                let whole = PixelRect(x: 0, y: 0, width: image.width, height: image.height)
                let draw: FrameDraw = image.index == index
                    ? .drawn(frame: image.index, changed: whole, isComplete: true)
                    : .still(frame: index, shown: image.index)
                tally?.record(draw, of: publication)
                return image
            }
            tally?.record(.late(frame: index, shown: nil), of: publication)
            await decoded.wait(after: mark)
            try Task.checkCancellation()
        }
    }

    /// Frame `index` as an image, or `nil` when it is not decoded yet; a
    /// canvas added is counted in the cache's budget once the lock is
    /// released.
    private func drawn(_ index: Int) throws(FrameSourceError) -> RenderedFrame? {
        var grew = 0
        defer { if grew != 0 { cache.noteImageBytes(grew) } }
        return try canvases.withLock { canvases throws(FrameSourceError) in
            let before = canvases.byteCount
            defer { grew = canvases.byteCount - before }
            return try canvases.draw(index, with: drawer)
        }
    }
}

/// The two canvases and what is known of them.
private struct Canvases {
    let width: Int
    let height: Int
    let pixelFormat: PixelFormat

    /// A canvas and the frame it holds.
    struct Canvas {
        var pixels: [UInt8]
        /// Carried by every image of this canvas: uniquely referenced here
        /// once the host has let go of them all.
        var lease = ImageLease()
        var frame: Int?
        /// Where ``frame`` can differ from frame `frame − 1` (for the
        /// image's ``RenderedFrame/changedRect``).
        var changedRect = PixelRect(x: 0, y: 0, width: 0, height: 0)
    }

    var canvases: [Canvas] = []
    /// The canvas the drawer's idea of its buffer describes: the one drawn last.
    var current = 0
    /// Where the other canvas can differ from the current one; `nil`:
    /// anywhere.
    var otherBehind: PixelRect?

    init(width: Int, height: Int, pixelFormat: PixelFormat) {
        self.width = width
        self.height = height
        self.pixelFormat = pixelFormat
    }

    var byteCount: Int { canvases.reduce(0) { $0 + $1.pixels.count } }

    private var whole: PixelRect { PixelRect(x: 0, y: 0, width: width, height: height) }

    /// Frame `index` drawn into a canvas the host does not hold, or `nil`
    /// when it is not decoded yet.
    mutating func draw(_ index: Int, with drawer: any FrameDrawer) throws(FrameSourceError) -> RenderedFrame? {
        if !canvases.isEmpty, canvases[current].frame == index { return image(of: current) }
        let target = prepareTarget(drawer)
        let before = canvases[target].frame
        let result: FrameDraw
        do {
            result = try canvases[target].pixels.withUnsafeMutableBytes { buffer throws(PixelBufferError) in
                try drawer.draw(frame: index, into: buffer, bytesPerRow: width * 4)
            }
        } catch {
            throw .drawFailed(index: index, reason: "\(error)")
        }
        switch result {
        case .unchanged(let frame):
            canvases[target].frame = frame
            return image(of: target)
        case .drawn(let frame, let changed, _):
            canvases[target].frame = frame
            canvases[target].changedRect = frame > 0 && before == frame - 1 ? changed : whole
            otherBehind = otherBehind?.union(changed)
            return image(of: target)
        case .late:
            return nil
        case .still(let frame, let shown):
            // The budget has no room to draw: the image shown stays.
            guard let shown, canvases[target].frame == shown else {
                throw .drawFailed(index: frame, reason: "the memory budget has no room to draw it")
            }
            return image(of: target)
        case .failed(let frame, _, let reason):
            throw .drawFailed(index: frame, reason: reason)
        }
    }

    /// The canvas the next frame is drawn into, holding what the drawer
    /// takes its buffer to hold.
    private mutating func prepareTarget(_ drawer: any FrameDrawer) -> Int {
        guard !canvases.isEmpty else {
            canvases.append(Canvas(pixels: [UInt8](repeating: 0, count: width * height * 4)))
            drawer.invalidate()
            return 0
        }
        if isKnownUniquelyReferenced(&canvases[current].lease) { return current }
        let other = 1 - current
        if canvases.count == 1 {
            canvases.append(Canvas(pixels: copy(of: canvases[current].pixels)))
        } else if !isKnownUniquelyReferenced(&canvases[other].lease) {
            canvases[other] = Canvas(pixels: copy(of: canvases[current].pixels))
        } else if let behind = otherBehind {
            copyRows(behind, from: current, to: other)
        } else {
            copyRows(whole, from: current, to: other)
        }
        canvases[other].frame = canvases[current].frame
        canvases[other].changedRect = canvases[current].changedRect
        otherBehind = PixelRect(x: 0, y: 0, width: 0, height: 0)
        current = other
        return other
    }

    private func copy(of pixels: [UInt8]) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: pixels.count) { buffer, count in
            _ = buffer.initialize(from: pixels)
            count = pixels.count
        }
    }

    /// Copies `rect`'s rows of canvas `from` into canvas `to`.
    private mutating func copyRows(_ rect: PixelRect, from: Int, to: Int) {
        let rect = rect.clipped(toWidth: width, height: height)
        guard !rect.isEmpty else { return }
        let rowBytes = width * 4, offset = rect.y * rowBytes + rect.x * 4
        canvases[from].pixels.withUnsafeBytes { source in
            canvases[to].pixels.withUnsafeMutableBytes { target in
                Pixels.copyRows(
                    rect.height, of: rect.width * 4, from: source.baseAddress! + offset, stride: rowBytes,
                    to: target.baseAddress! + offset, stride: rowBytes)
            }
        }
    }

    private func image(of canvas: Int) -> RenderedFrame {
        let held = canvases[canvas]
        var image = RenderedFrame(
            index: held.frame ?? 0, width: width, height: height, pixels: held.pixels, pixelFormat: pixelFormat,
            changedRect: held.changedRect)
        image.lease = held.lease
        return image
    }
}

/// What an image of a ``DrawnImages`` canvas carries, so the store knows
/// when the host has let go of them all.
final class ImageLease: Sendable {}

/// Counts the source's decodes, and wakes whoever waits for the next one.
private final class DecodeSignal: Sendable {
    private struct State {
        var generation = 0
        var nextWaiter = 0
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = Mutex(State())
    /// ``State/generation`` as of the last signal, read without the lock.
    private let signalled = Atomic<Int>(0)

    /// How many decodes have been signalled.
    var generation: Int { signalled.load(ordering: .acquiring) }

    /// A decode ended: wakes every waiter.
    func signal() {
        let waiters = state.withLock { state in
            state.generation += 1
            signalled.store(state.generation, ordering: .releasing)
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// The most a wait lasts without a decode signalled: a request the
    /// source dropped (its decoding state trimmed meanwhile) is then asked
    /// for again by the next draw.
    static let retryInterval = Duration.milliseconds(20)

    /// Returns once a decode was signalled after `mark` was read, or after
    /// ``retryInterval``.
    func wait(after mark: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let id = state.withLock { state -> Int? in
                guard state.generation == mark else { return nil }
                state.nextWaiter += 1
                state.waiters[state.nextWaiter] = continuation
                return state.nextWaiter
            }
            guard let id else { return continuation.resume() }
            Task {
                try? await Task.sleep(for: Self.retryInterval)
                self.state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
            }
        }
    }
}
