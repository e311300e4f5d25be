@_spi(Engine) import EngineSupport

/// The synchronous engine under a ``Playlist``: its ``PlaylistSequencer``,
/// its listeners, its loads, the caches of the current and the next item,
/// and the item and frame it publishes for drawing, behind one lock, so
/// that every call runs on the caller's thread, as a ``PlayerCore`` does
/// for a player.
///
/// The ``Playlist`` actor is a thin asynchronous layer over it; a
/// ``GroupDriver`` ticks it directly, from a host's display link or from
/// its own loop, with no hop to the playlist's actor. Loads run on tasks
/// of its own, whose results come back under the lock. Events are posted
/// under the lock and reach the listeners once it is released, with the
/// player's engine's machinery (``LockedState/changing(_:)``).
///
/// It measures time as host time, a `Duration` from the playlist's origin.
final class PlaylistCore: EventEngine {
    /// The rules in force.
    let configuration: PlaylistConfiguration

    /// The state and its listeners, behind the one lock.
    let state: LockedState<State>
    /// The item and frame shown, for ``draw(into:bytesPerRow:)``, which
    /// never waits for a tick.
    private let shown = LockedState(Shown())
    /// The tasks that hand progressive sources' timings in.
    private let growth = TimingSubscription()

    struct State: HubState {
        var sequencer: PlaylistSequencer
        /// Observers, event streams, driver wake-ups and change watchers.
        var hub = EventHub<PlaylistEvent>()
        var loadTasks: [Int: Task<Void, Never>] = [:]
        /// Loads cancelled whose loader has not returned yet (it may ignore
        /// cancellation): counted, never awaited.
        var abandonedLoads: Set<Int> = []
        var cancelledLoads = 0
        var caches: [String: FrameCache] = [:]
        /// A drawer per cached item (see ``draw(into:bytesPerRow:)``).
        var drawers: [String: any FrameDrawer] = [:]
        /// The canvases ``currentImage()`` draws a cached item into, made at
        /// its first call (`.some(nil)`: the item's source cannot draw).
        var images: [String: DrawnImages?] = [:]
        /// The frame shown and the look-ahead handed to its drawer, reused
        /// from change to change.
        var upcoming: [Int] = []
        /// The current item's cache, told it plays
        /// (``FrameCache/beginPlaying()``) so a shared budget gives back the
        /// next item's frames first.
        var playingCache: FrameCache?
    }

    private struct Shown {
        /// The current item's drawer and frame, once it is loaded.
        var drawer: (any FrameDrawer)?
        var frame = 0
        /// The drawer that drew into the host's buffer last.
        var lastDrawer: ObjectIdentifier?
        var lateDraws = 0
    }

    /// A core on `items`' first item at host time zero; the first loads
    /// start on a task (see ``startLoads()``).
    /// - Throws: ``PlayerError/invalidRate(_:)``.
    init(items: [PlaylistItem], configuration: PlaylistConfiguration) throws(PlayerError) {
        self.configuration = configuration
        state = LockedState(State(sequencer: try PlaylistSequencer(
            items: items, configuration: configuration, now: .zero)))
    }

    deinit {
        growth.cancel()
        state.withLock { state in
            for task in state.loadTasks.values { task.cancel() }
            state.hub.finishStreams()
        }
    }

    // MARK: Reading

    /// `body`'s answer about the sequencer as it stands.
    func read<Result>(_ body: (borrowing PlaylistSequencer) -> Result) -> Result {
        state.withLock { body($0.sequencer) }
    }

    /// Loads running whose result the playlist still wants, those cancelled
    /// so far, and those cancelled whose loader has not returned yet.
    var loadCounts: (running: Int, cancelled: Int, abandoned: Int) {
        state.withLock { ($0.loadTasks.count, $0.cancelledLoads, $0.abandonedLoads.count) }
    }

    // MARK: Changing

    /// Starts the loads the sequencer asks for (the first ones, at creation).
    func startLoads() {
        state.changing { state in startRequestedLoads(&state) }
    }

    /// Applies a host's change to the sequencer, delivers its events and
    /// wakes the drivers.
    func perform(_ change: (inout PlaylistSequencer) -> [PlaylistEvent]) -> [PlaylistEvent] {
        state.changing { state in
            let events = change(&state.sequencer)
            afterChange(&state, events)
            state.hub.signalWakes()
            return events
        }
    }

