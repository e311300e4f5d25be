@_spi(Engine) import EngineSupport

/// Plays a list of items one after another, each for its loop count, then
/// wraps; loads items ahead through the host's loaders; skips what fails or
/// comes too late; and relays playback across list refreshes.
///
/// The ``PlaylistSequencer`` (the deterministic core) in an actor, with
/// `Clock` instants, the loads run on tasks of the playlist's own, event
/// delivery, and a ``FrameCache`` for the current and the next item.
/// Everything else works as for a ``Player``: autoplay is off, time comes
/// from the host (``advance(to:)``) or from a ``PlaylistDriver``, and
/// pause/resume keep the exact position, across item boundaries too.
///
/// ```swift
/// let clock = ContinuousClock()
/// let items = ["a.gif", "b.gif", "c.gif"].map { path in
///     PlaylistItem(key: path) { try GIFFrameSource(contentsOf: path) }
/// }
/// let playlist = try Playlist(items: items, startingAt: clock.now)
/// let driver = PlaylistDriver(playlist: playlist, clock: clock)
/// Task { await driver.run() }
/// await playlist.play()
/// // On a feed refresh that keeps a.gif, the GIF being watched goes on where it was:
/// await playlist.replace(items: Array(items.prefix(2)))
/// ```
///
/// The playing state lives here, not in any view: a host that rebuilds its
/// views asks ``currentKey``, ``currentFrame`` and ``currentImage()`` again
/// and loses nothing.
public actor Playlist<Instant: InstantProtocol> where Instant.Duration == Duration {
    /// The instant host time is measured from: creation time.
    public nonisolated let origin: Instant

    /// The rules in force.
    package nonisolated let configuration: PlaylistConfiguration

    var sequencer: PlaylistSequencer
    /// Observers, event streams and driver wake-ups.
    package var hub = EventHub<PlaylistEvent>()
    private var loadTasks: [Int: Task<Void, Never>] = [:]
    /// Loads cancelled whose loader has not returned yet (it may ignore
    /// cancellation): counted, never awaited.
    private var abandonedLoads: Set<Int> = []
    private var cancelledLoads = 0
    private var caches: [String: FrameCache] = [:]
    /// A drawer per cached item (see ``draw(into:bytesPerRow:)``).
    private var drawers: [String: any FrameDrawer] = [:]
    /// The canvases ``currentImage()`` draws a cached item into, made at
    /// its first call (`.some(nil)`: the item's source cannot draw).
    private var images: [String: DrawnImages?] = [:]
    /// The frame shown and the look-ahead handed to its drawer, reused from
    /// change to change.
    private var upcoming: [Int] = []
    /// The item and frame shown, for ``draw(into:bytesPerRow:)``, which runs
    /// on the host's thread without waiting for the actor.
    private nonisolated let shown = LockedState(Shown())

    private struct Shown {
        /// The current item's drawer and frame, once it is loaded.
        var drawer: (any FrameDrawer)?
        var frame = 0
        /// The drawer that drew into the host's buffer last.
        var lastDrawer: ObjectIdentifier?
        var lateDraws = 0
    }
    /// The current item's cache, told it plays (``FrameCache/beginPlaying()``)
    /// so a shared budget gives back the next item's frames first.
    private var playingCache: FrameCache?
    /// The tasks that hand progressive sources' timings in.
    private nonisolated let growth = TimingSubscription()

    /// Creates a playlist on its first item, idle unless autoplay is on, and
    /// starts loading the first items at once.
    /// - Parameters:
    ///   - items: The items in play order (keys unique; later duplicates are
    ///     dropped).
    ///   - configuration: The rules.
    ///   - now: The clock's instant now (the playlist never reads the clock).
    /// - Throws: ``PlayerError/invalidRate(_:)``.
    public init(
        items: [PlaylistItem], configuration: PlaylistConfiguration = .init(), startingAt now: Instant
    ) throws(PlayerError) {
        self.origin = now
        self.configuration = configuration
        self.sequencer = try PlaylistSequencer(items: items, configuration: configuration, now: .zero)
        Task { await self.startRequestedLoads() }
    }

    /// Cancels loads still running and ends every event stream still open.
    deinit {
        growth.cancel()
        for task in loadTasks.values { task.cancel() }
        hub.finishStreams()
    }

    // MARK: Reading the state

    /// A copy of the deterministic state, for inspection or tests.
    package var snapshot: PlaylistSequencer { sequencer }

    /// The life-cycle state.
    public var state: PlaylistState { sequencer.state }

    /// The keys of the items, in play order.
    public var keys: [String] { sequencer.items.map(\.key) }

    /// The current item's key, or `nil` when there is none.
    public var currentKey: String? { sequencer.currentKey }

    /// The current item's position in the list.
    @_spi(Benchmarks) public var currentIndex: Int? { sequencer.currentIndex }

    /// The current item's frame shown now, or `nil` before it is loaded.
    public var currentFrame: Int? { sequencer.currentFrame }

    /// The current item's playhead (loops done, time into the frame, its
    /// timeline), or `nil` before it is loaded.
    package var currentPlayhead: Playhead? { sequencer.currentPlayhead }

    /// Whether the playlist waits for the current item's load.
    public var isWaiting: Bool { sequencer.isWaiting }

    /// Laps completed.
    @_spi(Benchmarks) public var lapsDone: Int { sequencer.lapsDone }

    /// The load state of the item with `key`, or `nil` when no item has it.
    /// - Parameter key: An item's key.
    public func loadState(of key: String) -> ItemLoadState? { sequencer.loadState(of: key) }

    /// The latest instant passed in.
    public var now: Instant { origin.advanced(by: sequencer.now) }

    /// Loads running whose result the playlist still wants.
    package var runningLoadCount: Int { loadTasks.count }

    /// Loads cancelled so far because their item was removed or handed in
    /// anew (``replace(items:at:)``). Each was cancelled at once; none is
    /// awaited.
    package var cancelledLoadCount: Int { cancelledLoads }

    /// Cancelled loads whose loader has not returned yet: a loader that
    /// ignores cancellation is abandoned and counted here until it returns
    /// (its result is then dropped).
    package var abandonedLoadCount: Int { abandonedLoads.count }

    /// The instant of the next change, or `nil` when nothing is scheduled;
    /// computed from anchors, so sleeping until it accumulates no error.
    public var nextChangeInstant: Instant? {
        sequencer.nextChangeTime.map { origin.advanced(by: $0) }
    }

    /// Host time until the next change, or `nil` when nothing is scheduled.
    package var timeUntilNextChange: Duration? { sequencer.timeUntilNextChange }

    /// The pixels of the current item's frame shown now, or `nil` when no
    /// item is loaded yet: drawn into at most two canvases of the item's
    /// when its source draws, as ``Player/currentImage(isolation:)`` draws them, else
    /// through its cache.
    /// - Throws: The source's decoding error, or
    ///   ``FrameSourceError/drawFailed(index:reason:)``.
    public func currentImage() async throws -> RenderedFrame? {
        guard let key = sequencer.currentKey, let frame = sequencer.currentFrame else { return nil }
        let cache = caches[key] ?? makeCache(for: key)
        guard let cache else { return nil }
        if images[key] == nil { images[key] = .some(DrawnImages(cache: cache)) }
        if let drawn = images[key] ?? nil { return try await drawn.image(at: { frame }) }
        return try await cache.frame(at: frame)
    }

    /// Writes the current item's frame into `buffer`, memory the host owns,
    /// as ``Player/draw(into:bytesPerRow:)`` does for a player: only what
    /// changed since the last draw, on the calling thread, never waiting
    /// for the actor or for a decode. When the item changes, the next draw
    /// writes the new item's whole frame; the buffer must then be
    /// ``currentDrawer``'s size (items differ in size).
    /// - Returns: What was written, or `nil` when no item is loaded yet.
    /// - Throws: `PixelBufferError` for a buffer too small for the current
    ///   item's frame, or when another thread is drawing this playlist.
    public nonisolated func draw(
        into buffer: UnsafeMutableRawBufferPointer, bytesPerRow: Int
    ) throws(PixelBufferError) -> FrameDraw? {
        let (drawer, frame, switched) = shown.withLock { shown -> ((any FrameDrawer)?, Int, Bool) in
            guard let drawer = shown.drawer else { return (nil, 0, false) }
            let id = ObjectIdentifier(drawer)
            defer { shown.lastDrawer = id }
            return (drawer, shown.frame, shown.lastDrawer != id)
        }
        guard let drawer else { return nil }
        // The host's buffer holds another item's pixels: all of this one's
        // frame is to be written.
        if switched { drawer.invalidate() }
        let result = try drawer.draw(frame: frame, into: buffer, bytesPerRow: bytesPerRow)
        if case .late = result { shown.withLock { $0.lateDraws += 1 } }
        return result
    }

    /// The drawer of the current item (its ``FrameDrawer/width`` and
    /// ``FrameDrawer/height`` are the size ``draw(into:bytesPerRow:)``
    /// draws), or `nil` before it is loaded.
    public nonisolated var currentDrawer: (any FrameDrawer)? { shown.withLock { $0.drawer } }

    /// The draws so far that found their frame not decoded yet.
    public nonisolated var lateDrawCount: Int { shown.withLock { $0.lateDraws } }

    // MARK: Control

    /// Starts or resumes (see ``PlaylistSequencer/play(at:)``) at `instant` or ``now``.
    @discardableResult
    public func play(at instant: Instant? = nil) -> [PlaylistEvent] {
        perform { $0.play(at: instant.map(hostTime)) }
    }

    /// Freezes the position (see ``PlaylistSequencer/pause(at:)``).
    @discardableResult
    public func pause(at instant: Instant? = nil) -> [PlaylistEvent] {
        perform { $0.pause(at: instant.map(hostTime)) }
    }

    /// Moves time forward to `instant`; earlier instants are ignored.
    @discardableResult
    public func advance(to instant: Instant) -> [PlaylistEvent] {
        perform { $0.advance(to: hostTime(instant)) }
    }

    /// Moves time forward by `duration`; negative durations are ignored.
    @discardableResult
    public func advance(by duration: Duration) -> [PlaylistEvent] {
        perform { $0.advance(by: duration) }
    }

    /// Hands in a new list, relaying the current item when the new list is a
    /// subset of the old one that holds it (see
    /// ``PlaylistSequencer/replace(items:at:)``).
    @discardableResult
    public func replace(items: [PlaylistItem], at instant: Instant? = nil) -> [PlaylistEvent] {
        perform { $0.replace(items: items, at: instant.map(hostTime)) }
    }

    /// A driver's tick (see ``DrivenMember``): advance without waking
    /// drivers, then report when the next change is due.
    func tick(to instant: Instant, wake token: Int) -> Instant? {
        hub.consumeWake(token)
        let events = sequencer.advance(to: hostTime(instant))
        afterChange(events)
        return Self.deadline(nextChangeInstant, afterTickTo: instant, moved: !events.isEmpty)
    }

    /// A host's tick through its ``GroupDriver`` (see
    /// ``GroupDriver/tick(at:)``): advance without waking drivers, and say
    /// whether anything happened (a frame, an item, a load).
    func hostTick(to instant: Instant) -> (moved: Bool, next: Instant?) {
        let events = sequencer.advance(to: hostTime(instant))
        afterChange(events)
        return (!events.isEmpty, nextChangeInstant)
    }

    // MARK: Internals

    private nonisolated func hostTime(_ instant: Instant) -> Duration {
        origin.duration(to: instant)
    }

    private func perform(_ change: (inout PlaylistSequencer) -> [PlaylistEvent]) -> [PlaylistEvent] {
        let events = change(&sequencer)
        afterChange(events)
        hub.signalWakes()
        return events
    }

    private func afterChange(_ events: [PlaylistEvent]) {
        startRequestedLoads()
        cancelUnwantedLoads()
        updateCaches()
        publishShown()
        deliver(events)
    }

    /// Publishes the current item's drawer and frame for drawing, and asks
    /// the drawer for the frames due next.
    private func publishShown() {
        let key = sequencer.currentKey
        let drawer = key.flatMap { drawers[$0] }
        let frame = sequencer.currentFrame ?? 0
        shown.withLock { shown in
            shown.drawer = drawer
            shown.frame = frame
        }
        guard let drawer, let head = sequencer.currentPlayhead, head.state == .playing else { return }
        head.upcomingFrames(4, into: &upcoming)
        upcoming.insert(frame, at: 0)
        drawer.prefetch(upcoming)
    }

    /// Runs each load the sequencer asks for on a task; the result comes back
    /// through ``arrive(_:_:)``.
    private func startRequestedLoads() {
        let requests = sequencer.takeLoadRequests()
        // runningLoadCount changes: a watcher waiting for a load to start
        // (the first ones start on a task of their own) hears of it.
        defer { if !requests.isEmpty { hub.signalWatchers() } }
        for request in requests {
            loadTasks[request.id] = Task { [weak self] in
                let result: Result<any FrameSource, any Error>
                do {
                    result = .success(try await request.item.load())
                } catch {
                    result = .failure(error)
                }
                await self?.arrive(request, result)
            }
        }
    }

    /// Cancels the loads the sequencer no longer wants (their items were
    /// removed or handed in anew): their results would be ignored. The tasks
    /// are not awaited; a loader that ignores cancellation is abandoned and
    /// counted in ``abandonedLoadCount`` until it returns.
    private func cancelUnwantedLoads() {
        guard !loadTasks.isEmpty else { return }
        for (id, task) in loadTasks where !sequencer.isLoadWanted(id) {
            task.cancel()
            loadTasks[id] = nil
            abandonedLoads.insert(id)
            cancelledLoads += 1
        }
    }

    private func arrive(_ request: PlaylistLoadRequest, _ result: Result<any FrameSource, any Error>) {
        if abandonedLoads.remove(request.id) != nil {  // cancelled: the result is not wanted
            hub.signalWatchers()  // abandonedLoadCount changed
            return
        }
        loadTasks[request.id] = nil
        if case .success(let source) = result, let progressive = source as? any ProgressiveFrameSource {
            // A loader may hand back a source still loading: its frames are
            // played as they arrive.
            let updates = progressive.timingUpdates()
            let key = request.item.key
            growth.start { [weak self] in
                for await timing in updates {
                    guard let self else { return }
                    await self.sourceGrew(key, timing)
                }
            }
        }
        afterChange(sequencer.finishLoad(request, result: result))
        // A driver passes time in at once, so an item waited for starts now.
        hub.signalWakes()
    }

    /// Takes on a progressive source's newer timing and wakes the drivers.
    private func sourceGrew(_ key: String, _ timing: FrameSourceTiming) {
        if sequencer.extendSource(of: key, to: timing) { hub.signalWakes() }
    }

    /// Keeps caches for the current item and the next loaded one only, and
    /// has the next one decode its first frames.
    private func updateCaches() {
        var wanted: [String] = []
        if let key = sequencer.currentKey { wanted.append(key) }
        if let index = sequencer.currentIndex, sequencer.items.count > 1 {
            for offset in 1..<sequencer.items.count {
                let key = sequencer.items[(index + offset) % sequencer.items.count].key
                if sequencer.source(for: key) != nil {
                    wanted.append(key)
                    break
                }
            }
        }
        for key in caches.keys where !wanted.contains(key) {
            caches[key] = nil
            drawers[key] = nil
            images[key] = nil
        }
        for key in wanted where caches[key] == nil {
            guard let cache = makeCache(for: key) else { continue }
            drawers[key]?.prefetch(Self.firstFrames(
                configuration.player.direction, frameCount: cache.source.frameCount, count: max(1, cache.lookahead)))
        }
        let current = sequencer.currentKey.flatMap { caches[$0] }
        if current !== playingCache {
            playingCache?.endPlaying()
            current?.beginPlaying()
            playingCache = current
        }
    }

    /// The first `count` frames of one loop in `direction`'s play order,
    /// without building the whole order (a source may report any count).
    static func firstFrames(_ direction: PlaybackDirection, frameCount: Int, count: Int) -> [Int] {
        let n = min(max(0, frameCount), count)
        switch direction {
        case .forward, .bounce: return Array(0..<n)
        case .reverse: return (0..<n).map { frameCount - 1 - $0 }
        }
    }

    private func makeCache(for key: String) -> FrameCache? {
        guard var source = sequencer.source(for: key) else { return nil }
        if let size = sequencer.items.first(where: { $0.key == key })?.displaySize {
            source = source.displaying(at: size)
        }
        let cache = if let budget = configuration.memoryBudget {
            FrameCache(source: source, budget: budget)
        } else {
            FrameCache(source: source, byteBudget: configuration.cacheByteBudget)
        }
        caches[key] = cache
        drawers[key] = cache.makeDrawer()
        return cache
    }

    /// Asks the current item's drawer for the frames that come next (a
    /// source that cannot draw decodes them into its cache).
    func prefetchUpcoming() {
        guard let key = sequencer.currentKey, let head = sequencer.currentPlayhead, let cache = caches[key] else {
            return
        }
        let upcoming = head.upcomingFrames(cache.lookahead)
        if !upcoming.isEmpty { drawers[key]?.prefetch(upcoming) }
    }
}