    /// A driver's tick (see ``DrivenMember``): advance to host time `time`
    /// without waking drivers, mark the wake-up under `token` consumed, and
    /// report when the next change is due. A deadline already due after a
    /// tick that changed nothing means the playlist cannot move (its time
    /// has saturated): it reports `nil`, so its driver rests until the host
    /// changes something instead of waking again at once for ever.
    func tick(to time: Duration, wake token: Int) -> Duration? {
        state.changing { state in
            state.hub.consumeWake(token)
            let events = state.sequencer.advance(to: time)
            afterChange(&state, events)
            guard let next = state.sequencer.nextChangeTime, next > time || !events.isEmpty else { return nil }
            return next
        }
    }

    /// A host's tick through its ``GroupDriver`` (see
    /// ``GroupDriver/tick(at:)``): advance to host time `time` without
    /// waking drivers, and say whether anything happened (a frame, an item,
    /// a load), when the next change is due, and whether events wait: the
    /// group's list calls ``deliverEvents()`` once its lock is released.
    func hostTick(to time: Duration) -> (moved: Bool, next: Duration?, deliveryDue: Bool) {
        state.withLock { state in
            let events = state.sequencer.advance(to: time)
            afterChange(&state, events)
            return (!events.isEmpty, state.sequencer.nextChangeTime, state.hub.deliveryDue)
        }
    }

    /// After any change: loads started and cancelled, caches kept, the
    /// item shown published, the events posted.
    private func afterChange(_ state: inout State, _ events: [PlaylistEvent]) {
        startRequestedLoads(&state)
        cancelUnwantedLoads(&state)
        updateCaches(&state)
        publishShown(&state)
        guard !events.isEmpty else { return }
        state.hub.post(events)
        let moved = events.contains { event in
            switch event {
            case .itemStarted, .player(_, .frameChanged): true
            default: false
            }
        }
        if moved { prefetchUpcoming(state) }
    }

    /// Publishes the current item's drawer and frame for drawing, and asks
    /// the drawer for the frames due next.
    private func publishShown(_ state: inout State) {
        let key = state.sequencer.currentKey
        let drawer = key.flatMap { state.drawers[$0] }
        let frame = state.sequencer.currentFrame ?? 0
        shown.withLock { shown in
            shown.drawer = drawer
            shown.frame = frame
        }
        guard let drawer, let head = state.sequencer.currentPlayhead, head.state == .playing else { return }
        head.upcomingFrames(4, into: &state.upcoming)
        state.upcoming.insert(frame, at: 0)
        drawer.prefetch(state.upcoming)
    }

    /// Asks the current item's drawer for the frames that come next (a
    /// source that cannot draw decodes them into its cache).
    private func prefetchUpcoming(_ state: State) {
        guard let key = state.sequencer.currentKey, let head = state.sequencer.currentPlayhead,
            let cache = state.caches[key]
        else { return }
        let upcoming = head.upcomingFrames(cache.lookahead)
        if !upcoming.isEmpty { state.drawers[key]?.prefetch(upcoming) }
    }

    /// Runs each load the sequencer asks for on a task; the result comes back
    /// through ``arrive(_:_:)``.
    private func startRequestedLoads(_ state: inout State) {
        let requests = state.sequencer.takeLoadRequests()
        guard !requests.isEmpty else { return }
        for request in requests {
            state.loadTasks[request.id] = Task { [weak self] in
                let result: Result<any FrameSource, any Error>
                do {
                    result = .success(try await request.item.load())
                } catch {
                    result = .failure(error)
                }
                self?.arrive(request, result)
            }
        }
        // The running loads changed: a watcher waiting for a load to start
        // hears of it.
        state.hub.signalWatchers()
    }

    /// Cancels the loads the sequencer no longer wants (their items were
    /// removed or handed in anew): their results would be ignored. The tasks
    /// are not awaited; a loader that ignores cancellation is abandoned and
    /// counted until it returns.
    private func cancelUnwantedLoads(_ state: inout State) {
        guard !state.loadTasks.isEmpty else { return }
        for (id, task) in state.loadTasks where !state.sequencer.isLoadWanted(id) {
            task.cancel()
            state.loadTasks[id] = nil
            state.abandonedLoads.insert(id)
            state.cancelledLoads += 1
        }
    }

    private func arrive(_ request: PlaylistLoadRequest, _ result: Result<any FrameSource, any Error>) {
        let progressive = state.changing { state -> (any ProgressiveFrameSource)? in
            if state.abandonedLoads.remove(request.id) != nil {  // cancelled: the result is not wanted
                state.hub.signalWatchers()  // the abandoned loads changed
                return nil
            }
            state.loadTasks[request.id] = nil
            afterChange(&state, state.sequencer.finishLoad(request, result: result))
            // A driver passes time in at once, so an item waited for starts now.
            state.hub.signalWakes()
            guard case .success(let source) = result else { return nil }
            return source as? any ProgressiveFrameSource
        }
        // A loader may hand back a source still loading: its frames are
        // played as they arrive.
        guard let progressive else { return }
        let updates = progressive.timingUpdates()
        let key = request.item.key
        growth.start { [weak self] in
            for await timing in updates {
                guard let self else { return }
                self.sourceGrew(key, timing)
            }
        }
    }

    /// Takes on a progressive source's newer timing and wakes the drivers.
    private func sourceGrew(_ key: String, _ timing: FrameSourceTiming) {
        state.withLock { state in
            if state.sequencer.extendSource(of: key, to: timing) { state.hub.signalWakes() }
        }
    }

    /// Keeps caches for the current item and the next loaded one only, and
    /// has the next one decode its first frames.
    private func updateCaches(_ state: inout State) {
        var wanted: [String] = []
        let sequencer = state.sequencer
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
        for key in state.caches.keys where !wanted.contains(key) {
            state.caches[key] = nil
            state.drawers[key] = nil
            state.images[key] = nil
        }
        for key in wanted where state.caches[key] == nil {
            guard let cache = makeCache(for: key, &state) else { continue }
            state.drawers[key]?.prefetch(Self.firstFrames(
                configuration.player.direction, frameCount: cache.source.frameCount, count: max(1, cache.lookahead)))
        }
        let current = sequencer.currentKey.flatMap { state.caches[$0] }
        if current !== state.playingCache {
            state.playingCache?.endPlaying()
            current?.beginPlaying()
            state.playingCache = current
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

    private func makeCache(for key: String, _ state: inout State) -> FrameCache? {
        guard var source = state.sequencer.source(for: key) else { return nil }
        if let size = state.sequencer.items.first(where: { $0.key == key })?.displaySize {
            source = source.displaying(at: size)
        }
        let cache = if let budget = configuration.memoryBudget {
            FrameCache(source: source, budget: budget)
        } else {
            FrameCache(source: source, byteBudget: configuration.cacheByteBudget)
        }
        state.caches[key] = cache
        state.drawers[key] = cache.makeDrawer()
        return cache
    }

    // MARK: Images and drawing

    /// What ``Playlist/currentImage()`` draws: the current item's frame
    /// shown, with its canvases (`nil` when its source cannot draw) and its
    /// cache; `nil` when no item is loaded.
    func currentImageSource() -> (frame: Int, images: DrawnImages?, cache: FrameCache)? {
        state.withLock { state in
            guard let key = state.sequencer.currentKey, let frame = state.sequencer.currentFrame else { return nil }
            guard let cache = state.caches[key] ?? makeCache(for: key, &state) else { return nil }
            if state.images[key] == nil { state.images[key] = .some(DrawnImages(cache: cache)) }
            return (frame, state.images[key] ?? nil, cache)
        }
    }

    /// See ``Playlist/draw(into:bytesPerRow:)``.
    func draw(into buffer: UnsafeMutableRawBufferPointer, bytesPerRow: Int) throws(PixelBufferError) -> FrameDraw? {
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

    /// See ``Playlist/currentDrawer``.
    var currentDrawer: (any FrameDrawer)? { shown.withLock { $0.drawer } }

    /// See ``Playlist/lateDrawCount``.
    var lateDrawCount: Int { shown.withLock { $0.lateDraws } }
}
